#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Instructions one collectd read of a 16-port host costs in rdmakit.so and in collectd's own
# infiniband plugin, counted by callgrind, side by side with their ratio.
# Usage: collectd-read.sh [BUILD_DIR]. Needs root (unshare -m, mount --bind). With PERF_MD=FILE
# (tests/perf/report.sh) it also appends its section, in markdown, to FILE.
# Exit status: 0 when rdmakit's cost is at most TARGET (0.25) of the built-in plugin's,
# 1 when it is above, 77 when something needed is missing (ctest counts that as skipped).
#
# Method.
# - Both plugins read the same tree (tests/fixtures/make-many-ports.sh OUTDIR 16). rdmakit
#   reads it through SysfsRoot; the built-in plugin only reads /sys/class/infiniband, so it
#   runs in a private mount namespace (unshare -m) with the tree's class/ bind-mounted over
#   /sys/class. Nothing outside that namespace sees the mount.
# - Each plugin runs alone in a real daemon (collectd -f, Interval 1) under callgrind until
#   it has read at least READS times, then collectd is stopped by PID with SIGTERM and
#   callgrind writes its profile.
# - A plugin's own cost per read is the inclusive cost of its read callback minus the
#   inclusive cost of plugin_dispatch_values (what collectd spends per value list; both
#   plugins pay it, and no other code dispatches values in these runs: no other read plugin
#   is loaded and CollectInternalStats is off), divided by the number of calls of the read
#   callback. callgrind_annotate --tree=caller gives a function's inclusive cost on its "*"
#   line and its calls on the "<" lines of its callers.
# - rdmakit.so has symbols: its callback is rdmakit_read. Debian strips infiniband.so, so
#   callgrind names its functions by address. The read callback is the address that
#   module_register (still exported) passes to plugin_register_read: objdump shows it as the
#   "lea ...,%rsi # ADDR" just before the call (or tail jump) to plugin_register_read@plt.
#   That is the exact function collectd calls at every read, found without guessing.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
plugin_dir=$build/collectd-plugin
builtin=/usr/lib/collectd/infiniband.so
reads=4
target=0.25

skip() {
	echo "collectd-read: skipped: $*" >&2
	exit 77
}

if [ "${RDMAKIT_SANITIZED:-0}" = 1 ]; then # ctest counts 77 as skipped in this build only
	echo "collectd-read: skipped: this is the sanitized build, and valgrind (callgrind) cannot" \
		"run a program with ASan; the normal build runs this test"
	exit 77
fi
for tool in collectd valgrind callgrind_annotate objdump unshare mount; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
[ -f "$builtin" ] || skip "$builtin not found"
[ "$(id -u)" -eq 0 ] || skip "needs root for unshare -m"
unshare -m true 2>/dev/null || skip "unshare -m not permitted here"
[ -f "$plugin_dir/rdmakit.so" ] || BUILD_DIR=$build "$top/scripts/build.sh"

work=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
"$top/tests/fixtures/make-many-ports.sh" "$work/sysfs" 16 >/dev/null

