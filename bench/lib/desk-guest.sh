# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared by the desktop guest's bench scripts (bench/desktop-guest,
# bench/zoo-shipped-guest), copied onto the run's disk as
# /opt/desk/desk-guest.sh and sourced (bash): the bench channel, checks
# and facts, the unit's state and hardening, apt, the user's jobs, and
# each side's start. Root's side and the user's talk through files in $D.
CH=/dev/ttyS1
D=/run/desk

# lines to the bench channel, /dev/ttyS1, where the host stamps them on
# its clock; `dg-check NAME ok|FAIL WHAT` lines are the checks, `dg-fact
# NAME VALUE` the figures
say() { printf '%s\n' "$*" >"$CH"; }
now() { echo "$EPOCHREALTIME"; }
check() { # NAME CONDITION-RESULT(0|1) WHAT
	if [ "$2" = 0 ]; then say "dg-check $1 ok"; else say "dg-check $1 FAIL $3"; fi
}
fact() { say "dg-fact $*"; }
# lines of a file or a command's output to the channel, prefixed
relay() { # PREFIX FILE
	while IFS= read -r l; do say "$1 $l"; done <"$2"
}

unit_state() {
	systemctl show -p ActiveState,SubState,StatusText,MainPID,UnitFileState,Result wbgovd 2>/dev/null |
		tr '\n' ' '
}
pkg_status() { dpkg-query -W -f='${Status} ${Version}' wbgov 2>/dev/null || echo not-installed; }

# the wbgovd of the unit: active, Type=notify's READY=1 came (the unit is
# "running", with the daemon's STATUS=), and its hardening as the kernel
# sees it
check_running() { # STEP VERSION
	local st pid s
	st=$(unit_state)
	say "dg-unit $1 $st"
	[ "$(systemctl show -p ActiveState --value wbgovd)/$(systemctl show -p SubState --value wbgovd)" = active/running ]
	check "$1/active" $? "$st"
	[ -n "$(systemctl show -p StatusText --value wbgovd)" ]
	check "$1/status-text" $? "no STATUS= from wbgovd"
	s=$(pkg_status)
	[ "$s" = "install ok installed $2" ]
	check "$1/package" $? "dpkg says: $s, expected version $2"
	[ "$(systemctl is-enabled wbgovd 2>&1)" = enabled ]
	check "$1/enabled" $? "systemctl is-enabled: $(systemctl is-enabled wbgovd 2>&1)"
	pid=$(systemctl show -p MainPID --value wbgovd)
	[ "$pid" -gt 0 ] 2>/dev/null || { check "$1/pid" 1 "no MainPID"; return; }
	s=$(grep -E '^(NoNewPrivs|Seccomp|Seccomp_filters|CapEff|CapPrm|CapBnd):' "/proc/$pid/status" | tr -s '\t ' ' ' | tr '\n' ' ')
	say "dg-fact $1/hardening pid=$pid $s"
	grep -q '^NoNewPrivs:[[:space:]]*1$' "/proc/$pid/status"
	check "$1/no-new-privs" $? "$s"
	grep -q '^Seccomp:[[:space:]]*2$' "/proc/$pid/status"
	check "$1/seccomp" $? "$s"
	# no capability effective while it waits; CAP_SYS_ADMIN (bit 21)
	# permitted before 6.2 alone (raised for the write wake-up's calls),
	# none at all from 6.2 on
	local eff prm
	eff=$(awk '/^CapEff:/ { print $2 }' "/proc/$pid/status")
	prm=$(awk '/^CapPrm:/ { print $2 }' "/proc/$pid/status")
	if [ -e /sys/class/bdi/"$(ls /sys/class/bdi | head -n 1)"/strict_limit ]; then
		[ "$prm" = 0000000000000000 ]
	else
		[ "$prm" = 0000000000200000 ]
	fi && [ "$eff" = 0000000000000000 ]
	check "$1/capabilities" $? "CapEff $eff CapPrm $prm"
	# its mount namespace is its own (PrivateMounts=, ProtectSystem=strict)
	[ "$(readlink "/proc/$pid/ns/mnt")" != "$(readlink /proc/1/ns/mnt)" ]
	check "$1/mount-namespace" $? "wbgovd shares PID 1's mount namespace"
	grep -q ' / / ro,' "/proc/$pid/mountinfo"
	check "$1/protect-system" $? "its / is not read-only: $(awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo")"
}

# the unit as a case's configuration wants it: stopped for "defaults",
# else running (started, then checked, if it was not)
unit_for() { # CONFIG STEP
	if [ "$1" = defaults ]; then
		systemctl stop wbgovd
		return
	fi
	[ "$(systemctl is-active wbgovd)" = active ] && return
	systemctl start wbgovd
	sleep 1
	check_running "$2" "$VER_A"
}

apt_do() { # STEP apt-get ARGS...
	local step=$1 t0 rc
	shift
	t0=$(now)
	DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends "$@" >"$D/apt.log" 2>&1
	rc=$?
	fact "$step/apt_s $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
	check "$step/apt" $rc "apt-get $* failed: $(tail -n 3 "$D/apt.log" | tr '\n' ' ')"
	[ $rc = 0 ] || relay "dg-log" "$D/apt.log"
}

