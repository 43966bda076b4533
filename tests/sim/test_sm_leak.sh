#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# test_sm_leak.sh - a failed SM query leaks nothing: sm_fail (tests/sim/sm_fail.c) makes
# rk_fabric_cache_query_sm fail 50 times after rk_sm_query allocated its SM list, against a real
# ibsim + OpenSM, under valgrind (memcheck: no definite or indirect leak whose allocation is in
# rdmakit). In the sanitized build (RDMAKIT_SANITIZED=1) valgrind cannot run with ASan, so the
# same program runs under LeakSanitizer instead (a leak makes it exit non-zero).
#
# SM_FAIL=path of sm_fail. Runs in ~10 s.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sim/simctl.sh
. "$HERE/simctl.sh"

T_START=$(_sim_now)
PASS=0
FAIL=0
NAME=rdk-smleak-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-test-smleak.XXXXXX") || exit 1
export SIM_DIR=$WORK SIM_OWNER_PID=$$ SIM_QUIET=1 SIM_TIMEOUT=120
SUPP=$HERE/../sanitize/valgrind.supp

# shellcheck source=checks.sh
. "$HERE/checks.sh"
trap 'rc=$?; trap - EXIT; sim_stop_started || bad "sim_stop reported survivors"; report_and_exit test_sm_leak "$rc"' EXIT

[ -x "${SM_FAIL:-}" ] || fatal "SM_FAIL (the sm_fail program) is not set"
"$HERE/gen-fattree.py" --leaves 2 --hosts-per-leaf 2 --spines 1 --radix 4 -o "$WORK/net" -q ||
	fatal "gen-fattree.py"
sim_start "$NAME" "$WORK/net" || fatal "sim_start"
sim_opensm "$NAME" Hca1 10 || fatal "sim_opensm"

if [ "${RDMAKIT_SANITIZED:-0}" = 1 ]; then
	echo "valgrind skipped: this is the sanitized build (ASan and valgrind cannot run together);"
	echo "LeakSanitizer checks the same run"
	sim_run "$NAME" "$SM_FAIL" 50 >"$WORK/out" 2>&1
	rc=$?
	check "sm_fail under LeakSanitizer exits 0 (rc $rc)" test "$rc" = 0
	check "no leak reported" bash -c '! grep -q "LeakSanitizer" "$1"' _ "$WORK/out"
else
	sim_run "$NAME" valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--suppressions="$SUPP" --xml=yes --xml-file="$WORK/vg.xml" \
		"$SM_FAIL" 50 >"$WORK/out" 2>&1
	rc=$?
	check "sm_fail under valgrind exits 0, no memory error or leak (rc $rc)" test "$rc" = 0
	lost=$(grep -c "<kind>Leak_DefinitelyLost</kind>\|<kind>Leak_IndirectlyLost</kind>" "$WORK/vg.xml")
	check "valgrind: no definitely or indirectly lost block ($lost)" test "$lost" = 0
fi
check "50 SM queries failed with -EINVAL and kept no SM" \
	grep -q "^sm_fail rounds=50 failed=50 rc=-22 sms=0$" "$WORK/out"
[ "$FAIL" = 0 ] || sed 's/^/     /' "$WORK/out" | head -60
