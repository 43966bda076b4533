#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build rdmakit as CI does, each build in its own temporary directory, warnings as errors
# (-DRDMAKIT_WERROR=ON):
#   gcc   Release      the programs, the collectd plugin and the subagent (no tests)
#   gcc   MinSizeRel   the same
#   clang RelWithDebInfo  the whole tree, tests included
# One line per build; a failed build prints the end of its output and keeps its directory.
# Any warning fails a build, also one -Werror does not reach (cmake's, the linker's).
# Exits 0 when every build is clean, 1 when one failed, 77 when a compiler is missing and
# nothing failed. GCC (default gcc), CLANG (default clang), JOBS (default 2).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
gcc=${GCC:-gcc}
clang=${CLANG:-clang}
jobs=${JOBS:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-build-matrix.XXXXXX")
failed=0
skipped=0

# build NAME CC TYPE CMAKE_ARGS...: configure and build into $work/NAME.
build() {
	name=$1 cc=$2 type=$3
	shift 3
	dir=$work/$name
	log=$work/$name.log
	if ! command -v "$cc" >/dev/null; then
		printf '%-22s skipped: no %s\n' "$name" "$cc"
		skipped=1
		return
	fi
	started=$(date +%s)
	if ! CC=$cc cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DRDMAKIT_WERROR=ON \
		-DRDMAKIT_BUILD_MAN=OFF "$@" >"$log" 2>&1; then
		result="FAILED to configure"
	elif ! cmake --build "$dir" -j "$jobs" >>"$log" 2>&1; then
		result="FAILED to build"
	elif grep -q 'warning:\|CMake Warning' "$log"; then
		result="FAILED: a warning"
	else
		printf '%-22s ok (%s s)\n' "$name" $(($(date +%s) - started))
		rm -rf "$dir" "$log"
		return
	fi
	failed=1
	printf '%-22s %s (%s s), log %s:\n' "$name" "$result" $(($(date +%s) - started)) "$log"
	grep -m 20 -B 2 -A 6 'warning:\|error\|CMake Warning\|CMake Error' "$log" | head -60
}

echo "build-matrix: each build with -DRDMAKIT_WERROR=ON, $jobs jobs, in $work"
build gcc-Release "$gcc" Release -DRDMAKIT_BUILD_TESTS=OFF
build gcc-MinSizeRel "$gcc" MinSizeRel -DRDMAKIT_BUILD_TESTS=OFF
build clang-RelWithDebInfo "$clang" RelWithDebInfo -DRDMAKIT_BUILD_TESTS=ON \
	-DRDMAKIT_TEST_HOOKS=ON
if [ "$failed" = 1 ]; then
	echo "build-matrix: FAILED; kept $work"
	exit 1
fi
rmdir "$work"
[ "$skipped" = 0 ] || exit 77
echo "build-matrix: every build is clean"
