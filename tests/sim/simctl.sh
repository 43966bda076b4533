#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# simctl.sh - a simulated InfiniBand fabric (ibsim + OpenSM) for tests.
#
# Use it as a library:            . tests/sim/simctl.sh
#                                 sim_start f1 fabric.net && sim_opensm f1
#                                 sim_run f1 ibnetdiscover; sim_stop f1
# or as a command:                tests/sim/simctl.sh start f1 fabric.net
#                                 tests/sim/simctl.sh run f1 perfquery
#                                 tests/sim/simctl.sh stop f1
#
# Functions (all return non-zero with a "simctl:" message on stderr on error):
#   sim_start NAME NETFILE [ibsim args...]   start ibsim (IBSIM_SOCKNAME=NAME)
#   sim_opensm NAME [NODE] [PRIORITY]        start opensm under the shim on NODE
#                                            (SIM_HOST; "" = first record),
#                                            wait until MASTER/STANDBY
#   sim_wait_master NAME [SECONDS]           poll sminfo until SMINFO_MASTER
#   sim_console NAME "LINE"                  write one ibsim console line
#   sim_cmd NAME "LINE"                      same, and print ibsim's answer
#   sim_run NAME CMD [ARGS...]               run a client under the shim
#   sim_reap NAME                            free ibsim slots of dead clients
#   sim_stop NAME                            stop everything of NAME by PID
#   sim_stop_started                         sim_stop every NAME this shell
#                                            started (for an EXIT trap)
#   sim_status NAME / sim_dir NAME / sim_lid NAME NODE
#
# Environment:
#   SIM_DIR        parent of the work dirs (default $TMPDIR or /tmp)
#   SIM_WORKDIR    exact work dir for the instance (overrides SIM_DIR/NAME);
#                  must be the same for every call about that NAME
#   SIM_TIMEOUT    seconds for one sim_run client (default 30)
#   SIM_START_TIMEOUT  seconds to wait for ibsim (default 60)
#   SIM_OSM_TIMEOUT    seconds to wait for opensm's state (default 60)
#   SIM_OSM_WAIT   0 = sim_opensm returns right after starting opensm
#   SIM_OSM_ARGS   extra opensm arguments (word-split)
#   SIM_KEEP       1 = sim_stop keeps the work dir (logs) for inspection
#   SIM_SHIM       path of libumad2sim.so
#   SIM_OWNER_PID  if set when sim_start runs: a watchdog stops the
#                  instance once that process is gone (e.g. SIM_OWNER_PID=$$
#                  in a test script, so even kill -9 of it leaves nothing)
#   SIM_QUIET      1 = no progress messages
#   SIM_HOST       honoured by sim_run (node the client attaches to)
#
# Work dir ${SIM_DIR:-$TMPDIR}/rdmakit-sim-NAME holds: console (fifo),
# ibsim.log, ibsim.pid, sleeper.pid, opensm-<node>/ (cwd, cache, log),
# opensm-<node>.pid, run/ (cwd of clients: the shim writes ./sys-<pid>/).
#
# Facts this relies on (see README.md): ibsim reads console commands from
# stdin, so it reads a fifo whose write end a "sleeper" holds open; ibsim
# prints "Network simulator ready" *before* it binds its sockets, so we
# also wait for @NAME:ctl in /proc/net/unix; a client with no ibsim of its
# name retries forever (always under timeout); at most 10 clients attach to
# one ibsim and a killed client keeps its slot until console "X <n>"
# (sim_run does that for clients it had to kill).

