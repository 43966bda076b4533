#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build the libFuzzer targets (clang, RDMAKIT_FUZZ=ON) and run them.
#   tests/fuzz/run.sh SECONDS [NAME...]  fuzz each target (default: every corpus/NAME) for
#                                        SECONDS, starting from its corpus; new inputs go to a
#                                        work dir, never into the repository's corpus
#   tests/fuzz/run.sh 0 [NAME...]        regression: run every input of each corpus once
#   tests/fuzz/run.sh --build            only build
# Prints executions and coverage per target; exits 1 when a target crashed, leaked, hung
# (10 s per input) or stopped on undefined behaviour, keeping the input that did it (its path
# is printed); 77 when clang is missing. FUZZ_BUILD_DIR (default build-fuzz), FUZZ_CC (clang);
# FUZZ_PREBUILT=1 runs the targets as they are built (ctest's per-target tests, after fuzz_build:
# two of them configuring and building one directory at the same time would race).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$top/build-fuzz}
cc=${FUZZ_CC:-clang}

command -v "$cc" >/dev/null || { echo "fuzz: skipped: no $cc (apt-get install clang)"; exit 77; }
[ $# -ge 1 ] || { echo "usage: tests/fuzz/run.sh SECONDS|--build [NAME...]" >&2; exit 2; }
if [ "${FUZZ_PREBUILT:-0}" != 1 ] || [ "$1" = --build ]; then
	CC=$cc cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRDMAKIT_FUZZ=ON \
		-DRDMAKIT_BUILD_TESTS=OFF -DRDMAKIT_BUILD_CLI=OFF -DRDMAKIT_BUILD_COLLECTD=OFF >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
[ "$1" = --build ] && exit 0
case $1 in *[!0-9]* | "") echo "fuzz: SECONDS must be a whole number, got '$1'" >&2; exit 2 ;; esac
seconds=$1
shift
[ $# -gt 0 ] || set -- $(cd "$here/corpus" && ls)

work=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-fuzz.XXXXXX")
failed=0
printf '%-14s %12s %8s %8s %8s  %s\n' target executions cov ft corpus result
for name in "$@"; do
	bin=$build/tests/fuzz/fuzz_$name
	corpus=$here/corpus/$name
	[ -x "$bin" ] || { echo "fuzz: no target fuzz_$name in $build" >&2; failed=1; continue; }
	[ -d "$corpus" ] || { echo "fuzz: no corpus $corpus" >&2; failed=1; continue; }
	log=$work/$name.log
	mkdir "$work/$name"
	if [ "$seconds" = 0 ]; then
		set +e
		"$bin" -timeout=10 -artifact_prefix="$work/$name-" "$corpus"/* >"$log" 2>&1
		rc=$?
		set -e
		runs=$(grep -c '^Executed ' "$log" || true)
		cov=-
		ft=-
		size=$(ls "$corpus" | wc -l)
	else
		set +e
		"$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
			-artifact_prefix="$work/$name-" "$work/$name" "$corpus" >"$log" 2>&1
		rc=$?
		set -e
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		last=$(grep -E '^#[0-9]+' "$log" | tail -1)
		cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
		ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
		size=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	fi
	if [ "$rc" = 0 ]; then
		result=ok
	else
		result="FAILED (exit $rc): $(ls "$work/$name"-* 2>/dev/null | head -1), log $log"
		failed=1
	fi
	printf '%-14s %12s %8s %8s %8s  %s\n' "$name" "${runs:-?}" "${cov:-?}" "${ft:-?}" \
		"${size:-?}" "$result"
done
if [ "$failed" = 0 ]; then
	rm -rf "$work"
else
	echo "fuzz: kept $work"
	for log in "$work"/*.log; do grep -E 'ERROR|runtime error|SUMMARY' "$log" | head -5; done
fi
exit "$failed"
