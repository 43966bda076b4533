#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Install every Debian package rdmakit's build, demo and tests need.
# Idempotent and non-interactive; run as root on Debian 12.
set -eu

packages="
  build-essential cmake pkg-config clang-format valgrind python3 procps time
  libjson-c-dev libcmocka-dev iproute2
  libibverbs-dev librdmacm-dev libibumad-dev libibmad-dev libibnetdisc-dev
  ibsim-utils opensm infiniband-diags
  collectd-core collectd-dev collectd-utils libyajl2
  snmpd snmp libsnmp-dev smitools snmptrapd
  clang libclang-rt-14-dev
  scdoc debhelper fakeroot lintian rpm rpmlint strace util-linux
  qemu-system-x86 busybox-static ibverbs-providers ibverbs-utils rdmacm-utils perftest
  gnuplot-nox cpio
  prometheus libprotobuf-c1 libmicrohttpd12 libgcrypt20
  graphviz
  zabbix-server-pgsql zabbix-frontend-php php-pgsql php-cli php8.2-cgi php-gd php-bcmath
  php-mbstring php-xml php-ldap postgresql libsnmp-perl snmptt
"

missing=""
for pkg in $packages; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $pkg"
	fi
done

# The VM tests' kernel (tests/vm): Debian's own image, unpacked into the build folder.
fetch_vm_kernel() {
	top=$(cd "$(dirname "$0")/.." && pwd)
	"$top/tests/vm/fetch-kernel.sh" "${BUILD_DIR:-$top/build}/vm" >/dev/null
}

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	fetch_vm_kernel
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# --no-upgrade: installing postgresql would otherwise upgrade the postgresql-common already
# there; php8.2-cgi in the list keeps php from pulling in apache2 (tests/zabbix).
# shellcheck disable=SC2086 # the list is meant to split into words
apt-get install -y -q --no-install-recommends --no-upgrade $missing
fetch_vm_kernel
