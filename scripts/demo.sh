#!/usr/bin/env bash
# Build rdmakit and show its main job on bundled sysfs fixtures (no HCA needed).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
fixtures=$top/tests/fixtures/sysfs
"$top/scripts/build.sh"
rdmakit=$build/cli/rdmakit

show() {
	printf '\n$ rdmakit %s\n' "$*"
	"$rdmakit" "$@" || true
}

printf '== A healthy ConnectX-6 HDR host (fixture ib-hdr)\n'
show status --sysfs-root "$fixtures/ib-hdr"
show doctor --sysfs-root "$fixtures/ib-hdr"
show counters --sysfs-root "$fixtures/ib-hdr" mlx5_0:1

printf '\n== Hosts with trouble\n'
for fixture in port-states degraded-rate pcie-x8 saturated fw-mismatch; do
	show doctor --expect-rate 200 --sysfs-root "$fixtures/$fixture"
done

printf '\n== A simulated InfiniBand fabric (ibsim + OpenSM): 4 leaves, 2 spines, 16 hosts\n'
work=$(mktemp -d)
export SIM_DIR=$work SIM_QUIET=1
# shellcheck source=../tests/sim/simctl.sh
. "$top/tests/sim/simctl.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
"$top/tests/sim/gen-fattree.py" --leaves 4 --hosts-per-leaf 4 --spines 2 --radix 8 \
	--slow-link Leaf2:3=4xSDR -q -o "$work/demo.net"
sim_start rkdemo$$ "$work/demo.net" >/dev/null
sim_opensm rkdemo$$ Hca1 10 >/dev/null
sim_opensm rkdemo$$ Hca2 5 >/dev/null
sim_cmd rkdemo$$ 'PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=12' >/dev/null
sim_cmd rkdemo$$ 'PerformanceSet "Spine2"[1] PortCounters.LinkDownedCounter=300' >/dev/null

fabric() {
	printf '\n$ rdmakit %s\n' "$*"
	sim_run rkdemo$$ "$rdmakit" "$@" 2>/dev/null || true
}
fabric sm
fabric fabric --degraded
fabric sweep --errors-only
fabric doctor --fabric --sysfs-root "$fixtures/ib-hdr"
