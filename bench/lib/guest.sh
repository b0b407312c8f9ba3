# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared by bench/fidelity, bench/kernel and bench/writer-stacks (sourced, bash): a busybox
# guest's initramfs and disks, the probe it runs, and a machine's facts in
# the terms of a wbsim scenario file. Functions print what they make and
# return non-zero on failure, with a message; the caller dies.

# probe_build REPO BUILD: the static fidelity-probe (the guests have no C
# library), rebuilt when its source is newer; prints its path
probe_build() {
	local p=$1/$2/bench/fidelity-probe
	mkdir -p "$1/$2/bench"
	if [ ! -x "$p" ] || [ "$1/bench/fidelity-probe.c" -nt "$p" ]; then
		${CC:-gcc} -O2 -Wall -Wextra -static -o "$p" "$1/bench/fidelity-probe.c" || {
			echo "cannot build $p (a static binary: libc6-dev's libc.a)" >&2
			return 1
		}
	fi
	echo "$p"
}

# guest_packages: what a guest is made and run with (qemu, busybox, the
# initramfs and modules' tools, the disks' mkfs), installed where missing
guest_packages() {
	local p
	for p in qemu-system-x86 busybox-static cpio kmod xz-utils e2fsprogs dosfstools; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$p" >/dev/null ||
			return 1
	done
}

# host_packages PKG...: each package not installed, installed with apt-get
# in one call; 1 (the list said on stderr) when that fails
host_packages() {
	local p missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null ||
		{ echo "apt-get install$missing failed" >&2; return 1; }
}

# guest_root DIR APPLET...: DIR/root with busybox and its applets in bin/,
# and the usual mount points
guest_root() {
	local a r=$1/root
	shift
	mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/run"
	cp /bin/busybox "$r/bin/" || return 1
	for a in "$@"; do ln -sf busybox "$r/bin/$a"; done
}

# guest_initrd DIR: DIR/initrd.gz from DIR/root
guest_initrd() {
	(cd "$1/root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >../initrd.gz)
}

# guest_disk FILE MIB: a sparse ext4 image, its inode tables and journal
# written now (lazy_itable_init=0, lazy_journal_init=0), so that no
# ext4lazyinit shares a throttled disk with the runs
guest_disk() {
	if ! truncate -s "$2M" "$1" || ! mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1; then
		echo "mkfs.ext4 $1 failed" >&2
		return 1
	fi
}

# fs_disk FILE MIB FS: a sparse disk image of file system FS (ext4 as
# guest_disk makes it, xfs, btrfs, or vfat: FAT32, as USB sticks come)
fs_disk() {
	case $3 in
	ext4) guest_disk "$1" "$2" ;;
	xfs) truncate -s "$2M" "$1" && mkfs.xfs -q -f "$1" >/dev/null ;;
	btrfs) truncate -s "$2M" "$1" && mkfs.btrfs -q -f "$1" >/dev/null ;;
	vfat) truncate -s "$2M" "$1" && mkfs.fat -F 32 "$1" >/dev/null ;;
	*) echo "fs_disk: no file system $3" >&2; return 1 ;;
	esac
}

# The memory facts of a machine from its /proc/meminfo and /proc/zoneinfo
# (given as files): what wbsim's mem, used, kernel_mem and reserve stand
# for, so that its dirtyable memory (mem - kernel_mem - used - reserve) is
# the kernel's (free + file LRU - totalreserve_pages). used: anonymous and
# shmem pages (the initramfs, tmpfs); kernel_mem: the rest that is neither
# free nor file cache (slab, page tables, stacks). totalreserve_pages:
# each zone's high watermark plus its largest lowmem_reserve
# (calculate_totalreserve_pages()).
mem_facts() {
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } /^Active\(file\):/ { af = $2 }
	     /^Inactive\(file\):/ { inf = $2 } /^AnonPages:/ { a = $2 } /^Shmem:/ { s = $2 }
	     END { nf = t - f - af - inf; u = a + s; if (u > nf) u = nf
		   printf "mem_kib=%d\nused_kib=%d\nkernel_kib=%d\n", t, u, nf - u }' "$1"
	awk '/^Node .* zone/ { z++ } /^ +high / { h[z] = $2 }
	     /protection:/ { gsub(/[(),]/, " "); m = 0; for (i = 2; i <= NF; i++) if ($i + 0 > m) m = $i + 0; p[z] = m }
	     /^ +present / { pr[z] = $2 }
	     END { for (i in h) { r = h[i] + p[i]; if (r > pr[i]) r = pr[i]; tot += r }
		   printf "reserve_kib=%d\n", tot * 4 }' "$2"
}

