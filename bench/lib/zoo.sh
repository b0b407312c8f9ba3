# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What a bench/zoo case means, and the disks and buses it puts in a guest:
# shared by bench/zoo, bench/zoo-report and bench/eject (sourced, bash;
# the caller defines die).

# bytes per second a profile starts at
profile_bps() {
	case $1 in
	cliff) echo 40000000 ;;
	stall|error|remove) echo 5000000 ;;
	beside) echo 2000000 ;;
	*) awk -v p="$1" 'BEGIN { printf "%d", p * 1e6 }' ;;
	esac
}

# MiB a case copies: about 6 s of the device, at least 8 MiB; the cliff
# 384 MiB (256 fast, then 128 at 4 MB/s: 38 s)
case_mib() {
	local s=6
	case $1 in
	cliff) echo 384 ;;
	stall) echo 96 ;;
	error|remove) echo 40 ;;
	beside) echo 24 ;;
	*) awk -v p="$1" -v s=$s 'BEGIN { m = int(p * 1e6 * s / 1048576); if (m < 8) m = 8; print m }' ;;
	esac
}

# the time the copy ideally takes, in seconds
case_ideal() {
	case $1 in
	cliff) awk 'BEGIN { print 256 * 1048576 / 40e6 + 128 * 1048576 / 4e6 }' ;;
	stall) awk -v m="$2" 'BEGIN { print m * 1048576 / 5e6 + 2 * int(m / 32) }' ;;
	*) awk -v m="$2" -v b="$3" 'BEGIN { print m * 1048576 / b }' ;;
	esac
}

# mbr FILE FSTYPE: one primary partition from 1 MiB to the end, of the
# MBR type the file system has (what a stick from a shop has)
mbr() {
	local size sectors t
	size=$(stat -c %s "$1")
	sectors=$((size / 512 - 2048))
	case $2 in vfat) t=0c ;; exfat|ntfs3|fuse) t=07 ;; *) t=83 ;; esac
	le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
	printf "\\x00\\x20\\x21\\x00\\x$t\\xfe\\xff\\xff$(le32 2048)$(le32 $sectors)" |
		dd of="$1" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$1" bs=1 seek=510 conv=notrunc status=none
}

# disk_image FILE MIB FS: a disk with the file system in its partition
# (made here, as a computer would have made it); luks and lvm leave the
# partition empty: their dm layer is set up and formatted in the guest
disk_image() {
	local f=$1 mib=$2 fs=$3 p=$1.part
	rm -f "$f" "$p"
	truncate -s "${mib}M" "$f"
	truncate -s "$((mib - 1))M" "$p"
	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -L ZOO "$p" ;;
	vfat) mkfs.fat -F 32 -n ZOO "$p" >/dev/null ;;
	exfat|fuse) mkfs.exfat -L ZOO "$p" >/dev/null ;;
	ntfs3) mkntfs -q -F -f -L ZOO "$p" >/dev/null 2>&1 ;;
	btrfs) mkfs.btrfs -q -f -L ZOO "$p" >/dev/null 2>&1 ;;
	luks|lvm) : ;;
	esac || die "cannot make $fs on $p"
	dd if="$p" of="$f" bs=1M seek=1 conv=notrunc,sparse status=none
	rm -f "$p"
	mbr "$f" "$fs"
}

# the qemu options that put the slow disk (node d0) on BUS, as device "stick"
bus_args() {
	case $1 in
	usb) echo "-device qemu-xhci,id=hc -device usb-storage,id=stick,bus=hc.0,drive=d0,serial=ZOO0001,removable=on" ;;
	ehci) echo "-device usb-ehci,id=hc -device usb-storage,id=stick,bus=hc.0,drive=d0,serial=ZOO0002,removable=on" ;;
	uas) echo "-device qemu-xhci,id=hc -device usb-uas,id=stick,bus=hc.0 -device scsi-hd,bus=stick.0,scsi-id=0,lun=0,drive=d0,serial=ZOO0003,removable=on" ;;
	reader) echo "-device qemu-xhci,id=hc -device usb-bot,id=stick,bus=hc.0 -device scsi-hd,bus=stick.0,scsi-id=0,lun=0,drive=d0,serial=ZOO0004,removable=on -device scsi-hd,bus=stick.0,scsi-id=0,lun=1,drive=d1,serial=ZOO0005,removable=on" ;;
	sd) echo "-device sdhci-pci,id=hc -device sd-card,id=stick,drive=d0" ;;
	nvme) echo "-device nvme,id=stick,serial=ZOO0006,drive=d0" ;;
	sata) echo "-device ahci,id=hc -device ide-hd,id=stick,bus=hc.0,drive=d0,serial=ZOO0007" ;;
	virtio) echo "-device virtio-blk-pci,id=stick,drive=d0,serial=ZOO0008" ;;
	esac
}
