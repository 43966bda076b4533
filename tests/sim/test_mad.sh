#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# test_mad.sh - librdmakit's MAD engine (common/src/fabric/mad.c, driven by mad_probe) against a
# simulated fabric: ibsim + OpenSM, real MADs through the umad2sim shim.
#
# Checks: local port facts; PortCounters of every cabled switch and CA port with exact values
# set from ibsim's console (16-bit saturation, 8-bit saturation, PortXmitWait), compared with
# perfquery; window 1 / 32 / 64 give the same values; a bad port select gives -EIO with the
# MAD status; directed-route NodeInfo and LID-routed SMInfo; a LID that does not exist times
# out after its attempts while the others complete; a port dropping MADs (console Error) gets
# retries and timeouts alone; a hung SM (opensm stopped) runs into the engine's own deadline
# at timeout x attempts while every other target completes at once, and its late answers are
# ignored by the next run; a second port in the process is refused.
#
# MAD_PROBE=path of mad_probe (default: build/tests/mad_probe). Exit 77: no ibsim (ctest counts it as a failure: install-deps.sh installs ibsim).
# SIM_KEEP=1 keeps the work dir. Runs in ~5 s.
# shellcheck disable=SC2016 # bash -c '...' scripts get their values as $1..
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sim/simctl.sh
. "$HERE/simctl.sh"

MAD_PROBE=${MAD_PROBE:-$HERE/../../build/tests/mad_probe}
for tool in ibsim opensm ibnetdiscover perfquery python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "test_mad: SKIP: $tool missing (apt-get install -y ibsim-utils opensm infiniband-diags)"
		exit 77
	fi
done
[ -r "$SIM_SHIM" ] || { echo "test_mad: SKIP: $SIM_SHIM missing"; exit 77; }
[ -x "$MAD_PROBE" ] || { echo "test_mad: FAIL: no mad_probe at $MAD_PROBE"; exit 1; }

T_START=$(_sim_now)
PASS=0
FAIL=0
NAME=rdk-mad-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-test-mad.XXXXXX") || exit 1
export SIM_DIR=$WORK SIM_OWNER_PID=$$ SIM_QUIET=1
export SIM_TIMEOUT=${SIM_TIMEOUT:-20} SIM_START_TIMEOUT=20 SIM_OSM_TIMEOUT=20
OSM_PID=""

# shellcheck source=checks.sh
. "$HERE/checks.sh"

finish() {
	local rc=$?
	trap - EXIT INT TERM
	# a stopped opensm would not see sim_stop's SIGTERM
	[ -n "$OSM_PID" ] && _sim_alive "$OSM_PID" && kill -CONT "$OSM_PID" 2>/dev/null
	sim_stop_started || bad "sim_stop reported survivors"
	report_and_exit test_mad "$rc"
}
trap finish EXIT
trap 'echo "test_mad: interrupted" >&2; exit 130' INT TERM

# probe OUTFILE ARGS...: run mad_probe under the shim, output (stdout+stderr) to OUTFILE.
probe() {
	local out=$1
	shift
	sim_run "$NAME" "$MAD_PROBE" "$@" >"$out" 2>&1
}
# field FILE PATTERN KEY: value of KEY= on the first line matching the awk PATTERN.
field() {
	awk -v k="$3" "$2"' { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) {
		print substr($i, length(k) + 2); exit } }' "$1"
}
# pc_field FILE LID PORT KEY: KEY of the first "pc" line of LID:PORT.
pc_field() { field "$1" "/^pc lid=$2 port=$3 /" "$4"; }
stat_of() { field "$1" "/^stats run=${3:-1} /" "$2"; }
# errors_only FILE: the pc lines reduced to what traffic does not change (error counters).
errors_only() {
	awk '/^pc / { s = $2 " " $3 " " $4; for (i = 5; i <= NF; i++)
		if ($i !~ /^(done_ms|PortXmitData|PortRcvData|PortXmitPkts|PortRcvPkts|PortRcvErrors)=/)
			s = s " " $i; print s }' "$1"
}
num_le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# --- fabric ------------------------------------------------------------------------------
NET=$WORK/fattree.net
"$HERE/gen-fattree.py" --leaves 4 --hosts-per-leaf 4 --spines 2 --radix 8 -o "$NET" -q ||
	fatal "gen-fattree.py"
