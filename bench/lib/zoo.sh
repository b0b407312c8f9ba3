# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What a bench/zoo case means, and the disks and buses it puts in a guest:
# shared by bench/zoo, bench/lib/zoo-plug, bench/zoo-report, bench/eject
# and bench/desktop (sourced, bash; the caller defines die).

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

# disk_image FILE MIB FS [OWNER]: a disk with the file system in its
# partition (made here, as a computer would have made it); luks and lvm
# leave the partition empty: their dm layer is set up and formatted in
# the guest. OWNER (UID:GID): ext4's top directory is theirs, as on a
# stick its user formatted, and btrfs has a directory "desk" of theirs
# (mkfs.btrfs --rootdir keeps the owner of what it copies, not of the top
# directory); vfat, exFAT and NTFS have no owner: udisks mounts them as
# the user's
disk_image() {
	local f=$1 mib=$2 fs=$3 p=$1.part o=${4:-0:0} r
	rm -f "$f" "$p"
	truncate -s "${mib}M" "$f"
	truncate -s "$((mib - 1))M" "$p"
	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,root_owner="$o" -L ZOO "$p" ;;
	vfat) mkfs.fat -F 32 -n ZOO "$p" >/dev/null ;;
	exfat|fuse) mkfs.exfat -L ZOO "$p" >/dev/null ;;
	ntfs3) mkntfs -q -F -f -L ZOO "$p" >/dev/null 2>&1 ;;
	btrfs) r=$(mktemp -d) && mkdir "$r/desk" && chown "$o" "$r/desk" &&
		mkfs.btrfs -q -f -L ZOO --rootdir "$r" "$p" >/dev/null 2>&1 && rm -rf "$r" ;;
	luks|lvm) : ;;
	esac || die "cannot make $fs on $p"
	dd if="$p" of="$f" bs=1M seek=1 conv=notrunc,sparse status=none
	rm -f "$p"
	mbr "$f" "$fs"
}

# the qemu options that put the slow disk (node d0) on BUS, as device "stick"
bus_args() {
	case $1 in
	usb) echo "-device qemu-xhci,id=hc -device $(usb_storage_json hc stick d0 ZOO0001 | json_opts)" ;;
	ehci) echo "-device usb-ehci,id=hc -device $(usb_storage_json hc stick d0 ZOO0002 | json_opts)" ;;
	uas) echo "-device qemu-xhci,id=hc -device usb-uas,id=stick,bus=hc.0 -device scsi-hd,bus=stick.0,scsi-id=0,lun=0,drive=d0,serial=ZOO0003,removable=on" ;;
	reader) echo "-device qemu-xhci,id=hc -device usb-bot,id=stick,bus=hc.0 -device scsi-hd,bus=stick.0,scsi-id=0,lun=0,drive=d0,serial=ZOO0004,removable=on -device scsi-hd,bus=stick.0,scsi-id=0,lun=1,drive=d1,serial=ZOO0005,removable=on" ;;
	sd) echo "-device sdhci-pci,id=hc -device sd-card,id=stick,drive=d0" ;;
	nvme) echo "-device nvme,id=stick,serial=ZOO0006,drive=d0" ;;
	sata) echo "-device ahci,id=hc -device ide-hd,id=stick,bus=hc.0,drive=d0,serial=ZOO0007" ;;
	virtio) echo "-device virtio-blk-pci,id=stick,drive=d0,serial=ZOO0008" ;;
	esac
}

# json_opts: a flat JSON object of device_add arguments as -device's
# options (driver first)
json_opts() {
	sed 's/^{//; s/}$//; s/"//g; s/:/=/g; s/=true/=on/g' | tr ',' '\n' |
		awk -F= '$1 == "driver" { d = $2; next } { o = o "," $1 "=" $2 } END { print d o }'
}

