#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# selftest.sh - exercise tests/sim: the fat-tree generator, simctl.sh,
# ibsim + OpenSM and the diags against them. Exit 0 only if all passed.
# Runs in ~5 s; needs ibsim-utils, opensm, infiniband-diags.
# SIM_KEEP=1 keeps the work dirs (logs) under $SIM_DIR.
# shellcheck disable=SC2016 # bash -c '...' scripts get their values as $1..
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=simctl.sh
. "$HERE/simctl.sh"

T_START=$(_sim_now)
PASS=0
FAIL=0
NAME=rdk-selftest-$$
NAME2=rdk-selftest2-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-selftest.XXXXXX") || exit 1
export SIM_DIR=$WORK
# Bounds for a broken setup (a healthy run needs a fraction of a second).
export SIM_TIMEOUT=${SIM_TIMEOUT:-15}
export SIM_START_TIMEOUT=${SIM_START_TIMEOUT:-20}
export SIM_OSM_TIMEOUT=${SIM_OSM_TIMEOUT:-20}
# A watchdog per instance stops it if this script dies without its trap.
export SIM_OWNER_PID=$$
ALLPIDS=()

exec 8>&1 9>&2 # finish() prints here even if a signal lands in a redirection
# shellcheck source=checks.sh
. "$HERE/checks.sh"

