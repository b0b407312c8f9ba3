#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages wbgov needs to build, test and demo; does
# nothing when they are all there. Needs root only when something is missing.
set -eu
# man-db: tests/cli/install.sh renders the installed pages with `man -l`;
# libjansson-dev: every JSON output is written with jansson;
# python3-prometheus-client: the reference parser the metrics tests check
# wbgov's Prometheus output with; bash-completion, zsh, fish: the
# completions' tests run them; rsync: bench/real-usb cp compares it with
# wbgov cp; libsystemd-dev: sd-bus and sd_notify; dbus-daemon, systemd
# (busctl), python3-dbus and python3-gi: tests/cli/dbus_*.sh run private
# buses and a fake notification server; debhelper dpkg-dev fakeroot
# lintian: the Debian package (make check-pkg); linux-source-6.12:
# tests/cli/kernel_series.sh applies kernel/ to it; desktop-file-utils:
# tests/cli/desktop_entry.sh validates the desktop entries; gettext:
# xgettext, msgmerge and msgfmt (make pot, make mo, tests/cli/po.sh);
# locales: tests/cli/wbgov_i18n.sh compiles de_DE.UTF-8 from its source
PKGS="build-essential clang make pkg-config libcmocka-dev libinih-dev libudev-dev libblkid-dev libmount-dev libsystemd-dev libjansson-dev scdoc
gnuplot-nox python3 time e2fsprogs btrfs-progs exfat-fuse exfatprogs fio util-linux kmod man-db
python3-prometheus-client bash-completion zsh fish rsync dbus-daemon systemd python3-dbus python3-gi
debhelper dpkg-dev fakeroot lintian linux-source-6.12 xz-utils
desktop-file-utils gettext locales"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "scripts/deps.sh: missing Debian packages:$missing — run as root (sudo)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q $missing
