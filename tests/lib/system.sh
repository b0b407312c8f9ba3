# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the real-kernel tests (tests/system/*.sh) and bench/real-usb:
# throttled loop devices, and a snapshot of every writeback knob that is
# put back on exit, whatever happens. Source it, then call sys_init.
# POSIX sh. Needs root.

# Loops and mounts are recorded in files, not variables: the helpers that
# make them run in $(command substitution) subshells.
SYS_TMP=""
SYS_PIDS=""
. tests/lib/throttle.sh
. tests/lib/proc.sh

sys_die() {
	echo "$0: $*" >&2
	exit 1
}

# Root, or skip (exit 77) — except under CI=true or make check-system
# (WBGOV_SYSTEM=yes), where these tests must run.
sys_need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		if [ "${CI:-}" = true ] || [ "${WBGOV_SYSTEM:-}" = yes ]; then
			sys_die "needs root (CI=true or check-system: not skipping)"
		fi
		echo "$0: skipped: needs root" >&2
		exit 77
	fi
	[ -n "$(sys_throttle_kind)" ] ||
		sys_die "no write throttle (cgroup v1 blkio, or cgroup v2 with io and memory)"
}

# A new bdi's knobs as the kernel makes them (strict_limit, max_ratio_fine,
# min_ratio_fine): what a loop device the test made was found with.
SYS_NEW_BDI="0 1000000 0"

# Every bdi's knobs and the vm.dirty_* sysctls, one per line.
sys_snapshot() {
	for d in /sys/class/bdi/*; do
		[ -e "$d/strict_limit" ] || continue
		printf 'bdi %s %s %s %s\n' "${d##*/}" "$(cat "$d/strict_limit")" \
			"$(cat "$d/max_ratio_fine")" "$(cat "$d/min_ratio_fine")"
	done
	for k in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes \
		dirty_expire_centisecs dirty_writeback_centisecs; do
		printf 'vm %s %s\n' "$k" "$(cat /proc/sys/vm/$k)"
	done
}

# sys_as_found SNAPSHOT: every knob in SNAPSHOT (a later `sys_snapshot`) is
# as the test found it; a bdi the test made (a loop device) was found with
# the kernel's defaults for a new one. Prints what differs.
sys_as_found() {
	awk -v new="$SYS_NEW_BDI" 'NR == FNR { was[$1 " " $2] = $0; next }
	     { k = $1 " " $2; w = (k in was) ? was[k] : ($1 == "bdi" ? "bdi " $2 " " new : "")
	       if ($0 != w) { print "now: " $0 "  was: " (w == "" ? "(none)" : w); bad = 1 }
	       seen[k] = 1 }
	     END { for (k in was) if (!(k in seen) && k !~ /^bdi /) { print "gone: " was[k]; bad = 1 }
	           exit bad }' "$SYS_TMP/snapshot" "$1"
}

# Put back what `sys_snapshot` saw (writing only what differs); a bdi made
# since (a loop device the test made) gets the kernel's defaults for a new
# one, as `sys_as_found` expects.
sys_put_back() {
	snap=$1
	for f in /sys/class/bdi/*; do
		[ -e "$f/strict_limit" ] || continue
		grep -q "^bdi ${f##*/} " "$snap" || echo "bdi ${f##*/} $SYS_NEW_BDI"
	done | cat "$snap" - | while read -r kind a b c d; do
		if [ "$kind" = bdi ] && [ -d "/sys/class/bdi/$a" ]; then
			f=/sys/class/bdi/$a
			[ "$(cat "$f/max_ratio_fine")" = "$c" ] || echo "$c" >"$f/max_ratio_fine" 2>/dev/null || true
			[ "$(cat "$f/min_ratio_fine")" = "$d" ] || echo "$d" >"$f/min_ratio_fine" 2>/dev/null || true
			[ "$(cat "$f/strict_limit")" = "$b" ] || echo "$b" >"$f/strict_limit" 2>/dev/null || true
		fi
	done
	# the *_bytes of a pair reads 0 in ratio mode and cannot be written 0:
	# write the member of each pair that was in force
	bb=$(awk '$1 == "vm" && $2 == "dirty_background_bytes" {print $3}' "$snap")
	br=$(awk '$1 == "vm" && $2 == "dirty_background_ratio" {print $3}' "$snap")
	db=$(awk '$1 == "vm" && $2 == "dirty_bytes" {print $3}' "$snap")
	dr=$(awk '$1 == "vm" && $2 == "dirty_ratio" {print $3}' "$snap")
	if [ "$bb" != 0 ]; then echo "$bb" >/proc/sys/vm/dirty_background_bytes
	else echo "$br" >/proc/sys/vm/dirty_background_ratio; fi
	if [ "$db" != 0 ]; then echo "$db" >/proc/sys/vm/dirty_bytes
	else echo "$dr" >/proc/sys/vm/dirty_ratio; fi
	while read -r kind a b _; do
		case "$kind:$a" in
		vm:dirty_expire_centisecs | vm:dirty_writeback_centisecs)
			[ "$(cat /proc/sys/vm/"$a")" = "$b" ] || echo "$b" >/proc/sys/vm/"$a" ;;
		esac
	done <"$snap"
}

