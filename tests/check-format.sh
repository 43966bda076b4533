#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Fails when a C file of the tree does not follow .clang-format.
set -eu
clang_format=$1
cd "$2"
status=0
for file in $(git ls-files '*.c' '*.h' 2>/dev/null || find common cli tests -name '*.[ch]'); do
	if ! "$clang_format" --dry-run -Werror "$file" 2>/dev/null; then
		echo "not formatted: $file"
		status=1
	fi
done
exit $status
