#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The shipped Prometheus rules: promtool's syntax and lint check, then the unit tests of every
# alert (rules_test.yml). Exits 77 when promtool is missing (scripts/install-deps.sh installs
# Debian's prometheus package).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rules=$here/../../packaging/prometheus/rdmakit.rules.yml
if ! command -v promtool >/dev/null 2>&1; then
	echo "check_rules: promtool not found (package prometheus)" >&2
	exit 77
fi
promtool check rules "$rules"
promtool test rules "$here/rules_test.yml"
