#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# bench_mad.sh - time one rk_mad_run of PortCounters over every cabled port of the ~2,000-CA
# fat tree (64 leaves x 32 hosts, 32 spines, radix 64: 8,192 ports) at several windows, next
# to ibqueryerrors on the same simulated fabric. Not part of ctest (about 20 s).
#
#   tests/sim/bench_mad.sh [REPS]        (default 5 repetitions; medians are printed)
#
# MAD_PROBE=path of mad_probe (default build/tests/mad_probe); WINDOWS="1 8 32 64".
# shellcheck disable=SC2016 # bash -c '...' scripts get their values as $1..
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sim/simctl.sh
. "$HERE/simctl.sh"

MAD_PROBE=${MAD_PROBE:-$HERE/../../build/tests/mad_probe}
REPS=${1:-5}
WINDOWS=${WINDOWS:-1 8 32 64}
NAME=rdk-madbench-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-bench-mad.XXXXXX") || exit 1
export SIM_DIR=$WORK SIM_OWNER_PID=$$ SIM_QUIET=1 SIM_TIMEOUT=60

finish() {
	trap - EXIT INT TERM
	sim_stop_started
	rm -rf -- "$WORK"
}
trap finish EXIT
trap 'exit 130' INT TERM

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# wall_ms CMD...: wall time of one command in ms (output discarded).
wall_ms() {
	local t0
	t0=$(_sim_now)
	"$@" >/dev/null 2>&1
	awk -v a="$t0" -v b="$(_sim_now)" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'
}

"$HERE/gen-fattree.py" --leaves 64 --hosts-per-leaf 32 --spines 32 --radix 64 \
	-o "$WORK/big.net" -q || exit 1
sim_start "$NAME" "$WORK/big.net" || exit 1
sim_opensm "$NAME" Hca1 10 || exit 1
sim_run "$NAME" ibnetdiscover -p 2>/dev/null |
	awk '$1 == "SW" || $1 == "CA" { print $2 ":" $3 }' | sort -u >"$WORK/targets"
echo "fabric: $(head -n1 "$WORK/big.net" | cut -c3-); $(wc -l <"$WORK/targets") PortCounters targets"
echo "reps: $REPS (medians)"

for w in $WINDOWS; do
	: >"$WORK/run.$w"
	: >"$WORK/wall.$w"
	for ((i = 0; i < REPS; i++)); do
		t0=$(_sim_now)
		out=$(sim_run "$NAME" "$MAD_PROBE" --quiet --window "$w" --targets "$WORK/targets" 2>/dev/null)
		awk -v a="$t0" -v b="$(_sim_now)" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }' >>"$WORK/wall.$w"
		sed -n 's/.* elapsed_ms=\([0-9.]*\) .*/\1/p' <<<"$out" >>"$WORK/run.$w"
		grep -q " answered=$(wc -l <"$WORK/targets") timeouts=0 " <<<"$out" ||
			echo "window $w: not every target answered: $out"
	done
	printf 'mad_probe window %-3s  rk_mad_run %7.1f ms   process %7.1f ms\n' "$w" \
		"$(median <"$WORK/run.$w")" "$(median <"$WORK/wall.$w")"
done

for tool in ibqueryerrors ibnetdiscover; do
	: >"$WORK/t.$tool"
	for ((i = 0; i < REPS; i++)); do
		wall_ms sim_run "$NAME" "$tool" >>"$WORK/t.$tool"
	done
	printf '%-26s process %7.1f ms\n' "$tool" "$(median <"$WORK/t.$tool")"
done