collect_pids() {
	local d f
	for d in "$WORK"/rdmakit-sim-*; do
		for f in "$d"/*.pid; do
			[ -e "$f" ] && ALLPIDS+=("$(cat "$f")")
		done
	done
}

finish() {
	local rc=$? p alive=""
	trap - EXIT INT TERM
	exec 1>&8 2>&9
	collect_pids
	sim_stop_started || bad "sim_stop reported survivors"
	for p in "${ALLPIDS[@]}"; do
		_sim_alive "$p" && alive+=" $p"
	done
	if [ -n "$alive" ]; then
		bad "processes survived sim_stop:$alive"
		for p in $alive; do kill -KILL "$p" 2>/dev/null; done
	else
		ok "no started process survives (${#ALLPIDS[@]} PIDs checked)"
	fi
	report_and_exit selftest "$rc"
}
trap finish EXIT
trap 'echo "selftest: interrupted" >&2; exit 130' INT TERM

for tool in ibsim opensm ibnetdiscover perfquery sminfo smpquery iblinkinfo python3; do
	command -v "$tool" >/dev/null || fatal "missing $tool (apt-get install -y ibsim-utils opensm infiniband-diags)"
done
[ -r "$SIM_SHIM" ] || fatal "missing $SIM_SHIM (ibsim-utils)"

# --- generator -------------------------------------------------------------
NET=$WORK/fattree.net
L=4 H=4 S=2 R=8
"$HERE/gen-fattree.py" --leaves $L --hosts-per-leaf $H --spines $S --radix $R \
	--slow-link Leaf1:3=4xSDR -o "$NET" -q || fatal "gen-fattree.py failed"
EXP_SW=$((L + S))
EXP_CA=$((L * H))
check "generator summary says $EXP_SW switches, $EXP_CA CAs" \
	grep -q "^# rdmakit-fattree: switches=$EXP_SW .* cas=$EXP_CA " "$NET"
check "generator: 16 Ca + 6 Switch records" \
	test "$(grep -c '^Ca' "$NET")/$(grep -c '^Switch' "$NET")" = "$EXP_CA/$EXP_SW"
check "generator: GUIDs unique" \
	test "$(grep -cE '^(caguid|switchguid)=' "$NET")" = \
	"$(grep -E '^(caguid|switchguid)=' "$NET" | sort -u | wc -l)"
"$HERE/gen-fattree.py" --leaves $L --hosts-per-leaf $H --spines $S --radix $R \
	--slow-link Leaf1:3=4xSDR -o "$WORK/again.net" -q
check "generator is deterministic" cmp -s "$NET" "$WORK/again.net"
err=$("$HERE/gen-fattree.py" --leaves 4 --hosts-per-leaf 7 --spines 2 --radix 8 -o "$WORK/x.net" 2>&1)
rc=$?
check "generator rejects radix overflow with a message (rc $rc)" \
	test $rc -ne 0 -a -n "$(printf '%s' "$err" | grep 'radix limit')"
"$HERE/gen-fattree.py" --leaves 64 --hosts-per-leaf 32 --spines 32 --radix 64 \
	-o "$WORK/big.net" -q || bad "big tree generation"
check "2,000-CA example: 96 switches, 2048 CAs, 8192 cabled ports, -N 4096" \
	grep -q "^# rdmakit-fattree: switches=96 .* cas=2048 nodes=2144 links=4096 cabled_ports=8192 " "$WORK/big.net"
check "2,000-CA example carries the ibsim-args hint" \
	grep -q '^# ibsim-args: -N 4096$' "$WORK/big.net"
rm -f "$WORK/big.net" "$WORK/again.net"

# --- ibsim + opensm ----------------------------------------------------------
sim_start "$NAME" "$NET" || fatal "sim_start"
collect_pids
check "starting a second ibsim with the same NAME is refused" \
	bash -c '! SIM_WORKDIR=$1 SIM_QUIET=1 "$2" start "$3" "$4" 2>/dev/null' _ \
	"$WORK/dup" "$HERE/simctl.sh" "$NAME" "$NET"
sim_opensm "$NAME" Hca1 10 || fatal "sim_opensm (master)"
check "first opensm reports MASTER in its log" test "$SIM_OSM_STATE" = MASTER
out=$(sim_wait_master "$NAME" 30) || fatal "no MASTER SM"
check "sminfo: MASTER, priority 10" \
	grep -q 'priority 10 state 3 SMINFO_MASTER' <<<"$out"

# --- discovery -----------------------------------------------------------------
disc=$(sim_run "$NAME" ibnetdiscover 2>/dev/null) || bad "ibnetdiscover failed"
nsw=$(grep -c '^Switch' <<<"$disc")
nca=$(grep -c '^Ca' <<<"$disc")
check "ibnetdiscover: $nsw switches (want $EXP_SW)" test "$nsw" = "$EXP_SW"
check "ibnetdiscover: $nca CAs (want $EXP_CA)" test "$nca" = "$EXP_CA"
check "ibnetdiscover: 4xEDR links" grep -q '"Spine1" lid [0-9]* 4xEDR' <<<"$disc"
check "ibnetdiscover: slow link Leaf1[3] is 4xSDR" \
	grep -q '^\[3\].*"host3 HCA-1" lid [0-9]* 4xSDR' <<<"$disc"

# --- counters --------------------------------------------------------------------
reply=$(sim_cmd "$NAME" 'PerformanceSet "Leaf1"[1] PortCounters.SymbolErrorCounter=5')
check "console PerformanceSet acknowledged" grep -q 'has been set to 5' <<<"$reply"
LEAF1=$(sim_lid "$NAME" Leaf1)
[ -n "$LEAF1" ] || bad "no LID for Leaf1"
pq=$(sim_run "$NAME" perfquery "${LEAF1:-0}" 1 2>/dev/null)
check "perfquery Leaf1 (lid $LEAF1) port 1: SymbolErrorCounter 5" \
	grep -qE '^SymbolErrorCounter:\.+5$' <<<"$pq"

# --- link down / up ------------------------------------------------------------
portstate() { # LID PORT -> LinkState word
	sim_run "$NAME" smpquery portinfo "$1" "$2" 2>/dev/null |
		sed -n 's/^LinkState:\.*//p'
}
wait_for() { # SECONDS command... : poll until the command succeeds
	local t=$1 i
	shift
	for ((i = 0; i < t * 5; i++)); do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}
ca_count_is() { test "$(sim_run "$NAME" ibnetdiscover 2>/dev/null | grep -c '^Ca')" = "$1"; }
state_is() { test "$(portstate "$1" "$2")" = "$3"; }

