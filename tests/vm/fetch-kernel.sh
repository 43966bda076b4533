#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Fetch Debian's own amd64 kernel (the flavour with rdma_rxe) as a package and unpack it into
# DIR/kernel, with a modules.dep made by busybox's depmod. It is never installed on the host.
# Usage: fetch-kernel.sh DIR. Idempotent: prints the kernel version and exits when present.
set -eu
dir=${1:?usage: fetch-kernel.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if [ -f "$dir/kernel/version" ]; then
	cat "$dir/kernel/version"
	exit 0
fi
# linux-image-amd64 is a metapackage: its one dependency is the real image of the day.
image=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
if [ -z "$image" ]; then
	echo "fetch-kernel: cannot resolve linux-image-amd64 (run apt-get update)" >&2
	exit 1
fi
rm -rf "$dir/download" "$dir/kernel.tmp"
mkdir -p "$dir/download" "$dir/kernel.tmp"
(cd "$dir/download" && apt-get download -q "$image" >&2)
dpkg -x "$dir"/download/"$image"_*.deb "$dir/kernel.tmp"
version=${image#linux-image-}
busybox depmod -b "$dir/kernel.tmp" "$version"
echo "$version" > "$dir/kernel.tmp/version"
rm -rf "$dir/download" "$dir/kernel"
mv "$dir/kernel.tmp" "$dir/kernel"
echo "$version"