# speed BYTES_PER_S: in the scenario file's units (kB/s, to the byte: a
# measured speed to 1000 B/s)
speed() { awk -v b="$1" 'BEGIN { if (b % 1000000 == 0) printf "%dMB/s", b / 1e6; else printf "%dkB/s", b / 1000 }'; }

# yesno KEY 0|1: a scenario's boolean, where the fact is known
yesno() { case "$2" in 1) echo "$1 = yes" ;; 0) echo "$1 = no" ;; esac; }

# guest_kernel REPO 6.1|6.12: the directory of Debian's packaged kernel of
# that series (the newest the archive has), downloaded and extracted once
# into REPO/bench/out/kernels; prints it
guest_kernel() {
	local re pkg dir
	case $2 in
	6.1) re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
	6.12) re='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
	*) echo "no such kernel series: $2 (6.1 or 6.12)" >&2; return 1 ;;
	esac
	pkg=$(apt-cache search --names-only "$re" | sort -V | tail -n 1 | cut -d' ' -f1)
	[ -n "$pkg" ] || { echo "no package matching $re (apt-get update?)" >&2; return 1; }
	dir=$1/bench/out/kernels/$pkg
	if [ ! -d "$dir/k" ]; then
		mkdir -p "$dir"
		(cd "$dir" && apt-get download "$pkg" >/dev/null 2>&1 && dpkg-deb -x ./*.deb k) ||
			{ rm -rf "$dir"; echo "apt-get download $pkg failed" >&2; return 1; }
	fi
	echo "$dir/k"
}

# guest_modules K KV ROOT MODULE...: the MODULEs and what they need from
# the extracted kernel K (version KV) in ROOT/mod, decompressed (busybox
# insmod has no xz), their load order in ROOT/mod/order; a MODULE written
# ?NAME may be missing (named in ROOT/mod/missing). The package has no
# modules.dep (its postinst runs depmod): depmod -b makes one, and the
# host's modprobe turns it into an insmod order, softdeps included (ext4
# wants crc32c); a built-in module shows as "builtin" and needs nothing.
guest_modules() {
	local k=$1 kv=$2 root=$3 m f deps
	shift 3
	mkdir -p "$root/mod"
	depmod -b "$k" "$kv" || return 1
	: >"$root/mod/missing"
	deps=$(for m in "$@"; do
		case $m in
		\?*) modprobe -d "$k" -S "$kv" --show-depends "${m#?}" 2>/dev/null ||
			echo "${m#?}" >>"$root/mod/missing" ;;
		*) modprobe -d "$k" -S "$kv" --show-depends "$m" || echo "missing $m" ;;
		esac
	done)
	if echo "$deps" | grep -q "^missing "; then
		echo "Linux $kv has no module$(echo "$deps" | sed -n 's/^missing / /p' | tr -d '\n')" >&2
		return 1
	fi
	for f in $(echo "$deps" | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'); do
		m=$(basename "$f"); m=${m%.xz}
		case "$f" in *.xz) xz -dc "$f" >"$root/mod/$m" ;; *) cp "$f" "$root/mod/" ;; esac
		echo "${m%.ko}" >>"$root/mod/order"
	done
}

# guest_bins ROOT BINARY...: the BINARYs in ROOT/bin, with the shared
# libraries each needs where ldd finds them
guest_bins() {
	local root=$1 b l
	shift
	mkdir -p "$root/bin"
	for b in "$@"; do
		cp "$b" "$root/bin/" || return 1
		for l in $(ldd "$b" 2>/dev/null | grep -o '/[^ ]*'); do
			mkdir -p "$root$(dirname "$l")" && cp -L "$l" "$root$l" || return 1
		done
	done
}

# desk_cleanup: a bench's EXIT trap: the host side ($HOSTPID) ended, qemu
# killed if it could not end it, the work directory ($WORK) removed
desk_cleanup() {
	set +e
	if [ -n "$HOSTPID" ] && kill -0 "$HOSTPID" 2>/dev/null; then
		kill -TERM "$HOSTPID"
		wait "$HOSTPID"
	fi
	if [ -n "$WORK" ] && [ -s "$WORK/qemu.pid" ]; then
		kill -KILL "$(cat "$WORK/qemu.pid")" 2>/dev/null
	fi
	[ -n "$WORK" ] && rm -rf "$WORK"
}
