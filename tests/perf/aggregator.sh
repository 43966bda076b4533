#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The aggregating collectd's CPU and memory per 1,000 incoming value lists per interval, with
# the senders' rdmakit.so at its default settings and with HwCounters false, in the same run
# (tests/perf/aggregator_perf.py does the work and says how).
# Usage: tests/perf/aggregator.sh [BUILD_DIR]. PERF_RUNS rounds (default 3), SENDERS senders
# (default 12), WINDOW seconds of CPU measured per phase (10), STORE none (default: the
# aggregator's cache only) or write_prometheus, FILL_TIMEOUT seconds for the aggregator to hold
# every value list (300; it fails past that). With PERF_MD=FILE (tests/perf/report.sh) it
# appends its section to FILE. Exit 0 when every phase ran (no target), 77 when something
# needed is missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
for tool in collectd collectdctl; do
	command -v "$tool" >/dev/null 2>&1 || { echo "aggregator.sh: skipped: $tool not found" >&2; exit 77; }
done
for lib in network write_prometheus; do
	[ -f "/usr/lib/collectd/$lib.so" ] ||
		{ echo "aggregator.sh: skipped: collectd's $lib plugin not found" >&2; exit 77; }
done
[ -f "$build/collectd-plugin/rdmakit.so" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$top/tests/fixtures/make-many-ports.sh" "$work/many-ports" 16 >/dev/null
export MANY_PORTS=$work/many-ports RDMAKIT_PLUGIN_DIR=$build/collectd-plugin
# In a private network namespace when root, so that its UDP drop counters are its own.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
	exec unshare -n sh -c 'ip link set lo up && exec python3 "$0"' "$top/tests/perf/aggregator_perf.py"
fi
exec python3 "$top/tests/perf/aggregator_perf.py"
