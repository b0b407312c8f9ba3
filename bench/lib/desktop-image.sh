# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# The Debian 12 desktop guest of bench/desktop and bench/zoo: a root file
# system image made with mmdebstrap (systemd as PID 1, dbus, udisks2, polkitd, gvfs, a
# notification server, the .deb's runtime dependencies, a user in plugdev
# logged in on tty1), the modules of a Debian kernel put in it, and a
# busybox initramfs that mounts it from virtio and hands over to systemd.
# No loop device and no mount on the host: mkfs.ext4 -d fills the image
# from a directory. Each boot brings a run's disk (LABEL=DESKRUN, at
# /opt/desk) with the bench's guest script as /opt/desk/guest: root's side
# runs it as `guest root`, the logged-in user's as `guest user`. Also the
# .deb of this tree (deb_build). Sourced (bash) after bench/lib/guest.sh;
# the caller defines die and note.

# The packages of the desktop, besides the .deb's own dependencies.
# dunst is the notification server (it runs under Xvfb, headless;
# `dunstctl history` tells what it got); libnotify-bin and dbus-x11 are
# not needed. dbus-user-session gives the logged-in user a session bus
# under systemd --user, where gvfs' daemons and dunst find each other.
DESK_PKGS="systemd systemd-sysv udev dbus dbus-user-session libpam-systemd polkitd udisks2
gvfs gvfs-daemons libglib2.0-bin dunst xvfb xauth fonts-dejavu-core passwd kmod procps"
DESK_USER=desk

# deb_build REPO DIR: the .deb of the working tree, built with
# dpkg-buildpackage in a copy of it (DIR/wbgov; the tests are not run:
# `make check` is theirs); prints the .deb's path. deb_copy REPO DIR
# makes the copy alone (bench/desktop changes its changelog first).
deb_copy() {
	mkdir -p "$2/wbgov"
	tar -C "$1" -c --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./bench/out . |
		tar -x -C "$2/wbgov"
}
deb_build() {
	[ -d "$2/wbgov" ] || deb_copy "$1" "$2" || return 1
	(cd "$2/wbgov" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -b -us -uc) >"$2/build.log" 2>&1 ||
		{ tail -n 30 "$2/build.log" >&2; echo "dpkg-buildpackage failed in $2/wbgov" >&2; return 1; }
	ls "$2"/wbgov_*_amd64.deb
}

# deb_depends DEB: the packages DEB depends on, one a line (the first of
# each alternative, without versions)
deb_depends() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep -v '^$'
}

# desk_image_key PKGS KERNEL_DIR: what the cached image depends on: its
# package list, the kernel whose modules it holds, and this file (how it
# is made)
desk_image_key() {
	{
		echo "$1" | tr ' \n' '\n\n' | grep -v '^$' | sort -u
		basename "$(dirname "$2")"
		cat "${BASH_SOURCE[0]}"
	} | sha256sum | cut -c1-16
}

