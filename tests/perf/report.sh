#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# report.sh - run the benchmarks of tests/perf/ and write docs/performance.md from what they
# print, with the conditions of each: date (UTC), commit, machine, load average before and
# after, number of runs, how long it took.
# Usage: tests/perf/report.sh [BUILD_DIR] [--runs N] [--out FILE] [--update] [NAME...]
#   NAME: a benchmark of the list below (default: those marked "default"); --runs N is passed
#   to every benchmark as PERF_RUNS (each has its own default); --out writes FILE instead of
#   docs/performance.md; --update keeps the sections of the benchmarks not run now from the
#   page as it is (each with the conditions, commit included, it was measured in) and replaces
#   those of the named ones. The page's fixed prose is docs/performance.intro.md.
#
# The contract with a benchmark script (tests/perf/NAME.sh, listed in BENCHMARKS below):
# - it is run as `NAME.sh BUILD_DIR` from the top of the repo, with PERF_MD=<file> (empty at
#   start) and, with --runs, PERF_RUNS=<n> (its number of runs, rounds or pairs) in the env;
# - it appends ONE markdown section to $PERF_MD: a `## ` heading, a sentence or more saying
#   what each figure measures (wall time of a whole process or a phase, which fabric or host,
#   which options, what a ratio is a ratio of), then its table(s), each cell the median and
#   range (min–max) over its runs when there are several, ratios taken within one run; then
#   any explanation of the figures;
# - it keeps printing its human text to stdout (report.sh saves it, not in the page);
# - it exits 0 when its targets are met, 1 when one is missed (the section is still used),
#   77 when something it needs is missing (its last line of stderr says what; the page says
#   "skipped" with it), anything else when it failed (the page says so, with its stderr tail).
# report.sh writes the page's header, the intro and, under each section's heading, the
# conditions; a benchmark writes nothing of them itself.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)

# name|default or not|what it needs. The order is the page's.
BENCHMARKS=(
	"sweep|default|ibsim, OpenSM, infiniband-diags"
	"sweep-window|default|ibsim, OpenSM"
	"plan|default|ibsim, OpenSM, infiniband-diags"
	"route|default|ibsim, OpenSM, infiniband-diags"
	"audit|default|ibsim, OpenSM, infiniband-diags"
	"host-read|default|valgrind"
	"collectd-read|default|collectd, valgrind, root (unshare -m)"
	"collectd-fabric|default|collectd, ibsim, OpenSM"
	"aggregator|default|collectd's network plugin, root (a network namespace)"
	"rediscover-leak|default|ibsim, OpenSM, valgrind"
	"snmp|default|snmpd, ibsim, OpenSM, root (a network namespace)"
	"snmp-floor|default|snmpd, root (a network namespace), taskset"
	"bench-vs-perftest|default|qemu, the test VM's kernel (tests/vm/run.sh), perftest"
	"scale|by name|ibsim, OpenSM, infiniband-diags; about 10 minutes (three-level trees up to 8,192 CAs)"
)

