#!/bin/sh
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