sys_cleanup() {
	rc=$?
	set +e
	# our daemons give their knobs back on TERM; wait for them (a zombie
	# still answers kill -0), KILL only one that hangs
	for p in $SYS_PIDS; do kill -TERM "$p" 2>/dev/null; done
	keep=$rc
	for p in $SYS_PIDS; do reap "$p" 10 2>/dev/null; done
	rc=$keep
	# one mount point a line (some hold blanks)
	while IFS= read -r m; do
		umount "$m" 2>/dev/null || { sleep 1; umount "$m" 2>/dev/null; } || umount -l "$m" 2>/dev/null
	done <"$SYS_TMP/mounts" 2>/dev/null
	# newest first: a loop stacked on another goes before it
	for l in $(tac "$SYS_TMP/loops" 2>/dev/null); do
		if [ -e "/sys/block/${l##*/}/dev" ]; then
			sys_throttle "$(cat "/sys/block/${l##*/}/dev")" 0 2>/dev/null
		fi
		losetup -d "$l" 2>/dev/null
		sys_loop_ctl remove "${l#/dev/loop}" || rc=1
	done
	if [ -n "$SYS_TMP" ] && [ -f "$SYS_TMP/snapshot" ]; then
		sys_put_back "$SYS_TMP/snapshot"
		sys_snapshot >"$SYS_TMP/snapshot.after"
		if ! cmp -s "$SYS_TMP/snapshot" "$SYS_TMP/snapshot.after"; then
			echo "$0: the knobs differ from before the test:" >&2
			diff "$SYS_TMP/snapshot" "$SYS_TMP/snapshot.after" >&2
			rc=1
		fi
	fi
	sys_throttle_done || rc=1
	if [ -f "$SYS_TMP/debugfs" ]; then
		umount /sys/kernel/debug 2>/dev/null || { echo "$0: could not unmount debugfs" >&2; rc=1; }
	fi
	if grep -q "$SYS_TMP" /proc/self/mountinfo 2>/dev/null; then
		echo "$0: something is still mounted under $SYS_TMP; left in place" >&2
		rc=1
	elif [ -n "$SYS_TMP" ]; then
		rm -rf "$SYS_TMP"
	fi
	exit $rc
}

sys_init() {
	sys_need_root
	# one at a time on a machine: each snapshots every knob and puts them
	# all back, and a second run's loops and daemons would disturb the
	# first's figures (the lock goes with this process)
	exec 9>/run/wbgov-system-tests.lock
	flock -w 3600 9 || sys_die "another real-kernel test held /run/wbgov-system-tests.lock for an hour"
	SYS_TMP=$(mktemp -d /tmp/wbgov-test.XXXXXX)
	: >"$SYS_TMP/loops"
	: >"$SYS_TMP/mounts"
	sys_snapshot >"$SYS_TMP/snapshot"
	trap sys_cleanup EXIT
	trap 'exit 130' INT TERM
	sys_throttle_init || sys_die "no write throttle to make slow devices with"
}

# sys_loop_ctl add|remove [INDEX]: a loop device made for the test at the
# first free index from 32 (printed), or removed, through /dev/loop-control.
# A loop device detached and attached again keeps its bdi, and with it the
# kernel's estimates of the last device it stood for (a loop throttled to
# 0.5 MB/s and then to 5 MB/s starts with the kernel pacing its writers at
# 0.5 MB/s and a write bandwidth estimate that takes seconds to catch up): a
# device made afresh has a new bdi, as a stick plugged in has.
sys_loop_ctl() {
	python3 - "$@" <<'PY'
import errno, fcntl, os, sys, time
LOOP_CTL_ADD, LOOP_CTL_REMOVE = 0x4C80, 0x4C81
fd = os.open("/dev/loop-control", os.O_RDWR)
if sys.argv[1] == "add":
    for n in range(32, 1 << 20):
        try:
            fcntl.ioctl(fd, LOOP_CTL_ADD, n)
        except OSError as e:
            if e.errno == errno.EEXIST:
                continue
            sys.exit("loop-control: add: %s" % e.strerror)
        dev = "/dev/loop%d" % n
        for _ in range(100):
            if os.path.exists(dev):
                break
            time.sleep(0.01)
        print(dev)
        break
else:
    n = int(sys.argv[2])
    for _ in range(50):
        try:
            fcntl.ioctl(fd, LOOP_CTL_REMOVE, n)
            break
        except OSError as e:
            if e.errno == errno.ENODEV or e.errno == errno.ENXIO:
                break
            if e.errno != errno.EBUSY:
                sys.exit("loop-control: remove loop%d: %s" % (n, e.strerror))
            time.sleep(0.1)
    else:
        sys.exit("loop-control: loop%d stays busy" % n)
PY
}

# sys_loop_attach FILE -> prints /dev/loopN: a loop device made afresh over
# FILE (detached and removed at exit)
sys_loop_attach() {
	l=$(sys_loop_ctl add) || sys_die "cannot make a loop device"
	echo "$l" >>"$SYS_TMP/loops"
	losetup "$l" "$1" || sys_die "losetup $l $1 failed"
	echo "$l"
}

# sys_loop SIZE_MIB -> prints /dev/loopN (file under $SYS_TMP, or $2 dir)
sys_loop() {
	dir=${2:-$SYS_TMP}
	img=$(mktemp "$dir/loop.XXXXXX")
	truncate -s "${1}M" "$img"
	sys_loop_attach "$img"
}

# Mount debugfs at /sys/kernel/debug for the test, where the system has not
# (systemd does at boot; this machine does not): wbgovd then sees each bdi's
# own writeback, as on a desktop. Unmounted at exit if the test mounted it.
sys_debugfs() {
	grep -q " /sys/kernel/debug debugfs " /proc/mounts && return 0
	mount -t debugfs debugfs /sys/kernel/debug || sys_die "cannot mount debugfs"
	: >"$SYS_TMP/debugfs"
}

# Unmount debugfs if the test mounted it (to try the path without it).
sys_no_debugfs() {
	[ -f "$SYS_TMP/debugfs" ] || return 0
	umount /sys/kernel/debug && rm -f "$SYS_TMP/debugfs"
}

# sys_without_debugfs COMMAND...: the rest of the run in a mount namespace
# of its own with no debugfs at /sys/kernel/debug, as on a system without
# systemd. Call it first, with the command that runs the script again
# (`sys_without_debugfs sh "$0" "$@"`): the first call runs that command in
# the namespace and never returns; there, it unmounts debugfs if the
# machine had it. The machine's own mount stays as it was for everyone
# else, and nothing is to be put back: the namespace's mounts go with its
# last process, whatever happens (the test's own are unmounted as usual).
sys_without_debugfs() {
	if [ -z "${SYS_OWN_MOUNTS:-}" ]; then
		[ "$(id -u)" -eq 0 ] || sys_need_root
		SYS_OWN_MOUNTS=1 exec unshare --mount --propagation private "$@"
	fi
	if grep -q " /sys/kernel/debug " /proc/self/mountinfo; then
		umount -R /sys/kernel/debug || sys_die "cannot unmount debugfs in the test's namespace"
	fi
	! grep -q " /sys/kernel/debug " /proc/self/mountinfo || sys_die "debugfs still mounted"
}

sys_devnum() { cat "/sys/block/${1##*/}/dev"; }

# sys_mkfs_mount DEV FSTYPE -> prints the mount point
sys_mkfs_mount() {
	m=$(mktemp -d "$SYS_TMP/mnt.XXXXXX")
	case "$2" in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1 && mount "$1" "$m" ;;
	btrfs) mkfs.btrfs -q -f "$1" >/dev/null 2>&1 && mount "$1" "$m" ;;
	exfat) mkfs.exfat "$1" >/dev/null 2>&1 && mount.exfat-fuse "$1" "$m" >/dev/null 2>&1 ;;
	*) sys_die "unknown fs $2" ;;
	esac || sys_die "cannot make and mount $2 on $1"
	# unmounted newest first
	{ echo "$m"; cat "$SYS_TMP/mounts"; } >"$SYS_TMP/mounts.new"
	mv "$SYS_TMP/mounts.new" "$SYS_TMP/mounts"
	echo "$m"
}

