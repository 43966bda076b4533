#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Soak collectd (host, fabric and SM modes) and rdmakit-agentx against a flapping simulated
# fabric and a fixture whose port state changes; samples resident memory, heap in use and open
# descriptors, and judges growth after a warm-up (tests/perf/soak.py says how, and what "flat"
# means).
# Usage: tests/perf/soak.sh MINUTES
exec python3 "$(dirname "$0")/soak.py" "$@"