# shellcheck disable=SC2016 # bash -c '...' scripts get their values as $1..
# SIM_OSM_STATE: MASTER or STANDBY, set by the last sim_opensm (sourced use).
export SIM_OSM_STATE=${SIM_OSM_STATE:-}
SIM_SHIM=${SIM_SHIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
declare -ga _SIM_STARTED 2>/dev/null || _SIM_STARTED=()

_sim_msg() { [ "${SIM_QUIET:-0}" = 1 ] || printf 'simctl: %s\n' "$*" >&2; }
_sim_err() { printf 'simctl: error: %s\n' "$*" >&2; return 1; }
_sim_now() { printf '%s' "${EPOCHREALTIME:-$(date +%s.%N)}"; }
_sim_since() { awk -v a="$1" -v b="$(_sim_now)" 'BEGIN{printf "%.2f", b-a}'; }

_sim_check_name() {
	[[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$ ]] ||
		_sim_err "bad instance name '$1' (letters, digits, . _ -; max 48)"
}

sim_dir() {
	_sim_check_name "$1" || return 1
	if [ -n "${SIM_WORKDIR:-}" ]; then
		printf '%s\n' "$SIM_WORKDIR"
	else
		printf '%s/rdmakit-sim-%s\n' "${SIM_DIR:-${TMPDIR:-/tmp}}" "$1"
	fi
}

# _sim_alive PID: the process exists and is not a zombie.
_sim_alive() {
	local pid=$1 stat
	[[ "$pid" =~ ^[0-9]+$ ]] || return 1
	{ read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }
	[ "${stat:0:1}" != Z ] && [ "${stat:0:1}" != X ]
}

# _sim_pid_is PID PROG: PID runs PROG (or is still the bash subshell that
# is about to exec it), so a reused PID is never signalled.
_sim_pid_is() {
	local pid=$1 want=$2 argv0
	argv0=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | head -n1)
	argv0=${argv0##*/}
	argv0=${argv0#-} # a login shell's "-bash"
	[ "$argv0" = "$want" ] || [ "$argv0" = bash ] || [ "$argv0" = env ]
}

_sim_readpid() { local p; p=$(cat "$1" 2>/dev/null) && [[ "$p" =~ ^[0-9]+$ ]] && printf '%s' "$p"; }

# _sim_kill PIDFILE PROG [SECONDS]: TERM, wait, KILL; reap if our child.
_sim_kill() {
	local f=$1 prog=$2 t=${3:-10} pid i
	pid=$(_sim_readpid "$f") || return 0
	if _sim_alive "$pid" && ! _sim_pid_is "$pid" "$prog"; then
		_sim_msg "pid $pid from ${f##*/} now runs something else: not touched"
		return 0
	fi
	if _sim_alive "$pid"; then
		kill -TERM "$pid" 2>/dev/null
		for ((i = 0; i < t * 20; i++)); do
			_sim_alive "$pid" || break
			sleep 0.05
		done
		if _sim_alive "$pid"; then
			_sim_msg "$prog pid $pid ignored SIGTERM for ${t}s: SIGKILL"
			kill -KILL "$pid" 2>/dev/null
			for ((i = 0; i < 100; i++)); do
				_sim_alive "$pid" || break
				sleep 0.05
			done
		fi
	fi
	if _sim_alive "$pid"; then
		_sim_err "$prog pid $pid did not exit"
		return 1
	fi
	wait "$pid" 2>/dev/null # reap it if it is our child
	return 0
}

# Close inherited descriptors above 2 (a caller's pipes must not be held
# open by long-lived daemons). Run inside the subshell before exec.
_sim_closefds() {
	local fd
	for fd in "/proc/$BASHPID/fd"/*; do
		fd=${fd##*/}
		[[ "$fd" =~ ^[0-9]+$ ]] && [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
	done
	return 0
}

# ibsim's abstract socket "@NAME:ctl" (shown with trailing '@' for NULs).
_sim_sock_exists() {
	awk -v n="@$1:ctl" '{ p = $NF; sub(/@+$/, "", p); if (p == n) f = 1 }
		END { exit !f }' /proc/net/unix 2>/dev/null
}

_sim_need() {
	local d
	d=$(sim_dir "$1") || return 1
	[ -f "$d/.rdmakit-sim" ] || { _sim_err "no instance '$1' (no $d)"; return 1; }
	_sim_alive "$(_sim_readpid "$d/ibsim.pid")" ||
		{ _sim_err "ibsim of '$1' is not running (see $d/ibsim.log)"; return 1; }
	printf '%s' "$d"
}

sim_start() {
	local name=$1 net=$2 d t0 i pid spid
	if [ $# -lt 2 ]; then
		_sim_err "usage: sim_start NAME NETFILE [ibsim args...]"
		return 1
	fi
	shift 2
	local -a args=("$@")
	d=$(sim_dir "$name") || return 1
	[ -r "$net" ] || { _sim_err "net file '$net' not readable"; return 1; }
	net=$(readlink -f -- "$net")
	command -v ibsim >/dev/null ||
		{ _sim_err "ibsim not found (apt-get install -y ibsim-utils)"; return 1; }
	if [ -f "$d/ibsim.pid" ] && _sim_alive "$(_sim_readpid "$d/ibsim.pid")"; then
		_sim_err "instance '$name' already running (ibsim pid $(cat "$d/ibsim.pid"))"
		return 1
	fi
	if _sim_sock_exists "$name"; then
		_sim_err "an ibsim named '$name' already listens (@$name:ctl): pick another NAME"
		return 1
	fi
	# Generator hint (# ibsim-args: -N 4096) when the caller gave none.
	if [ ${#args[@]} -eq 0 ]; then
		local hint
		hint=$(sed -n '1,10s/^# ibsim-args: *//p' "$net" | head -n1)
		if [ -n "$hint" ]; then
			read -r -a args <<<"$hint"
			_sim_msg "using ibsim args from $net: ${args[*]}"
		fi
	fi
	if [ -e "$d" ] && [ ! -f "$d/.rdmakit-sim" ] &&
		[ -n "$(ls -A "$d" 2>/dev/null)" ]; then
		_sim_err "$d exists and is not a simctl work dir"
		return 1
	fi
	mkdir -p "$d/run" || return 1
	: >"$d/.rdmakit-sim"
	rm -f "$d"/*.pid "$d/console" "$d/ibsim.log"
	printf '%s\n' "$name" >"$d/name"
	printf '%s\n' "$net" >"$d/netfile"
	printf '%s\n' "${args[*]}" >"$d/ibsim.args"
	mkfifo "$d/console" || return 1
	_SIM_STARTED+=("$name")
	t0=$(_sim_now)
	# ibsim first: its open of the fifo blocks (in the forked child, whose
	# PID becomes ibsim's at exec) until the sleeper opens the write end.
	(
		cd "$d" || exit 1
		_sim_closefds
		exec env IBSIM_SOCKNAME="$name" ibsim -s "${args[@]}" "$net" \
			<"$d/console" >"$d/ibsim.log" 2>&1
	) &
	pid=$!
	printf '%s\n' "$pid" >"$d/ibsim.pid"
	# The sleeper holds the fifo's write end and ends by itself when ibsim
	# does (tail --pid), so a lost sleeper never outlives its ibsim.
	(
		_sim_closefds
		exec tail --pid="$pid" -s 1 -f /dev/null >"$d/console" 2>/dev/null </dev/null
	) &
	spid=$!
	printf '%s\n' "$spid" >"$d/sleeper.pid"
	local limit=${SIM_START_TIMEOUT:-60}
	for ((i = 0; ; i++)); do
		if ! _sim_alive "$pid"; then
			wait "$pid" 2>/dev/null
			_sim_err "ibsim '$name' exited during start-up; log:"
			tail -n 20 "$d/ibsim.log" >&2
			_sim_kill "$d/sleeper.pid" tail 2
			return 1
		fi
		if grep -q "Network simulator ready" "$d/ibsim.log" 2>/dev/null &&
			_sim_sock_exists "$name"; then
			break
		fi
		if awk -v a="$t0" -v b="$(_sim_now)" -v l="$limit" 'BEGIN{exit !(b-a>l)}'; then
			_sim_err "ibsim '$name' not ready after ${limit}s; log:"
			tail -n 20 "$d/ibsim.log" >&2
			sim_stop "$name"
			return 1
		fi
		sleep 0.05
	done
	_sim_msg "ibsim '$name' ready in $(_sim_since "$t0") s (pid $pid, dir $d)"
	[ -n "${SIM_OWNER_PID:-}" ] && _sim_watchdog "$name" "$d" "$SIM_OWNER_PID"
	return 0
}

# _sim_watchdog NAME DIR OWNER: a bash subshell (no child processes: it
# sleeps with read -t on a private fifo) that runs sim_stop NAME once
# OWNER is gone, so even a SIGKILLed test leaves nothing behind.
_sim_watchdog() {
	local name=$1 d=$2 owner=$3
	_sim_alive "$owner" || { _sim_err "SIM_OWNER_PID $owner is not running"; return 1; }
	mkfifo "$d/watchdog.fifo" || return 1
	(
		_sim_closefds
		exec </dev/null >/dev/null 2>>"$d/watchdog.log"
		exec 9<>"$d/watchdog.fifo"
		while _sim_alive "$owner" && [ -f "$d/.rdmakit-sim" ]; do
			read -r -t 1 -u 9 _sim_unused
		done
		[ -f "$d/.rdmakit-sim" ] && SIM_QUIET=1 sim_stop "$name"
	) &
	printf '%s\n' "$!" >"$d/watchdog.pid"
	_sim_msg "watchdog pid $! stops '$name' when pid $owner exits"
}

# sim_opensm NAME [NODE] [PRIORITY]: NODE is a node id or description of
# the net file (SIM_HOST); empty = ibsim's default (first record).
sim_opensm() {
	local name=$1 node=${2:-} prio=${3:-10} d tag od pid t0 i state=""
	d=$(_sim_need "$name") || return 1
	command -v opensm >/dev/null ||
		{ _sim_err "opensm not found (apt-get install -y opensm)"; return 1; }
	[ -r "$SIM_SHIM" ] || { _sim_err "shim $SIM_SHIM missing (ibsim-utils)"; return 1; }
	[[ "$prio" =~ ^([0-9]|1[0-5])$ ]] || { _sim_err "priority must be 0..15"; return 1; }
	tag=${node:-default}
	tag=${tag//[^A-Za-z0-9._-]/_}
	od="$d/opensm-$tag"
	if _sim_alive "$(_sim_readpid "$d/opensm-$tag.pid")"; then
		_sim_err "an opensm already runs on '${node:-default}' of '$name'"
		return 1
	fi
	mkdir -p "$od" || return 1
	t0=$(_sim_now)
	local -a hostenv=(-u SIM_HOST)
	[ -n "$node" ] && hostenv+=(SIM_HOST="$node")
	local -a extra=()
	[ -n "${SIM_OSM_ARGS:-}" ] && read -r -a extra <<<"$SIM_OSM_ARGS"
	(
		cd "$od" || exit 1
		_sim_closefds
		exec env "${hostenv[@]}" IBSIM_SOCKNAME="$name" \
			OSM_CACHE_DIR="$od" OSM_TMP_DIR="$od" LD_PRELOAD="$SIM_SHIM" \
			opensm -d2 -f "$od/opensm.log" -p "$prio" "${extra[@]}" \
			</dev/null >"$od/opensm.out" 2>&1
	) &
	pid=$!
	printf '%s\n' "$pid" >"$d/opensm-$tag.pid"
	if [ "${SIM_OSM_WAIT:-1}" = 0 ]; then
		_sim_msg "opensm started on '${node:-default}' (pid $pid, priority $prio)"
		return 0
	fi
	local limit=${SIM_OSM_TIMEOUT:-60}
	for ((i = 0; ; i++)); do
		if grep -q "SUBNET UP" "$od/opensm.log" 2>/dev/null; then
			state=MASTER
			break
		fi
		if grep -q "Entering STANDBY state" "$od/opensm.log" 2>/dev/null; then
			state=STANDBY
			break
		fi
		if ! _sim_alive "$pid"; then
			wait "$pid" 2>/dev/null
			_sim_err "opensm on '${node:-default}' exited; output:"
			tail -n 10 "$od/opensm.out" "$od/opensm.log" >&2 2>/dev/null
			return 1
		fi
		if awk -v a="$t0" -v b="$(_sim_now)" -v l="$limit" 'BEGIN{exit !(b-a>l)}'; then
			_sim_err "opensm on '${node:-default}' neither MASTER (SUBNET UP) nor STANDBY after ${limit}s (log $od/opensm.log)"
			return 1
		fi
		sleep 0.05
	done
	SIM_OSM_STATE=$state
	_sim_msg "opensm on '${node:-default}' is $state after $(_sim_since "$t0") s (pid $pid, priority $prio)"
	return 0
}

# sim_console NAME LINE: one console line (max 126 characters).
sim_console() {
	local name=$1 line=$2 d
	d=$(_sim_need "$name") || return 1
	if [ ${#line} -gt 126 ] || [[ "$line" == *$'\n'* ]]; then
		_sim_err "console line must be one line of at most 126 characters"
		return 1
	fi
	# ibsim holds the read end; timeout guards the open should it vanish.
	timeout 5 bash -c 'printf "%s\n" "$1" >"$2"' _ "$line" "$d/console" ||
		{ _sim_err "cannot write to console of '$name'"; return 1; }
}

# sim_cmd NAME LINE: write LINE, print ibsim's reply. The line is framed by
# two console comments ("# tag", which ibsim echoes) so the reply is exactly
# what ibsim printed between them (asynchronous ibwarn lines excepted).
sim_cmd() {
	local name=$1 line=$2 d off i out tag
	d=$(_sim_need "$name") || return 1
	if [ ${#line} -gt 126 ] || [[ "$line" == *$'\n'* ]]; then
		_sim_err "console line must be one line of at most 126 characters"
		return 1
	fi
	tag="simctl-$$-$RANDOM$RANDOM"
	off=$(stat -c %s "$d/ibsim.log") || return 1
	timeout 5 bash -c 'printf "# %s-begin\n%s\n# %s-end\n" "$1" "$2" "$1" >"$3"' \
		_ "$tag" "$line" "$d/console" ||
		{ _sim_err "cannot write to console of '$name'"; return 1; }
	for ((i = 0; i < 200; i++)); do
		out=$(tail -c +$((off + 1)) "$d/ibsim.log")
		if [[ "$out" == *"# $tag-end"* ]]; then
			out=${out#*"# $tag-begin"}
			out=${out%%"# $tag-end"*}
			out=${out//"sim> "/}
			printf '%s\n' "$out" | sed '/^[[:space:]]*$/d'
			return 0
		fi
		sleep 0.05
	done
	_sim_err "no answer from ibsim '$name' to '$line' within 10 s"
	return 1
}

# sim_run NAME CMD [ARGS...]: run a libibumad client against NAME, under
# timeout ${SIM_TIMEOUT:-30}, in the private cwd run/ (relative paths in
# ARGS resolve there: give absolute ones). SIM_HOST picks the node.
sim_run() {
	local name=$1 d rc
	shift
	[ $# -ge 1 ] || { _sim_err "usage: sim_run NAME CMD [ARGS...]"; return 1; }
	d=$(_sim_need "$name") || return 1
	mkdir -p "$d/run"
	(
		cd "$d/run" || exit 1
		exec timeout -k 5 "${SIM_TIMEOUT:-30}" env IBSIM_SOCKNAME="$name" \
			LD_PRELOAD="$SIM_SHIM${LD_PRELOAD:+:$LD_PRELOAD}" "$@"
	)
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		_sim_msg "client '$1' timed out after ${SIM_TIMEOUT:-30}s (rc $rc): freeing its ibsim slot"
		sim_reap "$name" >/dev/null
	fi
	return $rc
}

# sim_reap NAME: disconnect ("X <n>") ibsim clients whose process is gone.
sim_reap() {
	local name=$1 out n pid count=0
	out=$(sim_cmd "$name" Attached) || return 1
	while read -r n pid; do
		if ! _sim_alive "$pid"; then
			sim_console "$name" "X $n" && count=$((count + 1))
		fi
	done < <(printf '%s\n' "$out" | sed -n 's/^Client \([0-9]*\): pid \([0-9]*\) .*/\1 \2/p')
	[ $count -gt 0 ] && _sim_msg "freed $count stale client slot(s) of '$name'"
	printf '%s\n' "$count"
}

# sim_wait_master NAME [SECONDS]: poll sminfo until it reports a MASTER.
sim_wait_master() {
	local name=$1 limit=${2:-60} t0 out
	t0=$(_sim_now)
	while :; do
		out=$(SIM_TIMEOUT=5 sim_run "$name" sminfo 2>/dev/null) || true
		if [[ "$out" == *SMINFO_MASTER* ]]; then
			_sim_msg "sminfo: MASTER after $(_sim_since "$t0") s"
			printf '%s\n' "$out"
			return 0
		fi
		_sim_need "$name" >/dev/null || return 1
		if awk -v a="$t0" -v b="$(_sim_now)" -v l="$limit" 'BEGIN{exit !(b-a>l)}'; then
			_sim_err "no MASTER SM on '$name' after ${limit}s (last: ${out:-nothing})"
			return 1
		fi
		sleep 0.2
	done
}

# sim_lid NAME NODE: LID of a switch (port 0) or a CA's port 1, from an
# ibnetdiscover run; NODE is the node description (Leaf1, "host3 HCA-1").
sim_lid() {
	local name=$1 node=$2
	sim_run "$name" ibnetdiscover 2>/dev/null | awk -v n="$node" '
		/^(Switch|Ca)/ {
			split($0, q, "\""); desc = q[4]
			if ($1 == "Switch" && desc == n && match($0, /lid [0-9]+/)) {
				print substr($0, RSTART + 4, RLENGTH - 4); exit
			}
			cur = desc; next
		}
		/^\[1\]/ && cur == n && match($0, /# lid [0-9]+/) {
			print substr($0, RSTART + 6, RLENGTH - 6); exit
		}'
}

sim_status() {
	local name=$1 d f pid
	d=$(sim_dir "$name") || return 1
	[ -f "$d/.rdmakit-sim" ] || { echo "$name: no instance ($d)"; return 1; }
	echo "$name: dir $d net $(cat "$d/netfile" 2>/dev/null)"
	for f in "$d"/*.pid; do
		[ -e "$f" ] || continue
		pid=$(_sim_readpid "$f")
		if _sim_alive "$pid"; then
			echo "  ${f##*/}: $pid running"
		else
			echo "  ${f##*/}: $pid gone"
		fi
	done
}

# sim_stop NAME: opensm(s), then ibsim, then the sleeper, all by PID.
sim_stop() {
	local name=$1 d f rc=0 i
	d=$(sim_dir "$name") || return 1
	if [ ! -f "$d/.rdmakit-sim" ]; then
		_sim_msg "no instance '$name' to stop"
		return 0
	fi
	# The watchdog first (unless we are it), so it cannot race with us.
	f=$(_sim_readpid "$d/watchdog.pid")
	if [ -n "$f" ] && [ "$f" != "$BASHPID" ]; then
		_sim_kill "$d/watchdog.pid" bash 5 || rc=1
	fi
	for f in "$d"/opensm-*.pid; do
		[ -e "$f" ] || continue
		_sim_kill "$f" opensm 10 || rc=1
	done
	_sim_kill "$d/ibsim.pid" ibsim 5 || rc=1
	_sim_kill "$d/sleeper.pid" tail 5 || rc=1
	for i in "${!_SIM_STARTED[@]}"; do
		[ "${_SIM_STARTED[$i]}" = "$name" ] && unset '_SIM_STARTED[i]'
	done
	if [ $rc -ne 0 ]; then
		_sim_err "some processes of '$name' survived; kept $d"
		return 1
	fi
	if [ "${SIM_KEEP:-0}" = 1 ]; then
		_sim_msg "stopped '$name'; kept $d (SIM_KEEP=1)"
	else
		rm -rf -- "$d"
		_sim_msg "stopped '$name'"
	fi
	return 0
}

sim_stop_started() {
	local n rc=0
	for n in "${_SIM_STARTED[@]}"; do
		[ -n "$n" ] && { sim_stop "$n" || rc=1; }
	done
	return $rc
}

# ---------------------------------------------------------------- CLI ----
_sim_usage() {
	cat <<'EOF'
usage: simctl.sh COMMAND ...
  start NAME NETFILE [ibsim args]   start ibsim
  opensm NAME [NODE] [PRIORITY]     start opensm (waits for MASTER/STANDBY)
  wait-master NAME [SECONDS]        poll sminfo until a MASTER answers
  console NAME LINE                 write one console line
  cmd NAME LINE                     write a console line, print the answer
  run NAME CMD [ARGS...]            run a client under the shim + timeout
  lid NAME NODEDESC                 LID of a switch / CA port 1
  reap NAME                         free slots of dead clients
  status NAME | dir NAME | stop NAME
Environment: SIM_DIR SIM_WORKDIR SIM_TIMEOUT SIM_KEEP SIM_HOST SIM_OSM_ARGS
EOF
}

_sim_main() {
	local cmd=${1:-}
	[ $# -gt 0 ] && shift
	case "$cmd" in
	start) sim_start "$@" ;;
	opensm) sim_opensm "$@" ;;
	wait-master) sim_wait_master "$@" ;;
	console) sim_console "$@" ;;
	cmd) sim_cmd "$@" ;;
	run) sim_run "$@" ;;
	lid) sim_lid "$@" ;;
	reap) sim_reap "$@" ;;
	status) sim_status "$@" ;;
	dir) sim_dir "$@" ;;
	stop) sim_stop "$@" ;;
	-h | --help | help) _sim_usage ;;
	*) _sim_usage >&2; return 2 ;;
	esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	_sim_main "$@"
	exit $?
fi
