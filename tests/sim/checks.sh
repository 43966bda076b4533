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
