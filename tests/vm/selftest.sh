#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# One boot of the test VM: rxe0 answers ibv_devinfo with an ACTIVE port, and a failing
# command makes run.sh exit 1 with that command's status shown.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$here/run.sh" 'ibv_devinfo -d rxe0' 'echo "it ran"; exit 7' >"$out" 2>&1
status=$?
cat "$out"
fail() {
	echo "selftest: FAIL: $1" >&2
	exit 1
}
[ $status -eq 1 ] || fail "run.sh exited $status, expected 1 (one command failed)"
grep -q "^hca_id:	rxe0$" "$out" || fail "ibv_devinfo did not list rxe0"
grep -q "state:			PORT_ACTIVE (4)" "$out" || fail "rxe0 port 1 is not PORT_ACTIVE"
grep -q "link_layer:		Ethernet" "$out" || fail "rxe0 is not on Ethernet"
grep -q '^--- \[1\] exit 0$' "$out" || fail "ibv_devinfo's exit status is not 0"
grep -q '^it ran$' "$out" || fail "the second command's output is missing"
grep -q '^--- \[2\] exit 7$' "$out" || fail "the second command's status 7 is not shown"
grep -q 'run.sh: 1 of 2 commands failed' "$out" || fail "no summary of the failure"
echo "selftest: PASS"