sim_start "$NAME" "$NET" || fatal "sim_start"
sim_opensm "$NAME" Hca1 10 || fatal "sim_opensm"
OSM_PID=$(cat "$(sim_dir "$NAME")/opensm-Hca1.pid")

# Every cabled port, and LIDs by node description, from one ibnetdiscover -p.
sim_run "$NAME" ibnetdiscover -p >"$WORK/ports" 2>/dev/null || fatal "ibnetdiscover -p"
awk '$1 == "SW" || $1 == "CA" { print $2 ":" $3 }' "$WORK/ports" |
	sort -u -t: -k1,1n -k2,2n >"$WORK/targets"
lid_of() { awk -v n="'$1'" '{ split($0, q, "\\( "); if (index(q[2], n " -") == 1) { print $2; exit } }' "$WORK/ports"; }
NTARGETS=$(wc -l <"$WORK/targets")
LEAF1=$(lid_of Leaf1)
SPINE2=$(lid_of Spine2)
HCA1=$(lid_of "host1 HCA-1")
HCA6=$(lid_of "host6 HCA-1")
HCA7=$(lid_of "host7 HCA-1")
check "ibnetdiscover -p: 64 cabled ports (16 CA + 48 switch), got $NTARGETS" test "$NTARGETS" = 64
check "LIDs found: Leaf1=$LEAF1 Spine2=$SPINE2 Hca1=$HCA1 Hca6=$HCA6 Hca7=$HCA7" \
	test -n "$LEAF1" -a -n "$SPINE2" -a -n "$HCA1" -a -n "$HCA6" -a -n "$HCA7"

# --- counters set from the console -------------------------------------------------------
set_pc() { # set_pc NODE PORT FIELD VALUE EXPECTED
	local reply
	reply=$(sim_cmd "$NAME" "PerformanceSet \"$1\"[$2] PortCounters.$3=$4")
	check "console: $1[$2] $3=$4 reads back $5" grep -q "has been set to $5" <<<"$reply"
}
set_pc Leaf1 3 SymbolErrorCounter 5 5
set_pc Leaf1 3 PortXmitWait 123456 123456
set_pc Spine2 4 SymbolErrorCounter 70000 65535
set_pc Hca6 1 LinkDownedCounter 300 255
set_pc Hca6 1 PortXmitDiscards 70000 65535

# --- one run over every port ---------------------------------------------------------------
probe "$WORK/w32" --check-busy --targets "$WORK/targets" || bad "mad_probe (window 32) failed"
check "a second umad port in the process is refused (-EBUSY)" \
	test "$(field "$WORK/w32" '/^second_open /' rc)" = -16
check "local: lid $HCA1 (Hca1)" test "$(field "$WORK/w32" '/^local /' lid)" = "$HCA1"
check "local: sm_lid $HCA1 (opensm runs on Hca1), state 4 ACTIVE, port_guid of Hca1 port 1" \
	test "$(field "$WORK/w32" '/^local /' sm_lid)/$(field "$WORK/w32" '/^local /' state)/$(
		field "$WORK/w32" '/^local /' port_guid)" = "$HCA1/4/0x0002c90300000011"
check "window 32: $NTARGETS answered, no timeout, retry, error; done() once each" \
	test "$(stat_of "$WORK/w32" answered)/$(stat_of "$WORK/w32" timeouts)/$(
		stat_of "$WORK/w32" retried)/$(stat_of "$WORK/w32" errors)/$(
		stat_of "$WORK/w32" done_calls)/$(stat_of "$WORK/w32" done_dups)" = "$NTARGETS/0/0/0/$NTARGETS/0"
check "every target: status 0 after 1 attempt" \
	test "$(grep -c '^pc .* status=0 attempts=1 ' "$WORK/w32")" = "$NTARGETS"
check "Leaf1[3] SymbolErrorCounter 5" test "$(pc_field "$WORK/w32" "$LEAF1" 3 SymbolErrorCounter)" = 5
check "Leaf1[3] PortXmitWait 123456" test "$(pc_field "$WORK/w32" "$LEAF1" 3 PortXmitWait)" = 123456
check "Spine2[4] SymbolErrorCounter 70000 saturates at 65535 (16 bits)" \
	test "$(pc_field "$WORK/w32" "$SPINE2" 4 SymbolErrorCounter)" = 65535
check "Hca6[1] LinkDownedCounter 300 saturates at 255 (8 bits)" \
	test "$(pc_field "$WORK/w32" "$HCA6" 1 LinkDownedCounter)" = 255
