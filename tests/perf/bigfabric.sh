# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# bigfabric.sh - sourced by the perf scripts: the ~2,000-CA simulated fat tree they all
# measure on (64 leaves of 32 hosts, 32 spines, radix 64: 96 switches, 2,048 CAs, 8,192
# cabled ports), in ibsim with an OpenSM on Hca1 (tests/sim/simctl.sh).
# Set top (the repo) and work (a scratch directory) first; this sources simctl.sh with the
# instance's files in $work, stopped when the sourcing script exits (SIM_OWNER_PID).
export SIM_DIR=$work SIM_QUIET=1 SIM_OWNER_PID=$$
# shellcheck source=../sim/simctl.sh
. "$top/tests/sim/simctl.sh"

# big_fabric_start NAME: generate $work/fat.net, start ibsim NAME on it and its OpenSM.
big_fabric_start() {
	"$top/tests/sim/gen-fattree.py" --leaves 64 --hosts-per-leaf 32 --spines 32 --radix 64 \
		-q -o "$work/fat.net"
	sim_start "$1" "$work/fat.net" >/dev/null
	sim_opensm "$1" Hca1 10 >/dev/null
}
