#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build rdmakit's RPMs from packaging/rpm/rdmakit.spec: a source tarball of the tree (files
# git tracks or would track), then rpmbuild -bb in a private _topdir, then rpmlint on the spec
# and the RPMs (errors fail). The RPMs land in OUT_DIR (default build/rpm).
# On Debian the spec's BuildRequires name Fedora/RHEL packages that dpkg does not know, so
# set RPM_NODEPS=1 to pass --nodeps (the Debian equivalents come from install-deps.sh).
# Packages whose sources are not in the tree yet are left out: --without agentx without
# snmp-subagent/, --without zabbix without packaging/zabbix/.
# Usage: scripts/build-rpm.sh [OUT_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/rpm}
spec=$top/packaging/rpm/rdmakit.spec
version=$(sed -n 's/^project(rdmakit VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
spec_version=$(sed -n 's/^Version: *//p' "$spec")
if [ "$version" != "$spec_version" ]; then
	echo "build-rpm: CMakeLists.txt says $version, $spec $spec_version" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rdmakit-rpm.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/SOURCES" "$work/tree/rdmakit-$version"
"$top/scripts/copy-tree.sh" "$top" "$work/tree/rdmakit-$version"
tar -C "$work/tree" -czf "$work/SOURCES/rdmakit-$version.tar.gz" "rdmakit-$version"
cp "$top/packaging/systemd/rdmakit-agentx.sysusers" "$work/SOURCES/"

set -- --define "_topdir $work"
[ -d "$top/snmp-subagent" ] || set -- "$@" --without agentx
[ -d "$top/packaging/zabbix" ] || set -- "$@" --without zabbix
[ "${RPM_NODEPS:-0}" = 1 ] && set -- "$@" --nodeps
mkdir -p "$out"
rpmbuild -bb "$@" "$spec" >"$out/build.log" 2>&1 || {
	tail -n 60 "$out/build.log" >&2
	echo "build-rpm: rpmbuild failed (log above)" >&2
	exit 1
}
find "$work/RPMS" -name '*.rpm' -exec mv -t "$out" {} +
rpmlint -r "$top/packaging/rpm/rdmakit.rpmlintrc" "$spec" "$out"/*.rpm
echo "build-rpm: rpmlint without errors; RPMs in $out:"
ls "$out"/*.rpm