check "Hca6[1] PortXmitDiscards 70000 saturates at 65535" \
	test "$(pc_field "$WORK/w32" "$HCA6" 1 PortXmitDiscards)" = 65535
nonzero=$(awk '/^pc / && !/SymbolErrorCounter=0 / { print $2 ":" $3 }' "$WORK/w32" | tr '\n' ' ')
check "SymbolErrorCounter is 0 on every other port (nonzero: $nonzero)" \
	test "$nonzero" = "lid=$LEAF1:port=3 lid=$SPINE2:port=4 " -o \
	"$nonzero" = "lid=$SPINE2:port=4 lid=$LEAF1:port=3 "
check "PortXmitData counts MAD traffic (Leaf1[1] > 0)" \
	num_le 1 "$(pc_field "$WORK/w32" "$LEAF1" 1 PortXmitData)"

# --- perfquery agrees ----------------------------------------------------------------------
perfq() { # perfq LID PORT FIELD
	sim_run "$NAME" perfquery "$1" "$2" 2>/dev/null | sed -n "s/^$3:\.*//p"
}
differ=0
for t in "$LEAF1 3" "$SPINE2 4" "$HCA6 1" "$HCA7 1" "$(lid_of Spine1) 5"; do
	read -r l p <<<"$t"
	for f in SymbolErrorCounter LinkDownedCounter PortXmitDiscards PortXmitWait; do
		a=$(pc_field "$WORK/w32" "$l" "$p" "$f")
		b=$(perfq "$l" "$p" "$f")
		if [ -z "$a" ] || [ "$a" != "$b" ]; then
			echo "     perfquery $l $p $f: '$b', mad_probe: '$a'"
			differ=$((differ + 1))
		fi
	done
done
check "perfquery reads the same 4 counters on 5 ports" test "$differ" = 0

# --- window 1 and 64 ------------------------------------------------------------------------
probe "$WORK/w1" --window 1 --targets "$WORK/targets" || bad "mad_probe (window 1) failed"
probe "$WORK/w64" --window 64 --targets "$WORK/targets" || bad "mad_probe (window 64) failed"
errors_only "$WORK/w32" >"$WORK/e32"
errors_only "$WORK/w1" >"$WORK/e1"
errors_only "$WORK/w64" >"$WORK/e64"
check "window 1: $NTARGETS answered" test "$(stat_of "$WORK/w1" answered)" = "$NTARGETS"
check "window 64: $NTARGETS answered" test "$(stat_of "$WORK/w64" answered)" = "$NTARGETS"
check "windows 1, 32 and 64 read the same error counters and PortXmitWait on $NTARGETS ports" \
	bash -c 'cmp -s "$1" "$2" && cmp -s "$1" "$3" && test "$(wc -l <"$1")" = "$4"' _ \
	"$WORK/e32" "$WORK/e1" "$WORK/e64" "$NTARGETS"

# --- MAD status, SMP by LID and by directed route -------------------------------------------
# Leaf1 ports 5,6 go to Spine1, 7,8 to Spine2 (gen-fattree.py cabling); GUIDs by name.
probe "$WORK/smp" --sminfo "$HCA1" --dr 1 --dr 1,7 --dr 1,5,3 "$HCA6:1/2" "$LEAF1:3" \
	0:1 0xc001:1 || bad "mad_probe (SMPs) failed"
check "PortCounters with a bad port select: -EIO, MAD status kept (0x001c), 1 attempt" \
	grep -q "^pc lid=$HCA6 port=1 status=-5 attempts=1 mad_status=0x001c " "$WORK/smp"
check "SMInfo of the SM (LID $HCA1): MASTER (3), priority 10, Hca1's port GUID" \
	grep -q "^sminfo lid=$HCA1 status=0 .* guid=0x0002c90300000011 priority=10 state=3 " "$WORK/smp"
check "DR 0,1: NodeInfo of Leaf1 (switch, 8 ports)" \
	grep -q '^dr path=0,1 status=0 .* node_type=2 num_ports=8 node_guid=0x0002c90200100001$' "$WORK/smp"
check "DR 0,1,7: NodeInfo of Spine2" \
	grep -q '^dr path=0,1,7 status=0 .* node_guid=0x0002c90200200002$' "$WORK/smp"
