#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# /init of the test VM (busybox): load the RDMA modules, mount the host's root (read-only,
# virtio-9p), make rxe0 on eth0, run the host's command files in order, then power off.
# Every line the host looks for starts with RKVM-.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
dmesg -n 1

# /modules/order (tests/vm/modules): 9p first, to reach the host, then the RDMA stack in the
# order rdma_rxe needs (crc32_generic before it, or "rdma link add" cannot init crc32).
while read -r module; do
	case $module in "#"* | "") continue ;; esac
	insmod "/modules/$module.ko" || echo "RKVM-FAIL insmod $module"
done </modules/order

mkdir -p /host
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host; then
	echo "RKVM-FAIL cannot mount the host's root"
	poweroff -f
fi
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mkdir -p /host-tmp /host-run
mount -o bind /host/tmp /host-tmp
mount -o bind /host/run /host-run
mount -t tmpfs tmp /host/tmp
mount -t tmpfs run /host/run
# The host's trees the commands use (rkvm.trees: its checkout and build) stay at their paths
# when they lie under the /tmp or /run the VM has just covered with its own.
for tree in $(sed -n 's/.*rkvm.trees=\([^ ]*\).*/\1/p' /proc/cmdline | sed 's/,/ /g'); do
	case $tree in
	/tmp/*) from=/host-tmp${tree#/tmp} ;;
	/run/*) from=/host-run${tree#/run} ;;
	*) continue ;;
	esac
	mkdir -p "/host$tree" && mount -o bind "$from" "/host$tree" ||
		echo "RKVM-FAIL cannot show the host's $tree in the VM"
done
mount -t tmpfs shm /host/dev/shm 2>/dev/null
mkdir -p /host/dev/pts && mount -t devpts -o ptmxmode=0666 devpts /host/dev/pts
ln -sf pts/ptmx /host/dev/ptmx 2>/dev/null

ip link set lo up
ip addr add 10.0.2.15/24 dev eth0
ip link set eth0 up
chroot /host rdma link add rxe0 type rxe netdev eth0 || echo "RKVM-FAIL rdma link add"
tries=0
until grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null; do
	tries=$((tries + 1))
	if [ $tries -gt 300 ]; then
		echo "RKVM-FAIL rxe0 port 1 never became ACTIVE"
		break
	fi
	sleep 0.1
done
echo "RKVM-READY $(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)"

cmds=$(sed -n 's/.*rkvm.cmds=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -d "/host$cmds" ] || echo "RKVM-FAIL the host's command directory $cmds is not in the VM"
n=1
while [ -f "/host$cmds/$n" ]; do
	echo "RKVM-BEGIN $n"
	chroot /host /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp \
		/bin/sh -c "cd /tmp && . $cmds/$n" </dev/null 2>&1
	echo "RKVM-END $n rc=$?"
	n=$((n + 1))
done
echo "RKVM-DONE"
poweroff -f