# The address of infiniband.so's read callback, as callgrind names it.
builtin_read_fn() {
	addr=$(objdump -d --no-show-raw-insn "$builtin" | awk '
		/<module_register(@@Base)?>:/ { inside = 1; next }
		inside && /^$/ { exit }
		inside && /lea .*,%rsi/ { addr = $(NF - 1) }
		inside && /<plugin_register_read@plt>/ { print addr; exit }')
	[ -z "$addr" ] || printf '0x%016x\n' "0x$addr"
}

# write_conf NAME PLUGIN_DIR PLUGIN [BLOCK...]: a private daemon that reads with one plugin.
write_conf() {
	name=$1 dir=$2 plugin=$3
	shift 3
	mkdir -p "$work/$name"
	{
		printf 'Hostname "perf"\nBaseDir "%s"\nPIDFile "%s"\n' "$work/$name" "$work/$name/pid"
		printf 'TypesDB "/usr/share/collectd/types.db"\nInterval 1\n'
		printf 'PluginDir "/usr/lib/collectd"\nLoadPlugin csv\n'
		printf '<Plugin csv>\n  DataDir "%s/csv"\n  StoreRates false\n</Plugin>\n' "$work/$name"
		printf 'PluginDir "%s"\nLoadPlugin %s\n' "$dir" "$plugin"
		for line in "$@"; do printf '%s\n' "$line"; done
	} >"$work/$name/collectd.conf"
}

# run_daemon NAME CSV_GLOB [WRAPPER...]: run collectd under callgrind until CSV_GLOB (a file
# of one value) has READS rows, then stop it by PID.
run_daemon() {
	name=$1 csv=$2
	shift 2
	"$@" valgrind --tool=callgrind --callgrind-out-file="$work/$name/cg.out" \
		collectd -f -C "$work/$name/collectd.conf" >"$work/$name/log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		rows=$(cat $work/$name/csv/perf/$csv 2>/dev/null | wc -l)
		[ "$rows" -gt "$reads" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || true
	pid=
	[ -s "$work/$name/cg.out" ] || {
		cat "$work/$name/log" >&2
		exit 1
	}
}

# own_cost NAME FUNCTION: "instructions-per-read reads value-lists-per-read" of FUNCTION.
own_cost() {
	# From /: callgrind_annotate shortens names of files under its working directory and
	# then splits their lines.
	(cd / && callgrind_annotate --auto=no --threshold=100 --inclusive=yes --tree=caller \
		"$work/$1/cg.out") | awk -v fn="$2" '
		function num(s) { gsub(",", "", s); return s + 0 }
		/^ *[0-9,]+ .*  < / { n = $0; sub(/.*\(/, "", n); sub(/x\).*/, "", n); calls += num(n); next }
		/^ *[0-9,]+ .*  \* / {
			if (index($0, fn) && !read) { read = num($1); reads = calls }
			if (index($0, ":plugin_dispatch_values ")) { dispatch = num($1); lists = calls }
			calls = 0; next
		}
		{ calls = 0 }
		END {
			if (!reads) exit 1
			printf "%d %d %d\n", (read - dispatch) / reads, reads, lists / reads
		}'
}

write_conf rdmakit "$plugin_dir" rdmakit '<Plugin rdmakit>' "  SysfsRoot \"$work/sysfs\"" '</Plugin>'
write_conf rdmakit-pma "$plugin_dir" rdmakit '<Plugin rdmakit>' "  SysfsRoot \"$work/sysfs\"" \
	'  HwCounters false' '</Plugin>'
write_conf builtin /usr/lib/collectd infiniband

run_daemon rdmakit 'rdma-mlx5_0-1/gauge-state-*'
run_daemon rdmakit-pma 'rdma-mlx5_0-1/gauge-state-*'
run_daemon builtin 'infiniband-mlx5_0:1/ib_state-*' unshare -m sh -c \
	"mount --bind '$work/sysfs/class' /sys/class && exec \"\$0\" \"\$@\""

fn=$(builtin_read_fn)
[ -n "$fn" ] || skip "no plugin_register_read call found in $builtin's module_register"
set -- $(own_cost builtin "$fn [$builtin]")
b_cost=$1 b_reads=$2 b_lists=$3
set -- $(own_cost rdmakit ':rdmakit_read [')
r_cost=$1 r_reads=$2 r_lists=$3
set -- $(own_cost rdmakit-pma ':rdmakit_read [')
p_cost=$1 p_reads=$2 p_lists=$3

echo "One read of 16 ports (make-many-ports.sh) in a running collectd: instructions of the"
echo "plugin's read callback minus those in plugin_dispatch_values, per read (callgrind)."
echo "infiniband.so's read callback: $fn (from its module_register)."
printf '%-40s %12s %6s %12s %7s\n' plugin "own Ir/read" reads "lists/read" ratio
row() {
	awk -v n="$1" -v c="$2" -v r="$3" -v l="$4" -v b="$b_cost" \
		'BEGIN { printf "%-40s %12d %6d %12d %7.3f\n", n, c, r, l, c / b }'
}
row "infiniband.so (collectd 5.12)" "$b_cost" "$b_reads" "$b_lists"
row "rdmakit.so (default: PMA + hw_counters)" "$r_cost" "$r_reads" "$r_lists"
row "rdmakit.so (HwCounters false)" "$p_cost" "$p_reads" "$p_lists"
[ -z "${PERF_MD:-}" ] || {
	printf '## One collectd read against collectd'"'"'s infiniband plugin\n\n'
	printf '`tests/perf/collectd-read.sh` runs a real collectd under callgrind with one plugin at a\n'
	printf 'time reading the same generated 16-port host, and counts the instructions of the\n'
	printf 'plugin'"'"'s read callback minus those in `plugin_dispatch_values` (what collectd itself\n'
	printf 'spends per value list), per read (%s reads or more; the method is at the top of the\n' "$reads"
	printf 'script). The ratio is to `infiniband.so`, from the same run. Instruction counts do not\n'
	printf 'move with the load: one run.\n\n'
	printf '| plugin | own instructions per read | reads | value lists per read | ratio |\n'
	printf '| --- | --- | --- | --- | --- |\n'
	mdrow() { awk -v n="$1" -v c="$2" -v r="$3" -v l="$4" -v b="$b_cost" \
		'BEGIN { printf "| %s | %d | %d | %d | %.3f |\n", n, c, r, l, c / b }'; }
	mdrow "infiniband.so (collectd 5.12)" "$b_cost" "$b_reads" "$b_lists"
	mdrow "rdmakit.so (default: PMA + hw_counters)" "$r_cost" "$r_reads" "$r_lists"
	mdrow "rdmakit.so (HwCounters false)" "$p_cost" "$p_reads" "$p_lists"
	printf '\nTarget: own cost at most %s of infiniband.so'"'"'s. See also\n' "$target"
	printf '[collectd-plugin/README.md](../collectd-plugin/README.md#speed).\n'
} >>"$PERF_MD"
awk -v r="$r_cost" -v p="$p_cost" -v b="$b_cost" -v t="$target" 'BEGIN {
	ok = r / b <= t && p / b <= t
	printf "target: own cost at most %.2f of infiniband.so: %s\n", t, ok ? "met" : "NOT met"
	exit !ok
}'
