# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# checks.sh - pass/fail bookkeeping shared by the bash tests in tests/sim (source it).
# Counts in PASS and FAIL; each check prints one "ok"/"FAIL" line.
PASS=${PASS:-0}
FAIL=${FAIL:-0}

ok() { PASS=$((PASS + 1)); printf 'ok   %s\n' "$*"; }
bad() { FAIL=$((FAIL + 1)); printf 'FAIL %s\n' "$*"; }
check() { # check "description" command...
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}
fatal() {
	bad "$*"
	echo "$(basename "$0"): aborting" >&2
	exit 1
}

# report_and_exit NAME RC: remove $WORK (kept with SIM_KEEP=1), print the time since $T_START
# and the counts, and exit 0 only when no check failed and RC is 0.
report_and_exit() {
	local name=$1 rc=$2
	if [ "${SIM_KEEP:-0}" = 1 ]; then
		echo "$name: work dir kept: $WORK"
	else
		rm -rf -- "$WORK"
	fi
	echo "$name: took $(_sim_since "$T_START") s"
	echo "$name: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ] && [ "$rc" -eq 0 ] && exit 0
	exit 1
}