check "DR 0,1,5,3: NodeInfo of Leaf2 (Spine1 ports 3,4 go to Leaf2)" \
	grep -q '^dr path=0,1,5,3 status=0 .* node_guid=0x0002c90200100002$' "$WORK/smp"
check "the good target of that run is unaffected" \
	grep -q "^pc lid=$LEAF1 port=3 status=0 .* SymbolErrorCounter=5 " "$WORK/smp"
check "LID 0 and multicast LID 0xc001: -EINVAL, never sent (0 attempts)" \
	test "$(grep -c '^pc lid=\(0\|49153\) port=1 status=-22 attempts=0 ' "$WORK/smp")" = 2
check "SMP run: 5 answered, 3 errors, 6 MADs sent for 8 requests" \
	test "$(stat_of "$WORK/smp" answered)/$(stat_of "$WORK/smp" errors)/$(
		stat_of "$WORK/smp" sent)/$(stat_of "$WORK/smp" done_calls)" = 5/3/6/8
probe "$WORK/badopt" --window 5000 "$LEAF1:3"
check "window 5000: the run is refused (-EINVAL) and no request is touched" \
	test "$(stat_of "$WORK/badopt" rc)/$(stat_of "$WORK/badopt" done_calls)" = -22/0

# --- a LID that does not exist ----------------------------------------------------------------
probe "$WORK/nolid" --timeout 200 --retries 2 0x7fff:1 --targets "$WORK/targets" ||
	bad "mad_probe (LID 0x7fff) failed"
t=$(field "$WORK/nolid" '/^pc lid=32767 /' done_ms)
check "LID 0x7fff: -ETIMEDOUT after 3 attempts, done at ${t} ms <= 200 x 3 + 300" \
	bash -c 'grep -q "^pc lid=32767 port=1 status=-110 attempts=3 " "$1" &&
		awk -v t="$2" "BEGIN { exit !(t + 0 <= 900) }"' _ "$WORK/nolid" "$t"
check "LID 0x7fff: the other $NTARGETS targets answered at once (status 0, 1 attempt)" \
	test "$(grep -c '^pc .* status=0 attempts=1 ' "$WORK/nolid")/$(stat_of "$WORK/nolid" timeouts)/$(
		stat_of "$WORK/nolid" answered)" = "$NTARGETS/1/$NTARGETS"

# --- a port that drops MADs ------------------------------------------------------------------------
reply=$(sim_cmd "$NAME" "Error \"Hca7\"[1] 50")
check "console: Error \"Hca7\"[1] 50 accepted" test -z "$(grep -i 'error\|bad\|not' <<<"$reply")"
mapfile -t many < <(for _ in $(seq 40); do echo "$HCA7:1"; done)
probe "$WORK/drop" --timeout 100 --retries 2 --targets "$WORK/targets" "${many[@]}" ||
	bad "mad_probe (Error 50%) failed"
sim_cmd "$NAME" "Error \"Hca7\"[1] 0" >/dev/null
hca7_retried=$(grep -c "^pc lid=$HCA7 port=1 .* attempts=[23] " "$WORK/drop")
hca7_timeouts=$(grep -c "^pc lid=$HCA7 port=1 status=-110 attempts=3 " "$WORK/drop")
hca7_ok=$(grep -c "^pc lid=$HCA7 port=1 status=0 " "$WORK/drop")
others_bad=$(grep '^pc ' "$WORK/drop" | grep -v "^pc lid=$HCA7 port=1 " | grep -vc 'status=0 attempts=1 ')
echo "     Hca7 x41: $hca7_ok answered, $hca7_timeouts timed out, $hca7_retried needed retries;" \
	"stats: $(grep '^stats' "$WORK/drop" | cut -d' ' -f3-9)"
check "Error 50% on Hca7: its requests are retried ($hca7_retried) and some time out ($hca7_timeouts)" \
	test "$hca7_retried" -gt 0 -a "$hca7_timeouts" -gt 0 -a $((hca7_ok + hca7_timeouts)) = 41
check "Error 50% on Hca7: every other target answered on its first attempt" test "$others_bad" = 0
check "Error 50% on Hca7: stats add up (answered + timeouts + errors = $((NTARGETS + 40)))" \
	test $(($(stat_of "$WORK/drop" answered) + $(stat_of "$WORK/drop" timeouts) + $(
		stat_of "$WORK/drop" errors))) = $((NTARGETS + 40))