usage() {
	sed -n '6,12s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

build=$top/build
runs=
update=
out=$top/docs/performance.md
names=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--out) out=$(realpath -m "${2:?}"); shift 2 ;;
	--update) update=1; shift ;;
	-h | --help) usage ;;
	-*) echo "report.sh: unknown option $1" >&2; usage ;;
	*)
		if [ ${#names[@]} -eq 0 ] && [ -d "$1" ] && [ "$build" = "$top/build" ]; then
			build=$(realpath "$1")
		else
			names+=("$1")
		fi
		shift
		;;
	esac
done

known() { local b; for b in "${BENCHMARKS[@]}"; do [ "${b%%|*}" = "$1" ] && return 0; done; return 1; }
if [ ${#names[@]} -eq 0 ]; then
	for b in "${BENCHMARKS[@]}"; do
		IFS='|' read -r n def _ <<<"$b"
		[ "$def" = default ] && names+=("$n")
	done
fi
for n in "${names[@]}"; do
	known "$n" || { echo "report.sh: no benchmark named '$n' (tests/perf/$n.sh)" >&2; exit 2; }
done
[ -x "$build/cli/rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
commit=$(git -C "$top" describe --always --dirty)
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
ram_mib=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
machine="$(nproc) cores ($cpu_model), $ram_mib MiB RAM, kernel $(uname -r)"

# conditions NAME START LOAD_BEFORE LOAD_AFTER SECONDS STATUS: the block under a heading
conditions() {
	printf '\n_Conditions: %s, commit `%s`, %s; load average (1, 5, 15 min) %s before, %s after;' \
		"$2" "$commit" "$machine" "$3" "$4"
	printf ' runs: %s; %s s of wall time; `tests/perf/report.sh BUILD_DIR %s%s`; exit status %s._\n' \
		"${runs:-the default of each script}" "$5" "${runs:+--runs $runs }" "$1" "$6"
}

# run_one NAME: run the benchmark, then append its section with its conditions to $work/page.
run_one() {
	local n=$1 md=$work/$1.md start before after t0 status=0 heading
	: >"$md"
	start=$(date -u '+%Y-%m-%d %H:%M UTC')
	before=$(load)
	t0=$(date +%s)
	echo "report.sh: $n (load average $before)" >&2
	(cd "$top" && PERF_MD=$md ${runs:+PERF_RUNS=$runs} "$top/tests/perf/$n.sh" "$build") \
		>"$work/$n.out" 2>"$work/$n.err" || status=$?
	after=$(load)
	cp "$work/$n.out" "$work/$n.err" "$log_dir/" 2>/dev/null || true
	heading=$(grep -m1 '^## ' "$md" || true)
	{
		if [ -n "$heading" ] && [ "$status" -le 1 ]; then
			echo "$heading"
			conditions "$n" "$start" "$before" "$after" $(($(date +%s) - t0)) "$status"
			sed '0,/^## /d' "$md"
			[ "$status" -eq 0 ] || printf '\n**A target was missed in this run** (exit status 1).\n'
		else
			echo "## tests/perf/$n.sh"
			conditions "$n" "$start" "$before" "$after" $(($(date +%s) - t0)) "$status"
			if [ "$status" -eq 77 ]; then
				printf '\nSkipped: %s\n' "$(tail -n 1 "$work/$n.err")"
			else
				printf '\nNo figures: the script failed (exit status %s). The end of its stderr:\n\n```\n%s\n```\n' \
					"$status" "$(tail -n 5 "$work/$n.err")"
			fi
		fi
		echo
	} >>"$work/page"
	echo "report.sh: $n done, exit status $status (its output: $log_dir/$n.out)" >&2
}

# kept_section NAME: the section of benchmark NAME in the page as it is (--update), or nothing.
kept_section() {
	[ -f "$out" ] || return 0
	awk -v name="$1" '
		/^## / { if (sec != "" && keep) printf "%s", sec; sec = ""; keep = 0; on = 1 }
		on { sec = sec $0 "\n" }
		on && /^_Conditions: / && index($0, "report.sh BUILD_DIR ") && index($0, " " name "`") {
			keep = 1
		}
		END { if (sec != "" && keep) printf "%s", sec }' "$out"
}

# hand_sections: the sections of the page as it is that no benchmark of the list writes (their
# figures come from scripts run by hand, whose conditions their own prose gives): kept with
# --update, after the listed ones.
hand_sections() {
	[ -f "$out" ] || return 0
	awk '
		/^## / { if (sec != "" && !managed) printf "%s", sec; sec = ""; managed = 0; on = 1 }
		on { sec = sec $0 "\n" }
		on && /^_Conditions: / && index($0, "report.sh BUILD_DIR ") { managed = 1 }
		END { if (sec != "" && !managed) printf "%s", sec }' "$out"
}

log_dir=$build/perf-logs
mkdir -p "$log_dir"
: >"$work/page"
for b in "${BENCHMARKS[@]}"; do
	n=${b%%|*}
	if printf '%s\n' "${names[@]}" | grep -qx "$n"; then
		run_one "$n"
	elif [ -n "$update" ]; then
		kept_section "$n" >>"$work/page"
	fi
done
[ -z "$update" ] || hand_sections >>"$work/page"

not_run=()
kept=()
for b in "${BENCHMARKS[@]}"; do
	IFS='|' read -r n def needs <<<"$b"
	printf '%s\n' "${names[@]}" | grep -qx "$n" && continue
	if [ -n "$update" ] && [ -n "$(kept_section "$n")" ]; then
		kept+=("\`$n\`")
	else
		not_run+=("\`$n\` (needs $needs)")
	fi
done
{
	echo "<!-- Generated by tests/perf/report.sh: do not edit. The prose is in docs/performance.intro.md"
	echo "     and in the benchmark scripts; regenerate with tests/perf/report.sh [BUILD_DIR] [--runs N] [NAME...]. -->"
	cat "$top/docs/performance.intro.md"
	echo
	echo "This page was last written on $(date -u '+%Y-%m-%d %H:%M UTC') at commit \`$commit\`, on $machine."
	echo "Benchmarks run then: $(printf '`%s`, ' "${names[@]}" | sed 's/, $//')."
	if [ ${#kept[@]} -gt 0 ]; then
		echo "Kept from earlier runs, each with the date and commit of its own conditions: $(printf '%s, ' "${kept[@]}" | sed 's/, $//')."
	fi
	if [ ${#not_run[@]} -gt 0 ]; then
		echo "Not run for this page: $(printf '%s; ' "${not_run[@]}" | sed 's/; $//')."
	fi
	echo
	cat "$work/page"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "report.sh: wrote $out" >&2
