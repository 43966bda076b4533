#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Lists the project's source files that lack an SPDX-License-Identifier line in their
# first three lines; exits 1 if there is any. With --add, adds the line to each of them.
set -eu
cd "$(dirname "$0")/.."
spdx="SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB"
add=0
[ "${1:-}" = "--add" ] && add=1
status=0
for file in $(git ls-files -co --exclude-standard \
	'*.c' '*.h' '*.py' '*.sh' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' '.ci/run' |
	grep -v '^tests/fixtures/sysfs/'); do
	[ -f "$file" ] || continue
	if head -n 3 "$file" | grep -q 'SPDX-License-Identifier:'; then
		continue
	fi
	if [ $add -eq 0 ]; then
		echo "no SPDX line: $file"
		status=1
		continue
	fi
	case "$file" in
	*.c | *.h) line="/* $spdx */" ;;
	*) line="# $spdx" ;;
	esac
	tmp="$file.spdx.$$"
	if head -n 1 "$file" | grep -q '^#!'; then
		{ head -n 1 "$file"; echo "$line"; tail -n +2 "$file"; } >"$tmp"
	else
		{ echo "$line"; cat "$file"; } >"$tmp"
	fi
	chmod --reference="$file" "$tmp"
	mv "$tmp" "$file"
done
exit $status
