#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package, end to end, on this machine (root; installs and
# purges wbgov system-wide, a minute or two: `make check-pkg`, not `make
# check`). Builds it from a copy of the tree (dpkg-buildpackage writes to
# the parent directory, and the tree must stay clean) with nocheck (`make
# check` runs the tests); lintian must say nothing at E: or W:. Installs it:
# files where they belong, /etc/wbgov/wbgov.conf a conffile that wbgovd -n
# finds OK, the unit enabled, and, where systemd is not PID 1, nothing
# started. Starts wbgovd by hand as root (the maintainer scripts start
# nothing without systemd) and waits until it has changed a knob; `apt-get
# remove` must stop it and leave every bdi knob and vm.dirty_* as before it
# started; `apt-get purge` must remove /etc/wbgov, /var/lib/wbgov and
# /run/wbgov. This script reads the knobs and never writes them: putting
# them back is the package's job. Prints `tests: 1 passed, 0 failed` (or
# 0, 1) last.
set -eu
cd "$(dirname "$0")/../.."
# sys_snapshot: every knob, as the real-kernel tests record them
. tests/lib/system.sh
me=deb.sh
tmp=""
dpid=""
installed=no
skip() {
	if [ "${CI:-}" = true ]; then
		fail "$* (CI=true: not skipping)"
	fi
	echo "$me: skipped: $*" >&2
	exit 77
}
fail() {
	printf '%s: FAIL: %s\n' "$me" "$*" >&2
	exit 1
}

cleanup() {
	rc=$?
	set +e
	# a wbgovd of ours that is still there gives its knobs back on TERM
	if [ -n "$dpid" ] && kill -0 "$dpid" 2>/dev/null; then
		kill -TERM "$dpid"
		wait "$dpid"
	fi
	# a killed wbgovd's knobs, if the package is gone already: the tool the
	# package would have used gives them back
	if [ -e /run/wbgov/state ] && [ ! -x /usr/bin/wbgov ] && [ -x "$tmp/wbgov/build/wbgov" ]; then
		"$tmp/wbgov/build/wbgov" restore || rc=1
	fi
	if [ "$installed" = yes ] && dpkg-query -W -f='${Status}' wbgov 2>/dev/null | grep -qv not-installed; then
		apt-get purge -y -q wbgov >"$tmp/cleanup.log" 2>&1 ||
			{ cat "$tmp/cleanup.log" >&2; echo "$me: could not purge wbgov" >&2; rc=1; }
	fi
	[ -n "$tmp" ] && rm -rf "$tmp"
	if [ "$rc" -eq 0 ]; then
		echo "tests: 1 passed, 0 failed"
	elif [ "$rc" -ne 77 ]; then
		echo "tests: 0 passed, 1 failed"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

[ "$(id -u)" -eq 0 ] || skip "needs root (installs the package)"
for c in dpkg-buildpackage dh lintian fakeroot apt-get; do
	command -v "$c" >/dev/null 2>&1 || skip "no $c here (sh scripts/deps.sh installs it)"
done
# nothing of the machine's may be lost to the purge or taken for ours
if dpkg-query -W -f='${Status}' wbgov 2>/dev/null | grep -q 'ok installed\|config-files'; then
	fail "wbgov is installed already: this test installs and purges it; purge it first"
fi
for d in /etc/wbgov /var/lib/wbgov /run/wbgov/wbgovd.pid /run/wbgov/state; do
	[ ! -e "$d" ] || fail "$d exists (make install, or a wbgovd run?): the purge would remove it; move it away first"
done

# The disk wbgovd is made to hold (see pin.conf below)
pin=$(stat -c '%Hd:%Ld' /)
[ ! -e "/sys/dev/block/$pin/partition" ] || pin=$(cat "/sys/dev/block/$pin/../dev")
[ -e "/sys/class/bdi/$pin/strict_limit" ] ||
	fail "/ is on $pin, which has no bdi with per-device knobs (a btrfs or network root, or Linux < 6.2): nothing to pin"

# One real-kernel test at a time (tests/lib/system.sh): the knobs read
# before must be the knobs read after, and a second wbgovd would hold them.
exec 9>/run/wbgov-system-tests.lock
t0=$(date +%s)
flock -w 3600 9 || fail "another real-kernel test held /run/wbgov-system-tests.lock for an hour"
[ "$(($(date +%s) - t0))" -le 1 ] || echo "$me: waited $(($(date +%s) - t0)) s for /run/wbgov-system-tests.lock"
tmp=$(mktemp -d /tmp/wbgov-deb.XXXXXX)

# --- build, from a copy without build products or .git
t0=$(date +%s)
mkdir "$tmp/wbgov"
tar -c --exclude=./.git --exclude=./build --exclude='./build-*' . | tar -x -C "$tmp/wbgov"
(cd "$tmp/wbgov" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -b -us -uc) >"$tmp/build.log" 2>&1 ||
	{ tail -n 40 "$tmp/build.log" >&2; fail "dpkg-buildpackage -b -us -uc failed"; }
t1=$(date +%s)
deb=$(ls "$tmp"/wbgov_*.deb)
changes=$(ls "$tmp"/wbgov_*.changes)
echo "$me: built ${deb##*/} in $((t1 - t0)) s"
# the package's compiles keep their warnings as warnings (debian/rules)
grep -q -- ' -Wall ' "$tmp/build.log" || fail "no compile line in the build log"
! grep -Eq -- '-Werror( |$)' "$tmp/build.log" ||
	fail "the package is built with -Werror: $(grep -Em1 -- '-Werror( |$)' "$tmp/build.log")"

# --- lintian: nothing at error or warning level (the one line on stderr,
# that root runs it, is no tag)
lintian --info "$deb" "$changes" >"$tmp/lintian.log" 2>"$tmp/lintian.err" || true
grep -v '^running with root privileges is not recommended!$' "$tmp/lintian.err" >&2 || true
cat "$tmp/lintian.log"
! grep -q '^[EW]: ' "$tmp/lintian.log" || fail "lintian has errors or warnings"
[ -s "$tmp/lintian.log" ] || echo "$me: lintian: nothing"

# --- install
# processes running /usr/bin/wbgovd, whoever started them (" (deleted)"
# once the package is removed under it)
installed_wbgovd() {
	for e in /proc/[0-9]*/exe; do
		case "$(readlink "$e" 2>/dev/null)" in
		'/usr/bin/wbgovd' | '/usr/bin/wbgovd (deleted)') p=${e#/proc/}; echo "${p%/exe}" ;;
		esac
	done
	return 0
}
systemd=no
[ -d /run/systemd/system ] && systemd=yes
sys_snapshot >"$tmp/knobs.before"
installed=yes
apt-get install -y -q --no-install-recommends "$deb" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "apt-get install ${deb##*/} failed"; }
dpkg-query -W -f='${Status}\n' wbgov | grep -qx 'install ok installed' || fail "wbgov is not installed after apt-get install"