reply=$(sim_cmd "$NAME" 'Unlink "Hca4"[1]')
check "console Unlink accepted" test -z "$(grep -i 'unknown\|bad\|error' <<<"$reply")"
check "after Unlink: ibnetdiscover sees $((EXP_CA - 1)) CAs" wait_for 10 ca_count_is $((EXP_CA - 1))
check "after Unlink: smpquery Leaf1 port 4 LinkState Down" state_is "$LEAF1" 4 Down
check "after Unlink: iblinkinfo shows Leaf1 port 4 Down" \
	bash -c 'grep -qE "^ +$2 +4\[ *\] ==\( +Down/ *Polling\)" <<<"$("$1" run "$3" iblinkinfo 2>/dev/null)"' _ \
	"$HERE/simctl.sh" "$LEAF1" "$NAME"
sim_console "$NAME" 'ReLink "Hca4"[1]' || bad "console ReLink"
check "after ReLink: smpquery Leaf1 port 4 Active (SM resweep)" wait_for 20 state_is "$LEAF1" 4 Active
check "after ReLink: ibnetdiscover sees $EXP_CA CAs" wait_for 10 ca_count_is "$EXP_CA"

# --- client slots ----------------------------------------------------------------
SIM_TIMEOUT=2 sim_run "$NAME" ibsysstat -S >/dev/null 2>&1
rc=$?
check "a hanging client is killed by SIM_TIMEOUT (rc $rc)" test $rc -eq 124
att=$(sim_cmd "$NAME" Attached)
check "its ibsim slot was freed (1 client left: opensm)" \
	test "$(grep -c '^Client ' <<<"$att")" = 1
check "sim_run on an unknown instance fails at once" \
	bash -c '! SIM_QUIET=1 timeout 5 "$1" run nosuch-$$ sminfo 2>/dev/null' _ "$HERE/simctl.sh"

# --- standby SM --------------------------------------------------------------------
sim_opensm "$NAME" Hca2 5 || bad "sim_opensm (standby)"
collect_pids
check "second opensm (Hca2, priority 5) enters STANDBY" test "${SIM_OSM_STATE:-}" = STANDBY
HCA2=$(sim_lid "$NAME" "host2 HCA-1")
s_master=$(sim_run "$NAME" sminfo 2>/dev/null)
s_hca2=$(sim_run "$NAME" sminfo "${HCA2:-0}" 2>/dev/null)
echo "     sminfo:          $s_master"
echo "     sminfo $HCA2 (Hca2): $s_hca2"
nmaster=$(printf '%s\n%s\n' "$s_master" "$s_hca2" | grep -c SMINFO_MASTER)
check "sminfo: exactly one MASTER (priority 10)" \
	test "$nmaster" = 1 -a -n "$(grep 'priority 10 state 3 SMINFO_MASTER' <<<"$s_master")"
check "sminfo at Hca2's LID: SMINFO_STANDBY, priority 5" \
	grep -q 'priority 5 state 2 SMINFO_STANDBY' <<<"$s_hca2"

# --- a second instance side by side ---------------------------------------------
sim_start "$NAME2" "$NET" || bad "second instance"
collect_pids
d2=$(SIM_TIMEOUT=10 sim_run "$NAME2" ibnetdiscover 2>/dev/null | grep -c '^Ca')
check "second instance (no SM) discovered by direct route: $d2 CAs" test "$d2" = "$EXP_CA"
pq2=$(sim_cmd "$NAME2" 'PerformanceSet "Leaf1"[1] PortCounters.SymbolErrorCounter=7')
check "second instance takes its own console command" grep -q 'has been set to 7' <<<"$pq2"
pq=$(sim_run "$NAME" perfquery "${LEAF1:-0}" 1 2>/dev/null)
check "instances are independent (first still reads 5)" \
	grep -qE '^SymbolErrorCounter:\.+5$' <<<"$pq"
check "stop of the second instance" sim_stop "$NAME2"

# --- a three-level tree (gen-fattree.py --levels 3), discovered by direct route --
# 2 pods of 2 leaves (2 hosts each) and 2 spines, 2 cores, radix 4: 10 switches, 8 CAs,
# 24 links (8 host, 8 leaf-spine, 8 spine-core: 2 links from each spine to its core).
NAME4=rdk-selftest4-$$
"$HERE/gen-fattree.py" --levels 3 --pods 2 --leaves 2 --hosts-per-leaf 2 --spines 2 \
	--cores 2 --radix 4 -o "$WORK/three.net" -q || bad "three-level generation"
