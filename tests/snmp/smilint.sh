#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# RDMAKIT-MIB passes smilint at level 6 with no output at all (smilint always exits 0).
# Usage: smilint.sh SMILINT SOURCE_DIR
set -eu
smilint=$1
src=$2
# The IETF base MIBs are in the repository; NET-SNMP-MIB comes with net-snmp (libsnmp-base).
out=$(SMIPATH="$src/mibs:$src/tests/snmp/mibs:/usr/share/snmp/mibs" \
	"$smilint" -l 6 -s "$src/mibs/RDMAKIT-MIB.txt" 2>&1)
if [ -n "$out" ]; then
	printf 'smilint -l 6 reports:\n%s\n' "$out"
	exit 1
fi
echo "smilint: RDMAKIT-MIB clean"
