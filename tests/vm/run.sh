#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Boot Debian's kernel with soft-RoCE (rxe0 on eth0) under qemu and run each argument as one
# command line of the VM's shell, in order, inside the host's root (read-only, so the host's
# build runs unchanged; /tmp and /run are the VM's own, but for the checkout and the build
# when they lie there). Prints every command's output between
#   --- [N] $ COMMAND          and          --- [N] exit STATUS
# and exits 1 if any command failed, 2 if the VM did not finish (timeout, boot failure).
# Environment: BUILD_DIR (default ./build: the kernel and initramfs are cached in
# BUILD_DIR/vm), RKVM_TIMEOUT (seconds, default 600).
set -eu
if [ $# -eq 0 ]; then
	echo "usage: tests/vm/run.sh COMMAND..." >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$top/build}
vm=$build/vm
mkdir -p "$vm"
build=$(cd "$build" && pwd) # absolute: the VM keeps it visible by its path (rkvm.trees)
vm=$build/vm
version=$("$here/fetch-kernel.sh" "$vm")
kernel=$vm/kernel

# The initramfs: busybox, the modules /init loads, /init. Rebuilt when init.sh changes.
make_initramfs() {
	stage=$vm/initramfs.stage
	rm -rf "$stage"
	mkdir -p "$stage/bin" "$stage/modules" "$stage/proc" "$stage/sys" "$stage/dev"
	cp /bin/busybox "$stage/bin/busybox"
	for applet in sh mount insmod mkdir ip grep sed sleep cat echo chroot poweroff dmesg; do
		ln -s busybox "$stage/bin/$applet"
	done
	while read -r module; do
		case $module in "#"* | "") continue ;; esac
		path=$(sed -n "s|^\(.*/$module\.ko\):.*|\1|p" "$kernel/lib/modules/$version/modules.dep")
		if [ -z "$path" ]; then
			echo "run.sh: module $module is not in kernel $version" >&2
			exit 2
		fi
		cp "$kernel/lib/modules/$version/$path" "$stage/modules/"
	done <"$here/modules"
	cp "$here/modules" "$stage/modules/order"
	cp "$here/init.sh" "$stage/init"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$vm/initramfs.tmp"
	mv "$vm/initramfs.tmp" "$vm/initramfs.cpio.gz"
	rm -rf "$stage"
}

work=$(mktemp -d "$vm/run.XXXXXX") # not /tmp: the VM mounts its own there
trap 'rm -rf "$work"' EXIT
n=0
for command in "$@"; do
	n=$((n + 1))
	printf '%s\n' "$command" > "$work/$n"
done
chmod -R a+rX "$work"

# One VM at a time per build tree: the machine has two cores.
exec 9> "$vm/lock"
flock 9
if [ ! -f "$vm/initramfs.cpio.gz" ] || [ "$here/init.sh" -nt "$vm/initramfs.cpio.gz" ] ||
	[ "$here/modules" -nt "$vm/initramfs.cpio.gz" ]; then
	make_initramfs
fi

status=0
timeout "${RKVM_TIMEOUT:-600}" qemu-system-x86_64 -nodefaults -no-user-config -machine pc \
	-accel tcg -cpu max -smp 2 -m 1024 -display none -monitor none -no-reboot \
	-serial "file:$work/serial.log" -kernel "$kernel/boot/vmlinuz-$version" \
	-initrd "$vm/initramfs.cpio.gz" \
	-append "console=ttyS0 rdinit=/init panic=-1 quiet loglevel=1 rkvm.cmds=$work rkvm.trees=$top,$build" \
	-netdev user,id=n0,restrict=on -device e1000,netdev=n0 \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	</dev/null || status=$?
if [ "$status" -ne 0 ]; then
	echo "run.sh: qemu exited with status $status (124: timeout after ${RKVM_TIMEOUT:-600} s)" >&2
fi

# A marker may follow output that did not end its line (a progress line): split it off.
tr -d '\r' <"$work/serial.log" |
	awk '{ i = index($0, "RKVM-"); if (i > 1) { print substr($0, 1, i - 1); print substr($0, i) } else print }' \
		>"$work/serial.txt"
awk -v work="$work" '
	/^RKVM-BEGIN / { n = $2; cmd = ""; f = work "/" n; getline cmd < f; close(f)
		print "--- [" n "] $ " cmd; next }
	/^RKVM-END / { sub("rc=", "", $3); print "--- [" $2 "] exit " $3; next }
	/^RKVM-READY/ { started = 1 }
	/^RKVM-DONE/ { started = 0 }
	/^RKVM-(READY|DONE|FAIL)/ { print "--- " $0; next }
	started { print }
' "$work/serial.txt"
grep '^RKVM-FAIL' "$work/serial.txt" >&2 || true
if ! grep -q '^RKVM-DONE' "$work/serial.txt"; then
	echo "run.sh: the VM did not finish; last lines of its console:" >&2
	tail -n 20 "$work/serial.txt" >&2
	exit 2
fi
if grep -q '^RKVM-FAIL' "$work/serial.txt"; then
	exit 2
fi
ran=$(grep -c '^RKVM-END ' "$work/serial.txt" || true)
if [ "$ran" -ne "$n" ]; then
	echo "run.sh: $ran of $n commands ran" >&2
	exit 2
fi
failed=$(grep -c '^RKVM-END .* rc=[1-9]' "$work/serial.txt" || true)
if [ "$failed" -ne 0 ]; then
	echo "run.sh: $failed of $n commands failed" >&2
	exit 1
fi
