#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Instructions the core spends on one full read of every counter of a 16-port host,
# counted by callgrind (stable on a noisy machine). Usage: host-read.sh [BUILD_DIR]. With
# PERF_MD=FILE (tests/perf/report.sh) it also appends its section, in markdown, to FILE.
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
[ -z "${PERF_MD:-}" ] || {
	printf '## The core reading a host\n\n'
	printf '`tests/perf/host-read.sh` counts with callgrind the instructions the core spends in\n'
	printf '`rk_host_refresh` reading every counter of a generated 16-port host once\n'
	printf '(`tests/fixtures/make-many-ports.sh`), averaged over %s reads of one process\n' "$reads"
	printf '(`tests/perf/host_read_bench.c`): attributes opened once and re-read with `pread`, values\n'
	printf 'parsed without allocation, against opening, reading and closing each attribute at every\n'
	printf 'read. Instruction counts do not move with the load: one run.\n\n'
	printf '| one read of 16 ports | instructions |\n| --- | --- |\n'
	printf '| descriptors kept (what the daemons do) | %s |\n' "$kept"
	printf '| open-read-close per attribute | %s |\n' "$reopened"
	awk -v a="$kept" -v b="$reopened" 'BEGIN { printf "| ratio kept / reopened | %.2f |\n", a / b }'
	printf '\nThe benchmark itself: %s.\n' "$(cat "$work/bench.log")"
} >>"$PERF_MD"