dpkg -L wbgov >"$tmp/files"
# the unit where this release's systemd wants it (debian/rules): Debian
# 12 /lib/systemd/system, 13 /usr/lib/systemd/system
# (no systemd.pc, as on 13 without systemd-dev: /usr/lib/systemd/system)
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null) || true
unitdir=${unitdir:-/usr/lib/systemd/system}
for f in /usr/bin/wbgovd /usr/bin/wbgov /usr/bin/wbsim "$unitdir/wbgovd.service" \
	/etc/wbgov/wbgov.conf /usr/share/man/man8/wbgovd.8.gz /usr/share/man/man8/wbgov.8.gz \
	/usr/share/man/man5/wbgov.conf.5.gz /usr/share/man/man1/wbsim.1.gz \
	/usr/share/doc/wbgov/copyright /usr/share/doc/wbgov/desktop.md /usr/share/doc/wbgov/migrating.md \
	/usr/share/bash-completion/completions/wbgov \
	/usr/share/zsh/vendor-completions/_wbgov /usr/share/fish/vendor_completions.d/wbgov.fish \
	/usr/share/dbus-1/system.d/io.github.wbgov.Governor1.conf /etc/xdg/autostart/wbgov-notify.desktop \
	/usr/share/applications/wbgov-notify.desktop /usr/share/locale/de/LC_MESSAGES/wbgov.mo \
	/usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Manager.xml \
	/usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.Device.xml \
	/usr/share/polkit-1/actions/io.github.wbgov.Governor1.policy; do
	grep -qx "$f" "$tmp/files" || fail "dpkg -L wbgov does not list $f"
	[ -f "$f" ] || fail "$f is not installed"
done
for f in /usr/bin/wbgovd /usr/bin/wbgov /usr/bin/wbsim; do
	[ -x "$f" ] || fail "$f is not executable"
done
# no file outside the places above
while IFS= read -r f; do
	[ -d "$f" ] && continue
	case "$f" in
	/usr/bin/wb* | /usr/share/man/man[158]/*.gz | /usr/share/doc/wbgov/* | \
		/usr/share/bash-completion/completions/wb* | /usr/share/zsh/vendor-completions/_wbgov | \
		/usr/share/fish/vendor_completions.d/wb*.fish | \
		"$unitdir/wbgovd.service" | /etc/wbgov/wbgov.conf | \
		/usr/share/dbus-1/system.d/io.github.wbgov.Governor1.conf | /etc/xdg/autostart/wbgov-notify.desktop | \
		/usr/share/applications/wbgov-notify.desktop | /usr/share/locale/*/LC_MESSAGES/wbgov.mo | \
		/usr/share/dbus-1/interfaces/io.github.wbgov.Governor1.*.xml | \
		/usr/share/polkit-1/actions/io.github.wbgov.Governor1.policy) ;;
	*) fail "dpkg -L wbgov lists $f, outside the programs, manuals, docs, completions, unit, config, D-Bus policy, interfaces, polkit action, desktop entries and translations" ;;
	esac