# sys_bind_mount DIR MOUNTPOINT: DIR mounted again at MOUNTPOINT (made, and
# unmounted at exit), which may hold blanks
sys_bind_mount() {
	mkdir -p "$2" && mount --bind "$1" "$2" || sys_die "cannot bind-mount $1 at $2"
	{ printf '%s\n' "$2"; cat "$SYS_TMP/mounts"; } >"$SYS_TMP/mounts.new"
	mv "$SYS_TMP/mounts.new" "$SYS_TMP/mounts"
}

# The bdis of a mounted filesystem: the disk's, and btrfs-N or MAJ:MIN-fuseblk.
sys_fs_bdi() {
	dev=$(sys_devnum "$1")
	case "$2" in
	btrfs)
		for f in /sys/fs/btrfs/*/devices/"${1##*/}"; do
			[ -e "$f" ] && basename "$(readlink -f "${f%/devices/*}/bdi")"
		done ;;
	exfat) echo "$dev-fuseblk" ;;
	*) echo "$dev" ;;
	esac
}

# sys_wait_for CMD... : true within 2 s, polling every 50 ms
sys_wait_for() {
	i=0
	while [ $i -lt 40 ]; do
		"$@" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# sys_max_bytes_near BDI BYTES: the bdi's max_bytes is BYTES as the daemon
# holds it. The kernel keeps the cap as a share of the global threshold and
# reads it back from the threshold of the moment, so it drifts with free
# memory; the daemon re-applies beyond 1/64 and a page (close_enough()).
sys_max_bytes_near() {
	awk -v h="$(cat "/sys/class/bdi/$1/max_bytes")" -v w="$2" \
		'BEGIN { d = h - w; if (d < 0) d = -d; exit !(d <= int(w / 64) + 4096) }'
}

# now in seconds with decimals
sys_now() { awk '{print $1}' /proc/uptime; }

# sys_timed_copy DIR MIB: MIB in 128 KiB writes (cp's size) to DIR/f, then
# sync; SYS_T0, SYS_T1, SYS_T2: its start, dd's return, sync's
sys_timed_copy() {
	SYS_T0=$(sys_now)
	dd if=/dev/zero of="$1/f" bs=128K count=$(($2 * 8)) status=none
	SYS_T1=$(sys_now)
	sync
	SYS_T2=$(sys_now)
}

# sys_copy_ok TEST LABEL SPEED MIB: sys_timed_copy's figures, said in one
# line; true when sync took at most 1.2 s and dd + sync at most 1.10 x
# size/speed
sys_copy_ok() {
	awk -v t="$1" -v l="$2" -v s="$3" -v m="$4" -v a="$SYS_T0" -v b="$SYS_T1" -v c="$SYS_T2" 'BEGIN {
		ideal = m * 1048576 / s
		printf "%s: %s: %d MiB at %.1f MB/s: dd %.2f s, sync %.2f s, dd+sync %.3f x size/speed\n",
			t, l, m, s / 1e6, b - a, c - b, (c - a) / ideal
		exit !(c - b <= 1.2 && (c - a) / ideal <= 1.10) }'
}

# sys_tmpfs SIZE_MIB -> a tmpfs mounted under $SYS_TMP (unmounted at exit),
# for backing files: a loop over one is neither rotational nor removable,
# and as fast as memory when unthrottled
sys_tmpfs() {
	t=$(mktemp -d "$SYS_TMP/tmpfs.XXXXXX")
	mount -t tmpfs -o size="$1"m tmpfs "$t" || sys_die "cannot mount a tmpfs"
	{ echo "$t"; cat "$SYS_TMP/mounts"; } >"$SYS_TMP/mounts.new"
	mv "$SYS_TMP/mounts.new" "$SYS_TMP/mounts"
	echo "$t"
}

# sys_slow_dev DIR|FILE SPEED -> "loop devnum mountpoint": ext4 on a loop
# over a new file in DIR (SIZE_MIB, default 300) or over FILE, throttled
sys_slow_dev() {
	if [ -f "$1" ]; then
		l=$(sys_loop_attach "$1")
	else
		l=$(sys_loop "${SIZE_MIB:-300}" "$1")
	fi
	sys_ext4_throttled "$l" "$(sys_devnum "$l")" "$2"
}

# sys_ext4_throttled LOOP THROTTLED-DEVNUM SPEED -> "loop devnum mountpoint":
# ext4 made and mounted on LOOP (fast: the kernel must not see that), then
# the throttle on THROTTLED-DEVNUM
sys_ext4_throttled() {
	m=$(sys_mkfs_mount "$1" ext4)
	sync
	sys_throttle "$2" "$3"
	echo "$1 $(sys_devnum "$1") $m"
}

# sys_stick_dev DIR SPEED -> "loop devnum mountpoint lower lower-devnum":
# as sys_slow_dev, but the throttle is on a second loop under the first,
# which the first reaches with direct I/O. blk-throttle holds a bio whole,
# before the queue splits it: ext4 on a throttled loop sees its writeback
# complete in lumps of up to 8 MiB (every 2.1 s at 4 MB/s), which no stick
# does. Stacked so, the loop's requests (1280 KiB at most) complete one by
# one as the lower loop's throttle lets them through, as on a USB stick.
# sys_throttle the lower devnum to change its speed.
sys_stick_dev() {
	lo=$(sys_loop "${SIZE_MIB:-300}" "$1")
	lodn=$(sys_devnum "$lo")
	l=$(sys_loop_ctl add) || sys_die "cannot make a loop device"
	echo "$l" >>"$SYS_TMP/loops"
	losetup --direct-io=on "$l" "$lo" || sys_die "losetup --direct-io=on $l $lo failed"
	echo "$(sys_ext4_throttled "$l" "$lodn" "$2") $lo $lodn"
}

# sys_stick_dev_done LOOP DEVNUM MOUNT LOWER LOWER-DEVNUM
sys_stick_dev_done() {
	umount "$3"
	sed -i "\|^$3\$|d" "$SYS_TMP/mounts"
	losetup -d "$1"
	sys_loop_ctl remove "${1#/dev/loop}" || sys_die "cannot remove $1"
	sys_slow_dev_done "$4" "$5" ""
}

# sys_slow_dev_done LOOP DEVNUM MOUNT (no MOUNT: nothing mounted)
sys_slow_dev_done() {
	if [ -n "$3" ]; then
		umount "$3"
		sed -i "\|^$3\$|d" "$SYS_TMP/mounts"
	fi
	sys_throttle "$2" 0
	f=$(losetup -nO BACK-FILE "$1" 2>/dev/null) || f=
	losetup -d "$1"
	# gone, as a stick pulled out: its bdi too (a run makes dozens)
	sys_loop_ctl remove "${1#/dev/loop}" || sys_die "cannot remove $1"
	# a backing file sys_loop made goes too: in a tmpfs it holds memory,
	# and the next device may need the room
	case "${f##*/}" in loop.*) rm -f "$f" ;; esac
}

# sys_paced_write FILE MIB BYTES_PER_S: write at that pace, catching up when
# held back (a copy from a source of that speed)
sys_paced_write() {
	python3 -c 'import os, sys, time
f = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
buf, total, rate = bytes(131072), int(sys.argv[2]) << 20, float(sys.argv[3])
t0, done = time.monotonic(), 0
while done < total:
    due = t0 + done / rate
    now = time.monotonic()
    if due > now:
        time.sleep(due - now)
    done += os.write(f, buf)
os.close(f)' "$@"
}
