#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Configure and build rdmakit into ./build (or $BUILD_DIR); arguments go to cmake (e.g.
# -DRDMAKIT_SANITIZE=ON). Used by demo.sh and check.sh.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
