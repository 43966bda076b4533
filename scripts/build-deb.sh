#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build rdmakit's Debian packages: copies the tree (files git tracks or would track, so a
# build/ directory is left out) into a temporary directory, puts packaging/debian there as
# debian/, runs dpkg-buildpackage -us -uc -b, then lintian on the result (errors and warnings
# fail). The .deb, .changes and .buildinfo files and build.log land in OUT_DIR (default
# build/deb).
# Packages whose sources are not in the tree yet are left out through build profiles:
# rdmakit-agentx without snmp-subagent/, rdmakit-zabbix-template without packaging/zabbix/.
# Usage: scripts/build-deb.sh [OUT_DIR]    (DEB_BUILD_OPTIONS=nocheck skips the unit tests)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/deb}
version=$(sed -n 's/^project(rdmakit VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
changelog_version=$(dpkg-parsechangelog -l "$top/packaging/debian/changelog" -S Version)
if [ "$version" != "$changelog_version" ]; then
	echo "build-deb: CMakeLists.txt says $version, packaging/debian/changelog $changelog_version" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/rdmakit-$version
mkdir "$src"
"$top/scripts/copy-tree.sh" "$top" "$src"
rm -rf "$src/debian"
cp -a "$top/packaging/debian" "$src/debian"

profiles=""
[ -d "$top/snmp-subagent" ] || profiles="$profiles pkg.rdmakit.noagentx"
[ -d "$top/packaging/zabbix" ] || profiles="$profiles pkg.rdmakit.nozabbix"
profiles=$(echo $profiles | tr ' ' ',')
echo "build-deb: rdmakit $version${profiles:+, build profiles $profiles}"

mkdir -p "$out"
(cd "$src" && dpkg-buildpackage -us -uc -b ${profiles:+-P"$profiles"}) >"$out/build.log" 2>&1 || {
	tail -n 60 "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed (log above)" >&2
	exit 1
}
for file in "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo; do
	mv "$file" "$out/"
done
changes=$(ls "$out"/rdmakit_"$version"_*.changes)
lintian --fail-on error,warning --info "$changes"
echo "build-deb: lintian clean; packages in $out:"
ls "$out"/*.deb