# The slow disk's server, in directory W: nbdkit on W/nbd.sock serving
# FILE at BPS bytes/s, each request logged to W/nbd.log. blocksize: no
# request above 64 KiB reaches the rate filter, whose bucket holds 0.1 s
# (its default 2 s would let the first 2 s of a copy through at once):
# measured here, 20 and 40 MiB at 2 MB/s took 10.58 and 20.97 s
# (size/speed 10.49 and 20.97). What the profiles change: the speed
# (W/rate, bits/s), write errors (while W/inject exists) and stalls
# (W/pause.sock).
# nbd_start W FILE BPS
nbd_start() {
	: >"$1/nbd.log"
	nbdkit -U "$1/nbd.sock" -P "$1/nbd.pid" --filter=log --filter=error --filter=pause \
		--filter=blocksize --filter=rate file "$2" logfile="$1/nbd.log" \
		error-pwrite=EIO error-pwrite-rate=100% error-pwrite-file="$1/inject" \
		pause-control="$1/pause.sock" maxdata=64K rate=$(($3 * 8)) rate-file="$1/rate" \
		burstiness=0.1
}

# nbd_mib NBDLOG: the MiB the device was given in all (the file, the file
# system's metadata and journal), from nbdkit's log
NBD_HEX='function hex(s,   i, n) { n = 0; s = tolower(s); sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n }'
nbd_mib() {
	awk "$NBD_HEX"'
		/ Write id=/ && match($0, /count=0x[0-9a-fA-F]+/) { b += hex(substr($0, RSTART + 6, RLENGTH - 6)) }
		END { printf "%.2f", b / 1048576 }' "$1"
}

# controller W PROFILE QMP_SOCKET ID REPLUG_JSON [FROM]: acts on
# W/nbd.log's count of bytes written (from its line FROM, tail -n's: +1,
# the whole log, the default; 0, what comes): the cliff's drop to 4 MB/s
# at 256 MiB, a 2 s pause every 32 MiB, errors from 16 MiB on, removal
# of device ID at 16 MiB (QMP device_del) and the replug 3 s later
# (device_add of REPLUG_JSON); each event, stamped, to W/events. Runs
# until killed.
controller() {
	local W=$1 prof=$2 sock=$3 id=$4 replug=$5 ev arg
	tail -n "${6:-+1}" -F "$W/nbd.log" 2>/dev/null | awk -v prof="$prof" "$NBD_HEX"'
		/ Write id=/ && match($0, /count=0x[0-9a-fA-F]+/) {
			b += hex(substr($0, RSTART + 6, RLENGTH - 6)); m = b / 1048576
			if (prof == "cliff" && !done && m >= 256) { print "rate 32000000"; done = 1 }
			if (prof == "stall" && m >= (n + 1) * 32) { n++; print "stall" }
			if (prof == "error" && !done && m >= 16) { print "error"; done = 1 }
			if (prof == "remove" && !done && m >= 16) { print "remove"; done = 1 }
			fflush() }' | while read -r ev arg; do
		case $ev in
		rate) echo "$arg" >"$W/rate.new" && mv "$W/rate.new" "$W/rate" ;;
		stall) echo p | socat -t 3 - "UNIX-CONNECT:$W/pause.sock" >/dev/null; sleep 2
		       echo r | socat -t 1 - "UNIX-CONNECT:$W/pause.sock" >/dev/null ;;
		error) touch "$W/inject" ;;
		remove) qmp_send "$sock" "{\"execute\":\"device_del\",\"arguments\":{\"id\":\"$id\"}}" >>"$W/qmp.log"
			sleep 3
			qmp_send "$sock" "{\"execute\":\"device_add\",\"arguments\":$replug}" >>"$W/qmp.log" ;;
		esac
		echo "$(date +%s.%N) $ev $arg" >>"$W/events"
	done
}

# qmp_send SOCKET JSON: one QMP command; prints the replies
qmp_send() { printf '{"execute":"qmp_capabilities"}\n%s\n' "$2" | socat -t 2 - "UNIX-CONNECT:$1" 2>&1; }

# usb_storage_json HC ID NODE SERIAL: the device_add arguments of a USB
# stick (BOT) on host controller HC, also what plugs it again
usb_storage_json() {
	printf '{"driver":"usb-storage","id":"%s","bus":"%s.0","drive":"%s","serial":"%s","removable":true}' "$2" "$1" "$3" "$4"
}

# bus_serial BUS: the serial the zoo's disk has on BUS
bus_serial() {
	case $1 in
	usb) echo ZOO0001 ;; ehci) echo ZOO0002 ;; uas) echo ZOO0003 ;; reader) echo ZOO0004 ;;
	nvme) echo ZOO0006 ;; sata) echo ZOO0007 ;; virtio) echo ZOO0008 ;; *) echo - ;;
	esac
}