check "three-level summary: 10 switches, 8 CAs, 24 links" \
	grep -q "^# rdmakit-fattree: switches=10 levels=3 pods=2 leaves=4 spines=4 cores=2 cas=8 nodes=18 links=24 cabled_ports=48 " "$WORK/three.net"
check "three-level: every cable written at both ends, CA records first" \
	python3 -c 'import re, sys
text = open(sys.argv[1]).read()
ends, node, kinds = {}, None, []
for line in text.splitlines():
    m = re.match(r"^(Ca|Switch)\t\d+ \"([^\"]+)\"", line)
    if m:
        node = m.group(2); kinds.append(m.group(1)); continue
    m = re.match(r"^\[(\d+)\]\t\"([^\"]+)\"\[(\d+)\]", line)
    if m:
        ends[node, int(m.group(1))] = (m.group(2), int(m.group(3)))
assert len(ends) == 48 and all(ends[b] == a for a, b in ends.items()), ends
assert kinds == ["Ca"] * 8 + ["Switch"] * 10, kinds' "$WORK/three.net"
err=$("$HERE/gen-fattree.py" --levels 3 --pods 2 --leaves 2 --hosts-per-leaf 2 --spines 2 \
	--cores 3 --radix 4 -o "$WORK/x.net" 2>&1)
check "three-level: --cores not a multiple of --spines is refused" \
	grep -q 'not a multiple of --spines' <<<"$err"
if sim_start "$NAME4" "$WORK/three.net"; then
	collect_pids
	d4=$(SIM_TIMEOUT=10 sim_run "$NAME4" ibnetdiscover 2>/dev/null)
	check "three-level in ibsim: ibnetdiscover sees 10 switches, 8 CAs" \
		test "$(grep -c '^Switch' <<<"$d4")/$(grep -c '^Ca' <<<"$d4")" = 10/8
	check "three-level in ibsim: 48 port lines (24 links, both ends)" \
		test "$(grep -c '^\[' <<<"$d4")" = 48
	check "three-level in ibsim: Core1 reaches both pods (4 ports, 2 to each)" \
		test "$(awk '/^Switch/ { on = /"Core1"/ } on && /^\[/' <<<"$d4" |
			grep -oE '"Spine[0-9]+"' | sort | uniq -c | awk '{ print $1 }' | paste -sd,)" = 2,2
	check "stop of the three-level instance" sim_stop "$NAME4"
else
	bad "sim_start of the three-level tree"
fi

# --- an owner killed with SIGKILL: its watchdog cleans up ------------------------
NAME3=rdk-selftest3-$$
bash -c '. "$1"; SIM_OWNER_PID=$$ SIM_QUIET=1 sim_start "$2" "$3" || exit 1
	d=$(sim_dir "$2"); cat "$d/ibsim.pid" "$d/sleeper.pid" "$d/watchdog.pid" >"$4.tmp"
	mv "$4.tmp" "$4"; exec sleep 30' _ "$HERE/simctl.sh" "$NAME3" "$NET" "$WORK/owner.pids" &
owner=$!
wait_for 10 test -s "$WORK/owner.pids" || bad "owner did not start its instance"
kill -KILL "$owner" 2>/dev/null
wait "$owner" 2>/dev/null
mapfile -t opids <"$WORK/owner.pids"
ALLPIDS+=("${opids[@]}")
owner_gone() {
	local p
	for p in "${opids[@]}"; do _sim_alive "$p" && return 1; done
	test ! -e "$(sim_dir "$NAME3")"
}
check "kill -9 of the owner: watchdog stopped ibsim, sleeper, itself (${#opids[@]} PIDs) and removed the dir" \
	wait_for 10 owner_gone

# --- stop ------------------------------------------------------------------------------
collect_pids
check "sim_stop $NAME" sim_stop "$NAME"
check "work dir removed" test ! -e "$(sim_dir "$NAME")" -o "${SIM_KEEP:-0}" = 1
# finish (EXIT trap) verifies that no PID survives and prints the totals.