# desk_customize ROOT: the guest's settings, written into the directory
# mmdebstrap made
desk_customize() {
	local r=$1
	echo desk >"$r/etc/hostname"
	printf '127.0.0.1 localhost\n127.0.1.1 desk\n' >"$r/etc/hosts"
	# no fsck of the root (a throw-away overlay) and the run's disk, made
	# by the bench for each boot (the guest script and the .debs)
	printf '/dev/vda / ext4 rw,errors=remount-ro 0 0\nLABEL=DESKRUN /opt/desk ext4 ro,nofail 0 0\n' \
		>"$r/etc/fstab"
	mkdir -p "$r/opt/desk"
	chroot "$r" useradd -m -s /bin/bash -G plugdev "$DESK_USER" || return 1
	# autologin on tty1: logind makes it a local session on seat0, active
	# while tty1 is the foreground console, as a desktop's login is (polkit's
	# allow_active then lets udisksctl mount and power off)
	mkdir -p "$r/etc/systemd/system/getty@tty1.service.d"
	cat >"$r/etc/systemd/system/getty@tty1.service.d/autologin.conf" <<EOF
[Service]
ExecStart=
ExecStart=-/sbin/agetty -o '-p -f -- \\\\u' --noclear --autologin $DESK_USER %I \$TERM
EOF
	# the user's side of the bench runs in that session
	cat >>"$r/home/$DESK_USER/.profile" <<'EOF'
if [ "$(tty)" = /dev/tty1 ] && [ -x /opt/desk/guest ]; then
	exec /opt/desk/guest user
fi
EOF
	# root's side
	cat >"$r/etc/systemd/system/desk-bench.service" <<'EOF'
[Unit]
Description=the bench's guest, root's side
ConditionPathExists=/opt/desk/guest
After=multi-user.target opt-desk.mount

[Service]
Type=simple
ExecStart=/opt/desk/guest root
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
	mkdir -p "$r/etc/systemd/system/multi-user.target.wants"
	ln -sf /etc/systemd/system/desk-bench.service "$r/etc/systemd/system/multi-user.target.wants/"
	# nothing that runs by itself on a timer while the bench measures
	for u in apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer \
		fstrim.timer dpkg-db-backup.timer systemd-tmpfiles-clean.timer; do
		ln -sf /dev/null "$r/etc/systemd/system/$u"
	done
	# offline: apt installs the .debs from files, with what is installed
	: >"$r/etc/apt/sources.list"
	rm -f "$r"/etc/apt/sources.list.d/*
}

# desk_initramfs K KV DIR: DIR/initrd.gz, a busybox init that loads the
# modules of the virtio root and hands over to the image's systemd
desk_initramfs() {
	local k=$1 kv=$2 w=$3
	rm -rf "$w/root"
	guest_root "$w" sh mount umount mkdir sleep cat insmod switch_root ||
		{ echo "cannot make the initramfs' root in $w" >&2; return 1; }
	guest_modules "$k" "$kv" "$w/root" virtio_pci virtio_blk ext4 || return 1
	cat >"$w/root/init" <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /mod/order); do insmod /mod/$m.ko 2>/dev/null; done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mkdir -p /newroot
mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; sleep 5; exit 1; }
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /sbin/init
EOF
	chmod +x "$w/root/init"
	guest_initrd "$w"
}

# desk_image OUTDIR PKGS K KV: OUTDIR/root.img (raw ext4), vmlinuz and
# initrd.gz, made once per key (desk_image_key) and kept; prints the
# directory
desk_image() {
	local base=$1 pkgs=$2 k=$3 kv=$4 key dir tmp inc mib
	key=$(desk_image_key "$pkgs" "$k")
	dir=$base/$key
	if [ -s "$dir/root.img" ] && [ -s "$dir/initrd.gz" ] && [ -s "$dir/vmlinuz" ]; then
		echo "$dir"
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	tmp=$dir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	inc=$(echo "$pkgs" | tr ' \n' ',,' | sed 's/,,*/,/g; s/^,//; s/,$//')
	note "the desktop image: mmdebstrap bookworm with $inc (a few minutes, once)"
	mmdebstrap --mode=root --variant=apt --include="$inc" bookworm "$tmp/root" \
		"deb http://deb.debian.org/debian bookworm main" \
		"deb http://deb.debian.org/debian bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" \
		>"$tmp/mmdebstrap.log" 2>&1 ||
		{ tail -n 20 "$tmp/mmdebstrap.log" >&2; echo "mmdebstrap failed (log: $tmp/mmdebstrap.log)" >&2; return 1; }
	desk_customize "$tmp/root" || { echo "cannot set the guest up in $tmp/root" >&2; return 1; }
	mkdir -p "$tmp/root/lib/modules"
	cp -a "$k/lib/modules/$kv" "$tmp/root/lib/modules/" || return 1
	chroot "$tmp/root" depmod "$kv" || return 1
	echo "$pkgs" | tr ' \n' '\n\n' | grep -v '^$' | sort -u >"$dir/packages"
	chroot "$tmp/root" dpkg-query -W -f '${Package} ${Version}\n' >"$dir/installed"
	mib=$(($(du -sm "$tmp/root" | cut -f1) + 1024))
	mkfs.ext4 -q -F -L deskroot -E lazy_itable_init=0,lazy_journal_init=0 -d "$tmp/root" \
		"$dir/root.img" "${mib}M" >"$tmp/mkfs.log" 2>&1 ||
		{ cat "$tmp/mkfs.log" >&2; echo "mkfs.ext4 -d failed" >&2; return 1; }
	desk_initramfs "$k" "$kv" "$tmp" || return 1
	cp "$tmp/initrd.gz" "$dir/"
	cp "$k/boot/vmlinuz-$kv" "$dir/vmlinuz"
	rm -rf "$tmp"
	echo "$dir"
}
