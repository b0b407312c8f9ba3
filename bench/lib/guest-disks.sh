# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Shared by bench/zoo's and bench/eject's guests (busybox ash), copied into
# their initramfs as /guest-disks.sh: the disks as the kernel brings them.

# disk SIZE_MIB [T]: the whole disk of that size, once it is there (up to
# T s, default 30)
disk() {
	i=0
	while [ $i -lt $((${2:-30} * 10)) ]; do
		for s in /sys/block/*; do
			[ "$(cat $s/size 2>/dev/null)" = $(($1 * 2048)) ] && { basename $s; return 0; }
		done
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
# part DISK: its first partition, once the kernel has read the table
part() {
	i=0
	while [ $i -lt 50 ]; do
		for p in /sys/block/$1/$1*1; do [ -e $p/partition ] && { basename $p; return 0; }; done
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
