#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Soak collectd (host, fabric and SM modes) and rdmakit-agentx against a flapping simulated
# fabric and a fixture whose port state changes; prints resident memory and open descriptors
# at start and end and the error count (tests/perf/soak.py says how, and what "flat" means).
# Usage: tests/perf/soak.sh MINUTES
exec python3 "$(dirname "$0")/soak.py" "$@"
