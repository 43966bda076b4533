#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build rdmakit and run the whole test suite through ctest.
#   scripts/check.sh             the normal build (./build, or $BUILD_DIR)
#   scripts/check.sh --sanitize  the same suite on a build with ASan + UBSan and no recovery
#                                (./build-sanitize, or $SANITIZE_BUILD_DIR): collectd runs with
#                                the ASan runtime preloaded, the valgrind tests are skipped
#                                (valgrind cannot run ASan programs; the normal build has them)
#                                and so are the package builds and scripts/build-matrix.sh
#                                (label packaging: they build from the tree, never from this
#                                build)
# The Zabbix template's test (label zabbix) runs in the normal pass only: it tests the template
# and the subagent's answers, which the sanitized pass already tests through snmpd; so does
# the VM harness's self-test (label harness), which runs no rdmakit binary, and the tests of
# whole pipelines (label pipeline: Prometheus, collectd's network plugin), whose rdmakit parts
# the sanitized pass tests through the front ends' own tests; and the fault matrix (label
# matrix, 3 minutes, the longest test), whose C paths under MAD loss sim_real_fabric runs
# sanitized.
# ctest runs RDMAKIT_TEST_JOBS tests at a time (default 2): each test has its own ports,
# sockets, namespaces and directories, and those that share something hold a RESOURCE_LOCK
# (the VM, the system's packages, Zabbix's frontend config).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# Warnings are errors here, and the tests crash-test tune through its test hooks.
ci_flags="-DRDMAKIT_WERROR=ON -DRDMAKIT_TEST_HOOKS=ON"

case "${1:-}" in
"")
	build=${BUILD_DIR:-$top/build}
	BUILD_DIR=$build "$top/scripts/build.sh" $ci_flags
	;;
--sanitize)
	build=${SANITIZE_BUILD_DIR:-$top/build-sanitize}
	BUILD_DIR=$build "$top/scripts/build.sh" $ci_flags -DRDMAKIT_SANITIZE=ON
	set -- -LE 'packaging|zabbix|harness|pipeline|matrix'
	;;
*)
	echo "usage: scripts/check.sh [--sanitize]" >&2
	exit 2
	;;
esac
ctest --test-dir "$build" --output-on-failure -j "${RDMAKIT_TEST_JOBS:-2}" "$@"
