#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install DESTDIR=... PREFIX=/usr` puts the programs, every man
# page (man/NAME.N.scd -> share/man/manN/NAME.N), the systemd unit (its
# ExecStart rewritten to the installed wbgovd; where systemd.pc says, with
# PREFIX=/usr/local in /usr/local/lib/systemd/system), the example config (only
# if there is none), the shell completions, the D-Bus policy (where
# dbus-daemon reads it), the D-Bus introspection files, the polkit action
# (with PREFIX=/usr/local still where polkitd reads it), the XDG autostart
# file of wbgov notify (its Exec rewritten), the application entry its
# notifications name (Exec rewritten too), each translation (po/LANG.po
# compiled, in share/locale/LANG/LC_MESSAGES/wbgov.mo) there and nothing
# else; with PREFIX=/usr/local the policy goes to /etc/dbus-1/system.d;
# the pages render; bash-completion's loader and
# fish find the completions where they were put; `make uninstall` takes all
# of it back but the config.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
me=${0##*/}
renderer=nothing
fail() {
	printf '%s: FAIL: %s\n' "$me" "$*" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

mk() {
	"$MAKE" --no-print-directory BUILD="$BUILD" DESTDIR="$tmp/root" PREFIX=/usr "$@"
}

# render PAGE OUT: the page as plain text in OUT with whatever renderer is
# there; returns 2 when there is none (then the .TH check is all we can do).
render() {
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$1" >"$2.raw" 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; fail "man -l $1 failed"; }
		renderer="man -l"
	elif command -v mandoc >/dev/null 2>&1; then
		mandoc -Tascii "$1" >"$2.raw" || fail "mandoc $1 failed"
		renderer=mandoc
	elif command -v groff >/dev/null 2>&1; then
		groff -man -Tascii "$1" >"$2.raw" || fail "groff -man $1 failed"
		renderer=groff
	else
		renderer=nothing
		return 2
	fi
	# strip overstruck bold and underline
	sed "s/.$(printf '\b')//g" "$2.raw" >"$2"
}

# where the unit goes for PREFIX=/usr: systemd's own word (Debian 12
# /lib/systemd/system, 13 /usr/lib/systemd/system)
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null) || unitdir=
unitdir=${unitdir:-/usr/lib/systemd/system}

mk install

# Every installed file is a program of $BUILD or a page of man/ in the
# section its name says, identical to what was built; nothing else.
root="$tmp/root"
find "$root" -type f | sort >"$tmp/got"
while IFS= read -r f; do
	case $f in
	"$root"/usr/bin/*)
		[ -x "$f" ] || fail "$f is not executable"
		cmp -s "$f" "$BUILD/${f##*/}" || fail "$f is not $BUILD/${f##*/}"
		;;
	"$root"/usr/share/man/man*/*)
		page=${f##*/}
		dir=${f%/*}
		[ -f "man/$page.scd" ] || fail "$f comes from no man/$page.scd"
		[ "${dir##*/}" = "man${page##*.}" ] || fail "$f is not in man${page##*.}/"
		cmp -s "$f" "$BUILD/man/$page" || fail "$f is not $BUILD/man/$page"
		;;
	"$root$unitdir"/wbgovd.service)
		grep -qx 'ExecStart=/usr/bin/wbgovd' "$f" || fail "$f: ExecStart is not /usr/bin/wbgovd"
		sed 's|^ExecStart=.*|ExecStart=/usr/bin/wbgovd|' etc/wbgovd.service | cmp -s - "$f" ||
			fail "$f is not etc/wbgovd.service with ExecStart rewritten"
		# a metrics file may go where wbgovd -n says the unit lets it
		# write: each such directory is in the unit's ReadWritePaths=
		install -m 644 /dev/null "$tmp/metrics.conf"
		echo "metrics = /elsewhere/wbgov.prom" >"$tmp/metrics.conf"
		"$root/usr/bin/wbgovd" -n -c "$tmp/metrics.conf" >/dev/null 2>"$tmp/metrics.err" || true
		dirs=$(sed -n 's/.*: wbgovd.service may write only under \(.*\) (ProtectSystem=strict).*/\1/p' \
			"$tmp/metrics.err" | sed 's/ and / /g')
		[ -n "$dirs" ] || fail "wbgovd -n does not warn of a metrics file outside the unit's directories: $(cat "$tmp/metrics.err")"
		for d in $dirs; do
			grep -Eq "^ReadWritePaths=(.* )?-?$d( |\$)" "$f" ||
				fail "$f: wbgovd -n lets a metrics file go in $d, which no ReadWritePaths= names"
		done
		grep -qx 'ReadWritePaths=-/var/lib/prometheus/node-exporter' "$f" ||
			fail "$f: node_exporter's directory is not optional (-) in ReadWritePaths="
		;;
	"$root"/usr/share/bash-completion/completions/wbgov)
		cmp -s "$f" etc/completions/wbgov.bash || fail "$f is not etc/completions/wbgov.bash"
		;;
	"$root"/usr/share/zsh/vendor-completions/_wbgov | "$root"/usr/share/fish/vendor_completions.d/*.fish)
		cmp -s "$f" "etc/completions/${f##*/}" || fail "$f is not etc/completions/${f##*/}"
		;;
	"$root"/usr/share/dbus-1/system.d/io.github.wbgov.Governor1.conf)
		cmp -s "$f" etc/dbus/io.github.wbgov.Governor1.conf || fail "$f is not etc/dbus/io.github.wbgov.Governor1.conf"
		;;
	"$root"/usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Manager.xml | \
	"$root"/usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Device.xml)
		cmp -s "$f" "etc/dbus/${f##*/}" || fail "$f is not etc/dbus/${f##*/}"
		;;
	"$root"/usr/share/polkit-1/actions/io.github.wbgov.Governor1.policy)
		cmp -s "$f" etc/polkit/io.github.wbgov.Governor1.policy || fail "$f is not etc/polkit/io.github.wbgov.Governor1.policy"
		;;
	"$root"/etc/xdg/autostart/wbgov-notify.desktop)
		sed 's|^Exec=.*|Exec=/usr/bin/wbgov notify|' etc/xdg/wbgov-notify.desktop | cmp -s - "$f" ||
			fail "$f is not etc/xdg/wbgov-notify.desktop with Exec rewritten to /usr/bin/wbgov"
		grep -qx 'Exec=/usr/bin/wbgov notify' "$f" || fail "$f: Exec is not /usr/bin/wbgov notify"
		;;
	"$root"/usr/share/locale/*/LC_MESSAGES/wbgov.mo)
		l=${f#"$root"/usr/share/locale/}
		l=${l%%/*}
		[ -f "po/$l.po" ] || fail "$f comes from no po/$l.po"
		cmp -s "$f" "$BUILD/locale/$l/LC_MESSAGES/wbgov.mo" || fail "$f is not $BUILD/locale/$l/LC_MESSAGES/wbgov.mo"
		;;
	"$root"/usr/share/applications/wbgov-notify.desktop)
		sed 's|^Exec=.*|Exec=/usr/bin/wbgov notify|' etc/applications/wbgov-notify.desktop | cmp -s - "$f" ||
			fail "$f is not etc/applications/wbgov-notify.desktop with Exec rewritten to /usr/bin/wbgov"
		;;
	"$root"/etc/wbgov/wbgov.conf)
		cmp -s "$f" etc/wbgov.conf || fail "$f is not etc/wbgov.conf"
		"$root/usr/bin/wbgovd" -n -c "$f" | grep -qx 'configuration OK' || fail "wbgovd -n -c $f"
		;;
	*) fail "installed outside \$PREFIX/bin, \$PREFIX/share/man, the unit, the config, the completions, the D-Bus policy, interfaces and polkit action and the autostart file: $f" ;;
	esac
done <"$tmp/got"
grep -qx "$root/usr/bin/wbsim" "$tmp/got" || fail "wbsim is not in \$PREFIX/bin"
for f in usr/bin/wbgovd "${unitdir#/}"/wbgovd.service etc/wbgov/wbgov.conf \
	usr/share/dbus-1/system.d/io.github.wbgov.Governor1.conf etc/xdg/autostart/wbgov-notify.desktop \
	usr/share/applications/wbgov-notify.desktop usr/share/locale/de/LC_MESSAGES/wbgov.mo \
	usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Manager.xml \
	usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Device.xml \
	usr/share/polkit-1/actions/io.github.wbgov.Governor1.policy; do
	grep -qx "$root/$f" "$tmp/got" || fail "$f is not installed"
done
"$root/usr/bin/wbsim" --version | grep -q '^wbsim ' || fail "the installed wbsim does not run"
for f in usr/share/zsh/vendor-completions/_wbgov usr/share/fish/vendor_completions.d/wbgov.fish \
	usr/share/fish/vendor_completions.d/wbgovd.fish usr/share/fish/vendor_completions.d/wbsim.fish; do
	grep -qx "$root/$f" "$tmp/got" || fail "$f is not installed"
done
# bash-completion loads a command's file by its name: wbgovd and wbsim
# are links to wbgov's
for c in wbgovd wbsim; do
	[ "$(readlink "$root/usr/share/bash-completion/completions/$c")" = wbgov ] ||
		fail "bash-completion/completions/$c is not a link to wbgov"
done
[ "$(find "$root" -type l | wc -l)" = 2 ] || fail "links besides the two completions: $(find "$root" -type l)"
# ... and finds them through XDG_DATA_DIRS, as it finds PREFIX/share
if [ -f /usr/share/bash-completion/bash_completion ]; then
	for c in wbgov wbgovd wbsim; do
		XDG_DATA_DIRS=$root/usr/share bash --norc --noprofile -c \
			". /usr/share/bash-completion/bash_completion; __load_completion $c; complete -p $c" \
			>"$tmp/loaded" 2>&1 || fail "bash-completion does not load $c's completion: $(cat "$tmp/loaded")"
		grep -qx "complete -F _$c $c" "$tmp/loaded" || fail "bash-completion loaded for $c: $(cat "$tmp/loaded")"
	done
fi
if command -v fish >/dev/null 2>&1; then
	# (fish loads the completions of a command that is on PATH)
	PATH=$root/usr/bin:$PATH fish --no-config -c "set fish_complete_path $root/usr/share/fish/vendor_completions.d \$fish_complete_path
		complete -C 'wbgov s'; complete -C 'wbgovd --metrics-f'; complete -C 'wbsim t'" >"$tmp/fish" 2>&1
	for w in status --metrics-file table; do
		cut -f 1 "$tmp/fish" | grep -qx -- "$w" || fail "fish does not autoload the installed completions: $(cat "$tmp/fish")"
	done
fi

for src in man/*.scd; do
	page=${src##*/}
	page=${page%.scd}
	name=${page%.*}
	sec=${page##*.}
	f="$root/usr/share/man/man$sec/$page"
	grep -qx "$f" "$tmp/got" || fail "man/$page.scd is not installed as $f"
	grep -q "^\.TH \"$name\" \"$sec\"" "$f" || fail "$f has no .TH \"$name\" \"$sec\" header"
	rc=0
	render "$f" "$tmp/text" || rc=$?
	[ "$rc" -eq 2 ] && continue
	grep -q '^NAME' "$tmp/text" || fail "$renderer $f shows no NAME section"
done

if [ "$renderer" != nothing ]; then
	render "$root/usr/share/man/man1/wbsim.1" "$tmp/text"
	for want in SYNOPSIS 'EXIT STATUS' 'wbsim - simulate' \
		'scenario,policy,write_return_s,durable_s,sync_after_s,peak_dirty_mib,other_max_pause_ms,fsync_p99_ms,fast_write_mbps,device_written_mib,peak_nr_dirty_mib'; do
		grep -q "$want" "$tmp/text" || fail "$renderer wbsim.1 lacks \"$want\""
	done
fi

# PREFIX=/usr/local: dbus-daemon does not read /usr/local/share/dbus-1
"$MAKE" --no-print-directory BUILD="$BUILD" DESTDIR="$tmp/local" PREFIX=/usr/local install >/dev/null
[ -f "$tmp/local/usr/local/lib/systemd/system/wbgovd.service" ] ||
	fail "PREFIX=/usr/local: the unit is not in /usr/local/lib/systemd/system (on systemd's search path)"
[ -f "$tmp/local/etc/dbus-1/system.d/io.github.wbgov.Governor1.conf" ] ||
	fail "PREFIX=/usr/local: the D-Bus policy is not in /etc/dbus-1/system.d"
grep -qx 'Exec=/usr/local/bin/wbgov notify' "$tmp/local/etc/xdg/autostart/wbgov-notify.desktop" ||
	fail "PREFIX=/usr/local: the autostart file's Exec"
grep -qx 'Exec=/usr/local/bin/wbgov notify' "$tmp/local/usr/local/share/applications/wbgov-notify.desktop" ||
	fail "PREFIX=/usr/local: the application entry is not in /usr/local/share/applications, or its Exec"
# polkitd reads its actions from /usr/share/polkit-1/actions alone
[ -f "$tmp/local/usr/share/polkit-1/actions/io.github.wbgov.Governor1.policy" ] ||
	fail "PREFIX=/usr/local: the polkit action is not in /usr/share/polkit-1/actions"
[ -f "$tmp/local/usr/local/share/dbus-1/interfaces/io.github.wbgov.Governor1.Device.xml" ] ||
	fail "PREFIX=/usr/local: the D-Bus interfaces are not in /usr/local/share/dbus-1/interfaces"
"$MAKE" --no-print-directory BUILD="$BUILD" DESTDIR="$tmp/local" PREFIX=/usr/local uninstall >/dev/null
[ -z "$(find "$tmp/local" -type f ! -path "$tmp/local/etc/wbgov/wbgov.conf")" ] ||
	fail "PREFIX=/usr/local: uninstall left $(find "$tmp/local" -type f)"

mk uninstall
find "$tmp/root" ! -type d ! -path "$root/etc/wbgov/wbgov.conf" >"$tmp/left"
[ ! -s "$tmp/left" ] || { cat "$tmp/left" >&2; fail "make uninstall left files behind"; }
# the config is the administrator's: uninstall keeps it, install does not overwrite it
[ -f "$root/etc/wbgov/wbgov.conf" ] || fail "make uninstall removed the config"
echo '# edited' >>"$root/etc/wbgov/wbgov.conf"
mk install >/dev/null
tail -n 1 "$root/etc/wbgov/wbgov.conf" | grep -qx '# edited' || fail "make install overwrote the config"
mk uninstall >/dev/null
echo "$me: ok (pages rendered with $renderer)"
