#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The unit configured from packaging/systemd/rdmakit-agentx.service.in passes systemd-analyze
# verify with no output, its ExecStart pointed at the binary just built (the installed path
# does not exist here; tests/packaging/test_install.py verifies the installed unit, with its
# man page).
# Usage: systemd.sh CONFIGURED_UNIT AGENTX_BINARY
set -eu
unit=$1
agentx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -E -e "s|^ExecStart=[^ ]+|ExecStart=$agentx|" -e '/^Documentation=/d' "$unit" \
	>"$dir/rdmakit-agentx.service"
out=$(systemd-analyze verify "$dir/rdmakit-agentx.service" 2>&1 || echo "exit status $?")
if [ -n "$out" ]; then
	printf 'systemd-analyze verify reports:\n%s\n' "$out"
	exit 1
fi
grep -q '^Restart=on-failure$' "$dir/rdmakit-agentx.service"
grep -q '^Wants=snmpd.service$' "$dir/rdmakit-agentx.service"
echo "systemd-analyze verify: clean"