# --- a hung SM: the engine's own deadline, late answers ----------------------------------------
# ibsim answers a MAD it cannot deliver at once (status ETIMEDOUT) and the shim ignores
# umad_send's timeout, so only a target that holds the MAD tests our deadline: SMInfo goes to
# opensm's own client, and a stopped opensm never answers. Run 2 (after SIGCONT) gets its
# late answers to run 1 and must ignore them.
kill -STOP "$OSM_PID" || bad "cannot stop opensm"
(
	cd "$(sim_dir "$NAME")/run" &&
		exec timeout -k 5 20 env IBSIM_SOCKNAME="$NAME" LD_PRELOAD="$SIM_SHIM" \
			"$MAD_PROBE" --timeout 150 --retries 2 --runs 2 --gap-ms 1000 \
			--sminfo "$HCA1" --targets "$WORK/targets"
) >"$WORK/hung" 2>&1 &
probe_pid=$!
for ((i = 0; i < 100; i++)); do
	grep -q '^stats run=1 ' "$WORK/hung" && break
	sleep 0.05
done
kill -CONT "$OSM_PID"
wait "$probe_pid" || bad "mad_probe (hung SM) exited with $?"
t=$(awk '/^sminfo / { for (i = 1; i <= NF; i++) if ($i ~ /^done_ms=/) { print substr($i, 9); exit } }' "$WORK/hung")
check "hung SM: SMInfo -ETIMEDOUT after 3 attempts at ${t} ms (150 x 3 = 450; at most +150)" \
	bash -c 'grep -q "^sminfo lid=$1 status=-110 attempts=3 " "$2" &&
		awk -v t="$3" "BEGIN { exit !(t + 0 >= 449 && t + 0 <= 600) }"' _ "$HCA1" "$WORK/hung" "$t"
slow=$(awk '/^stats run=1 / { exit } /^pc / { for (i = 1; i <= NF; i++)
	if ($i ~ /^done_ms=/ && substr($i, 9) + 0 > 100) n++ } END { print n + 0 }' "$WORK/hung")
check "hung SM: run 1's $NTARGETS PortCounters all answered, none later than 100 ms ($slow)" \
	test "$(stat_of "$WORK/hung" answered 1)/$slow" = "$NTARGETS/0"
check "hung SM: run 1 took about the SM's timeout ($(stat_of "$WORK/hung" elapsed_ms 1) ms)" \
	num_le "$(stat_of "$WORK/hung" elapsed_ms 1)" 700
check "after SIGCONT: run 2 answers SMInfo and ignores the $(stat_of "$WORK/hung" ignored 2) late answers to run 1" \
	test "$(stat_of "$WORK/hung" answered 2)" = $((NTARGETS + 1)) -a \
	"$(stat_of "$WORK/hung" ignored 2)" -ge 1

# --- a slow SM: an answer to an earlier attempt completes the request ----------------------------
# opensm stopped for ~250 ms while SMInfo (150 ms x 3) is in flight: after SIGCONT it answers
# every attempt sent so far; the first answer completes the request, the others are ignored.
kill -STOP "$OSM_PID" || bad "cannot stop opensm"
(
	cd "$(sim_dir "$NAME")/run" &&
		exec timeout -k 5 20 env IBSIM_SOCKNAME="$NAME" LD_PRELOAD="$SIM_SHIM" \
			"$MAD_PROBE" --timeout 150 --retries 2 --runs 2 --gap-ms 300 --sminfo "$HCA1"
) >"$WORK/slow" 2>&1 &
probe_pid=$!
for ((i = 0; i < 200; i++)); do
	grep -q '^local ' "$WORK/slow" && break
	sleep 0.01
done
sleep 0.25
kill -CONT "$OSM_PID"
wait "$probe_pid" || bad "mad_probe (slow SM) exited with $?"
a=$(field "$WORK/slow" '/^sminfo /' attempts)
ign=$(($(stat_of "$WORK/slow" ignored 1) + $(stat_of "$WORK/slow" ignored 2)))
check "slow SM: SMInfo answered (status 0) on a late answer, after $a attempts" \
	bash -c 'grep -q "^sminfo lid=$1 status=0 attempts=[23] .* state=3 " "$2"' _ "$HCA1" "$WORK/slow"
check "slow SM: the other $((a - 1)) answers to the same request were ignored ($ign)" \
	test "$ign" = $((a - 1))
# finish (EXIT trap) stops everything and prints the totals.