# the user's side does one job at a time: $D/job holds "ID MODE ARGS...";
# it writes $D/job.done when finished
user_job() { # ID MODE DEV
	user_job_start "$@"
	user_job_wait "$@"
}
user_job_start() { # ID MODE DEV
	rm -f "$D/job.done"
	echo "$*" >"$D/job.tmp"
	chown "$DESK_USER" "$D/job.tmp"
	mv "$D/job.tmp" "$D/job"
}
user_job_wait() { # ID MODE DEV
	local i
	for i in $(seq 3000); do
		[ -e "$D/job.done" ] && return 0
		sleep 0.2
	done
	check "job-$1" 1 "the user's side did not finish job $* within 10 min"
	return 1
}

# --- what a desktop user does with a disk, each step on the channel
# (no password prompt: an action polkit does not allow fails at once)
# udisks_mount ID DEV: udisksctl mount as the user; MNT the mount point,
# MOUNT_OUT what udisksctl said
udisks_mount() {
	local rc
	MOUNT_OUT=$(udisksctl mount --no-user-interaction -b "$2" 2>&1)
	rc=$?
	say "dg-mount $1 rc=$rc $MOUNT_OUT"
	MNT=$(echo "$MOUNT_OUT" | sed -n 's/^Mounted .* at \(.*\)$/\1/p' | sed 's/\.$//')
	[ $rc = 0 ] && [ -d "$MNT" ]
}
# gio_copy ID SRC DEST: `gio copy --progress`, each progress line to the
# channel as it comes ("Transferred 12.3 MB out of 167.8 MB (6.1 MB/s)",
# behind \r and \033[K), the host stamping it, and to /tmp/gio-ID.out;
# its exit status
gio_copy() {
	local rc
	say "dg-copy-start $1 $(now)"
	: >"/tmp/gio-$1.out"
	gio copy --progress "$2" "$3" 2>&1 | stdbuf -o0 tr '\r' '\n' |
		while IFS= read -r l; do
			l=${l//$'\e'\[K/}
			[ -n "$l" ] && say "dg-gio $1 $(now) $l" && echo "$l" >>"/tmp/gio-$1.out"
		done
	rc=${PIPESTATUS[0]}
	say "dg-copy-end $1 $(now) rc=$rc"
	return "$rc"
}
# udisks_unmount ID DEV: udisksctl unmount, timed (UNMOUNT_T0, _T1, _OUT)
udisks_unmount() {
	local rc
	UNMOUNT_T0=$(now)
	say "dg-unmount-start $1 $UNMOUNT_T0"
	UNMOUNT_OUT=$(udisksctl unmount --no-user-interaction -b "$2" 2>&1)
	rc=$?
	UNMOUNT_T1=$(now)
	say "dg-unmount-end $1 $UNMOUNT_T1 rc=$rc $UNMOUNT_OUT"
	return "$rc"
}
# udisks_poweroff ID DEV: udisksctl power-off (POWEROFF_OUT)
udisks_poweroff() {
	local rc
	POWEROFF_OUT=$(udisksctl power-off --no-user-interaction -b "$2" 2>&1)
	rc=$?
	say "dg-poweroff-end $1 $(now) rc=$rc $POWEROFF_OUT"
	return "$rc"
}

# root_start: the channel, the boot's facts, PID 1, and the user's
# session ready (what polkit's allow_active needs)
root_start() {
	local i
	mkdir -p "$D"
	stty -F "$CH" raw -echo 115200 2>/dev/null
	chmod 666 "$CH"
	DESK_USER=$(id -nu 1000)
	chown "$DESK_USER" "$D"
	say "dg-boot uptime_s=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r) pid1=$(readlink /proc/1/exe)"
	say "dg-fact boot $(systemd-analyze time 2>/dev/null | head -n 1)"
	[ "$(readlink /proc/1/exe)" = /usr/lib/systemd/systemd ] || [ "$(readlink /proc/1/exe)" = /lib/systemd/systemd ]
	check "systemd-pid1" $? "PID 1 is $(readlink /proc/1/exe)"
	say "dg-fact lsm $(cat /sys/kernel/security/lsm 2>/dev/null)"
	# the user's session: what polkit's allow_active needs
	for i in $(seq 600); do
		[ -e "$D/user-ready" ] && break
		sleep 0.2
	done
	[ -e "$D/user-ready" ]
	check "user-session" $? "the user's side did not start on tty1 within 2 min"
}

# user_start: the user's session, local and active on seat0
user_start() {
	fact "user/lang LANG=${LANG:-unset} LANGUAGE=${LANGUAGE:-unset}"
	say "dg-user session=${XDG_SESSION_ID:-none} $(loginctl show-session "${XDG_SESSION_ID:-}" -p Seat -p Active -p Remote -p Class -p Type -p TTY 2>&1 | tr '\n' ' ')"
	s=$(loginctl show-session "${XDG_SESSION_ID:-}" -p Seat -p Active -p Remote 2>&1 | sort | tr '\n' ' ')
	[ "$s" = "Active=yes Remote=no Seat=seat0 " ]
	check "user/local-active-session" $? "$s"
}