done <"$tmp/files"
grep -qx 'ExecStart=/usr/bin/wbgovd' "$unitdir/wbgovd.service" ||
	fail "the installed unit does not run /usr/bin/wbgovd"
dpkg-query -W -f='${Conffiles}\n' wbgov | grep -q '^ /etc/wbgov/wbgov.conf ' ||
	fail "/etc/wbgov/wbgov.conf is not a conffile"
/usr/bin/wbgovd -n >"$tmp/n.out" 2>&1 || { cat "$tmp/n.out" >&2; fail "wbgovd -n failed on the installed config"; }
grep -qx 'configuration OK' "$tmp/n.out" || fail "wbgovd -n does not say the installed config is OK: $(cat "$tmp/n.out")"
/usr/bin/wbgov --help >"$tmp/help" || fail "wbgov --help: exit $?"
grep -q 'restore' "$tmp/help" || fail "wbgov --help does not list restore"
/usr/bin/wbsim --version | grep -q '^wbsim ' || fail "the installed wbsim does not run"
# the package's wbgov finds the package's translations (LANGUAGE over
# C.UTF-8: no locale to generate)
LANGUAGE=de LC_ALL=C.UTF-8 /usr/bin/wbgov cp --help | grep -q '^Aufruf: wbgov \[OPTIONEN\] cp ' ||
	fail "the installed wbgov does not find /usr/share/locale/de/LC_MESSAGES/wbgov.mo"
# enabled: deb-systemd-helper makes the link whether systemd runs or not
[ -L /etc/systemd/system/multi-user.target.wants/wbgovd.service ] ||
	fail "wbgovd.service is not enabled (no multi-user.target.wants link)"
if [ "$systemd" = no ]; then
	# no systemd as PID 1: the install must not have started anything
	[ -z "$(installed_wbgovd)" ] || fail "the install started wbgovd without systemd: pid $(installed_wbgovd)"
	[ ! -e /run/wbgov/wbgovd.pid ] || fail "the install left /run/wbgov/wbgovd.pid without systemd"
	echo "$me: installed; no systemd as PID 1, so nothing was started (at $(($(date +%s) - t0)) s)"
else
	systemctl is-active --quiet wbgovd || fail "systemd runs, but wbgovd.service is not active after the install"
	echo "$me: installed; wbgovd.service is active"
fi

# pin: the disk under / (its whole disk when / is on a partition), and a
# configuration that pins it (mode = fixed, a 256 MiB cap, mild beside the
# kernel's gigabytes): so wbgovd holds a knob changed until it is stopped.
# With the defaults a disk gets the start cap at once, but is let go as soon
# as it is measured fast, maybe before the package is removed, and from
# device memory at the next start: then the removal would prove nothing.
printf '[global]\n[device pinned]\ndevnum = %s\nmode = fixed\nmax_bytes = 256M\n' "$pin" >"$tmp/pin.conf"

# start_wbgovd: where systemd does not run, start wbgovd as root as the unit
# would (/run/wbgov, /var/lib/wbgov/devices), but with pin.conf, as our
# child; then wait until it has changed a knob.
start_wbgovd() {
	if [ "$systemd" = no ]; then
		/usr/bin/wbgovd -c "$tmp/pin.conf" >"$tmp/wbgovd.log" 2>&1 &
		dpid=$!
	fi
	i=0
	while :; do
		sys_snapshot >"$tmp/knobs.during"
		[ -s /run/wbgov/state ] && ! cmp -s "$tmp/knobs.before" "$tmp/knobs.during" && break
		i=$((i + 1))
		[ "$i" -le 100 ] || { cat "$tmp/wbgovd.log" >&2 2>/dev/null; fail "wbgovd changed no knob within 10 s"; }
		[ -z "$dpid" ] || kill -0 "$dpid" 2>/dev/null || { cat "$tmp/wbgovd.log" >&2; fail "wbgovd exited at start"; }
		sleep 0.1
	done
	echo "$me: wbgovd runs and changed:"
	diff "$tmp/knobs.before" "$tmp/knobs.during" | sed -n 's/^> /  /p'
	[ -d /var/lib/wbgov ] || fail "wbgovd made no /var/lib/wbgov (its device memory)"
}

