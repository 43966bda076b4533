#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Copy the source tree SRC into DEST (which must exist): the files git tracks or would track
# (.gitignore'd ones such as build/ are left out; tracked files deleted in the work tree
# too), with their modes. Used by build-deb.sh and build-rpm.sh.
# Usage: scripts/copy-tree.sh SRC DEST
set -eu
src=$1
dest=$2
[ -d "$dest" ] || { echo "copy-tree: $dest is not a directory" >&2; exit 1; }
cd "$src"
git ls-files -z -co --exclude-standard |
	xargs -0 -r sh -c 'for f; do if [ -e "$f" ] || [ -L "$f" ]; then printf "%s\0" "$f"; fi; done' sh |
	xargs -0 -r cp --parents -a -t "$dest" --
[ -f "$dest/CMakeLists.txt" ] || { echo "copy-tree: no CMakeLists.txt copied from $src" >&2; exit 1; }
