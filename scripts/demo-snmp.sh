#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The SNMP part of demo.sh: a private snmpd with rdmakit-agentx serving the fixture host ib-hdr
# and the simulated fabric SIM (already running), read with net-snmp's snmptable/snmpwalk.
# Usage: demo-snmp.sh BUILD_DIR SIM_NAME WORK_DIR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$1
sim=$2
dir=$3/snmp
mkdir -p "$dir/persist"
port=$((20000 + $$ % 40000))
export SNMP_PERSISTENT_DIR=$dir/persist SNMPCONFPATH=$dir
export MIBDIRS=$top/mibs:$top/tests/snmp/mibs:/usr/share/snmp/mibs MIBS=RDMAKIT-MIB
snmpd_pid= agent_pid=
stop() {
	for pid in $agent_pid $snmpd_pid; do kill "$pid" 2>/dev/null && wait "$pid" || true; done
}
trap stop EXIT
cat >"$dir/snmpd.conf" <<CONF
agentaddress udp:127.0.0.1:$port
master agentx
agentXSocket $dir/agentx.sock
agentXPerms 0660 0770
rocommunity public 127.0.0.1
CONF
printf '\n== rdmakit-agentx behind a private snmpd: this host (fixture ib-hdr) and the simulated fabric\n'
printf 'snmpd.conf:\n'
sed 's/^/    /' "$dir/snmpd.conf"
snmpd -f -Lf "$dir/snmpd.log" -C -c "$dir/snmpd.conf" -p "$dir/snmpd.pid" &
snmpd_pid=$!
printf 'fabric yes\nsm yes\nfabric-interval 5\n' >"$dir/subagent.conf"
printf '$ rdmakit-agentx -x %s -c subagent.conf --sysfs-root tests/fixtures/sysfs/ib-hdr\n' \
	"$dir/agentx.sock"
# Under the umad2sim shim, attached to the simulated fabric; the shim writes ./sys-<pid>/ and
# takes every descriptor from 1024 up for its own, hence no descriptor floor (the core sees it).
(cd "$dir" && LD_PRELOAD=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
	IBSIM_SOCKNAME=$sim exec "$build/snmp-subagent/rdmakit-agentx" -f -Lf "$dir/agentx.log" \
	-x "$dir/agentx.sock" -c "$dir/subagent.conf" --sysfs-root "$top/tests/fixtures/sysfs/ib-hdr" \
	2>"$dir/agentx.stderr") &
agent_pid=$!

# Ready once the first fabric sweep is served (its time is no longer 0).
for _ in $(seq 150); do
	swept=$(snmpget -v2c -c public -t 0.2 -r 1 -Oqv "127.0.0.1:$port" \
		rdmakitFabricSweptAt.0 2>/dev/null || true)
	[ -n "$swept" ] && [ "$swept" != 0 ] && [ "${swept#No}" = "$swept" ] && break
	sleep 0.2
done
show() {
	local tool=$1
	shift
	printf '\n$ %s %s\n' "$tool" "$*"
	"$tool" -v2c -c public "${@:1:$#-1}" "127.0.0.1:$port" "${@: -1}" 2>&1 |
		head -n "${LINES_SHOWN:-14}" || true
}
show snmptable -Cb -Ci rdmakitPortTable
show snmpwalk rdmakitPcPortXmitData
show snmpwalk rdmakitPcSaturated
# GUID-indexed tables: -Ob shows the index as numbers (snmptable cannot step through a
# fixed-length binary index it printed as text).
show snmptable -Cb -Ci -Ob rdmakitSmTable
# The fabric port table by the columns an operator reads first (snmptable cannot choose
# columns: its '|'-separated output is cut to them by their headers).
fabric_ports() {
	local columns="Name State Width Speed PeerGuidText PeerPort Degraded"
	printf '\n$ snmptable -Cb -Ob -Cf "|" rdmakitFabricPortTable   # columns: %s\n' "$columns"
	snmptable -v2c -c public -Cb -Ob -Cf '|' "127.0.0.1:$port" rdmakitFabricPortTable 2>&1 |
		awk -F'|' -v want="$columns" '
			/^SNMP table|^$/ { next }
			!n { n = split(want, w, " ")
			     split("16 7 8 6 20 9 8", width, " ")
			     for (i = 1; i <= NF; i++) at[$i] = i }
			{ line = ""
			  for (j = 1; j <= n; j++) {
				cell = (w[j] in at) ? $(at[w[j]]) : ""
				if (cell == "" || cell == "?") cell = "-"
				line = line sprintf("%-" width[j] "s ", cell)
			  }
			  sub(/ +$/, "", line)
			  print line }' | head -n "${LINES_SHOWN:-12}" || true
}
fabric_ports
show snmpwalk rdmakitFindingMessage