# remove_wbgov: apt-get remove; then no wbgovd runs, every knob is as
# before wbgovd started, the conffile stays
remove_wbgov() {
	# apt-get gives dpkg a terminal: lines end in CR LF
	apt-get remove -y -q wbgov >"$tmp/remove.raw" 2>&1 ||
		{ cat "$tmp/remove.raw" >&2; fail "apt-get remove wbgov failed"; }
	tr -d '\r' <"$tmp/remove.raw" >"$tmp/remove.log"
	[ -z "$(installed_wbgovd)" ] || fail "wbgovd still runs after apt-get remove: pid $(installed_wbgovd)"
	sys_snapshot >"$tmp/knobs.after"
	if ! cmp -s "$tmp/knobs.before" "$tmp/knobs.after"; then
		diff "$tmp/knobs.before" "$tmp/knobs.after" >&2 || true
		fail "after apt-get remove the knobs are not as before wbgovd started"
	fi
	[ ! -e /run/wbgov/state ] || fail "/run/wbgov/state is left after the removal: knobs not given back"
	[ ! -e /usr/bin/wbgovd ] || fail "/usr/bin/wbgovd is left after apt-get remove"
	dpkg-query -W -f='${Status}\n' wbgov | grep -qx 'deinstall ok config-files' ||
		fail "wbgov is not in config-files after remove: $(dpkg-query -W -f='${Status}' wbgov)"
	[ -f /etc/wbgov/wbgov.conf ] || fail "apt-get remove took /etc/wbgov/wbgov.conf (a conffile stays until purge)"
}

# --- removed while wbgovd runs: stopping it (SIGTERM) gives the knobs back
start_wbgovd
remove_wbgov
if [ -n "$dpid" ]; then
	grep -q '^Stopping wbgovd (pid [0-9]*)' "$tmp/remove.log" ||
		{ cat "$tmp/remove.log" >&2; fail "the prerm did not say it stopped wbgovd"; }
	# it was our child: reap it and learn how it ended (0: every knob back)
	rc=0
	wait "$dpid" || rc=$?
	dpid=""
	[ "$rc" -eq 0 ] || { cat "$tmp/wbgovd.log" >&2; fail "wbgovd exited $rc when the package was removed"; }
	sed -n '/^<6>stopping: giving the knobs back/,$p' "$tmp/wbgovd.log" | grep -q "^<6>$pin: knobs given back" ||
		{ cat "$tmp/wbgovd.log" >&2; fail "wbgovd's log does not say it gave $pin's knobs back when it was stopped"; }
fi
echo "$me: removed; wbgovd stopped and every knob is as before ($(grep -c '^bdi' "$tmp/knobs.after") bdis, 6 vm.dirty_*) (at $(($(date +%s) - t0)) s)"

# --- removed after wbgovd was killed (SIGKILL: its knobs stay set, recorded
# in /run/wbgov/state): the prerm's wbgov restore gives them back. Installed
# again over the kept conffile. Under systemd the unit would restart it.
if [ "$systemd" = no ]; then
	apt-get install -y -q --no-install-recommends "$deb" >"$tmp/install.log" 2>&1 ||
		{ cat "$tmp/install.log" >&2; fail "apt-get install ${deb##*/} again (config-files) failed"; }
	start_wbgovd
	kill -KILL "$dpid"
	{ wait "$dpid"; } 2>/dev/null || true
	dpid=""
	sys_snapshot >"$tmp/knobs.killed"
	! cmp -s "$tmp/knobs.before" "$tmp/knobs.killed" || fail "the knobs went back when wbgovd was killed?"
	[ -s /run/wbgov/state ] || fail "no /run/wbgov/state after wbgovd was killed"
	remove_wbgov
	grep -q '^restored \([0-9]*\) of \1$' "$tmp/remove.log" ||
		{ cat "$tmp/remove.log" >&2; fail "the prerm did not run wbgov restore"; }
	echo "$me: removed after SIGKILL; the prerm's wbgov restore put every knob back (at $(($(date +%s) - t0)) s)"
fi

# --- purge
apt-get purge -y -q wbgov >"$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log" >&2; fail "apt-get purge wbgov failed"; }
installed=no
for d in /etc/wbgov /var/lib/wbgov /run/wbgov /etc/systemd/system/multi-user.target.wants/wbgovd.service; do
	[ ! -e "$d" ] && [ ! -L "$d" ] || fail "$d is left after apt-get purge"
done
dpkg-query -W -f='${Status}\n' wbgov 2>/dev/null | grep -qv 'not-installed' &&
	fail "dpkg still knows wbgov after purge: $(dpkg-query -W -f='${Status}' wbgov)"
echo "$me: purged; /etc/wbgov, /var/lib/wbgov and /run/wbgov are gone (at $(($(date +%s) - t0)) s)"
echo "$me: ok"
