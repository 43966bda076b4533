#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The MADs each fabric command sends, for several builds of rdmakit, on the ~2,000-CA simulated
# fat tree (tests/perf/bigfabric.sh: 96 switches, 2,048 CAs, 8,192 cabled ports), counted by
# tests/perf/madcount.c preloaded before the shim (the discovery helper's counted too): SMPs,
# PortCounters, PortCountersExtended, ClassPortInfo, other. Commands: fabric, sm, sweep,
# sweep --errors-only, route check, doctor --fabric. A build is a build directory
# (BUILD/cli/rdmakit and BUILD/common/rdmakit-discover), e.g. of an older commit. Nothing on the
# simulated fabric drops MADs, so the counts are exact and repeat from run to run.
# Usage: tests/perf/mads.sh BUILD... ; exit status 1 when a later build sends more MADs of a
# command than the first.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { sed -n '3,11s/^# \{0,1\}//p' "$0" >&2; exit 2; }
builds=()
for b in "$@"; do
	b=$(realpath "$b")
	[ -x "$b/cli/rdmakit" ] && [ -x "$b/common/rdmakit-discover" ] ||
		{ echo "mads: $b has no cli/rdmakit and common/rdmakit-discover" >&2; exit 2; }
	builds+=("$b")
done
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
cc -O2 -Wall -shared -fPIC -o "$work/madcount.so" "$top/tests/perf/madcount.c" -ldl
name=rkmads$$
big_fabric_start "$name"
commands=("fabric" "sm" "sweep" "sweep --errors-only" "route check" "doctor --fabric")

: >"$work/records"
for i in "${!builds[@]}"; do
	for c in "${!commands[@]}"; do
		: >"$work/mads"
		# shellcheck disable=SC2086 # the command's words
		LD_PRELOAD=$work/madcount.so RK_MADCOUNT_OUT=$work/mads \
			RDMAKIT_DISCOVER_HELPER=${builds[$i]}/common/rdmakit-discover \
			sim_run "$name" "${builds[$i]}/cli/rdmakit" ${commands[$c]} >/dev/null 2>&1 || true
		awk -v b="$i" -v c="$c" '{ for (k = 2; k <= NF; k += 2) s[k] += $k }
			END { print b, c, s[2] + 0, s[4] + 0, s[6] + 0, s[8] + 0, s[10] + 0 }' \
			"$work/mads" >>"$work/records"
	done
done

python3 - "$work/records" "$(git -C "$top" describe --always --dirty)" "${builds[@]}" \
	-- "${commands[@]}" <<'PY'
import sys, time
path, commit, *rest = sys.argv[1:]
sep = rest.index("--")
builds, commands = rest[:sep], rest[sep + 1:]
rec = {}
for line in open(path):
    b, c, *n = map(int, line.split())
    rec[b, c] = n
print("MADs per command on the 2,048-CA tree; %s, tree at %s"
      % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit))
print("| command | build | SMPs | PortCounters | PortCountersExtended | ClassPortInfo | other | all | x first build |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
more = False
for c, command in enumerate(commands):
    first = sum(rec[0, c])
    for b, build in enumerate(builds):
        total = sum(rec[b, c])
        more |= total > first
        print("| %s | %s | %s | %d | %s |" % (command, build, " | ".join(map(str, rec[b, c])), total,
                                        "%.3f" % (total / first) if first else "-"))
sys.exit(1 if more else 0)
PY
