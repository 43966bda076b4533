#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Instructions the core spends on one full read of every counter of a 16-port host,
# counted by callgrind (stable on a noisy machine). Usage: host-read.sh [BUILD_DIR]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
bench=$build/tests/host_read_bench
[ -x "$bench" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$top/tests/fixtures/make-many-ports.sh" "$work/sysfs" 16 >/dev/null
reads=10

# Instructions inside rk_host_refresh over $reads reads, divided by $reads.
per_read() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
		--toggle-collect=rk_host_refresh "$bench" "$work/sysfs" "$reads" "$@" \
		>"$work/bench.log" 2>"$work/valgrind.log"
	total=$(sed -n 's/^summary: //p' "$work/cg.out")
	echo $((total / reads))
}

kept=$(per_read)
reopened=$(per_read 0)
echo "host read, 16 ports: $(cat "$work/bench.log")"
printf '%-44s %12s\n' "rdmakit core, one read (descriptors kept)" "$kept Ir"
printf '%-44s %12s\n' "rdmakit core, open-read-close per attribute" "$reopened Ir"
awk -v a="$kept" -v b="$reopened" 'BEGIN { printf "%-44s %12.2f\n", "ratio kept / reopened", a / b }'
