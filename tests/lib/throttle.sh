# SPDX-License-Identifier: GPL-2.0-or-later
# The write throttle that makes a slow device of a fast one, for the
# real-kernel tests (tests/lib/system.sh), the demo and the qemu benches.
# POSIX sh; busybox's ash too.
#
# cgroup v1: blkio.throttle.write_bps_device in the root blkio cgroup,
# which every process is in. cgroup v2 (most machines now): io.max, which
# the root cgroup does not have, so a cgroup of our own that this shell
# joins, and every process it starts after (dd, sync, wbgovd) with it. The
# kernel charges writeback to the cgroup whose memory holds the dirty pages,
# so that cgroup needs the memory controller as well as io; a controller
# the root did not hand down is handed down for the run and taken back.

SYS_CG=""        # v2: our cgroup's directory
SYS_CG_ADDED=""  # v2: controllers we enabled in the root's subtree_control

# sys_throttle_kind: "v1", "v2" (a cgroup of ours can be made) or "" (none)
sys_throttle_kind() {
	if [ -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
		echo v1
	elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
		grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
		grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		echo v2
	fi
}

# sys_throttle_init: the throttle ready; 1 (and a reason on stderr) without
sys_throttle_init() {
	case "$(sys_throttle_kind)" in
	v1) return 0 ;;
	v2) ;;
	*) echo "no write throttle: neither cgroup v1 blkio nor cgroup v2 with io and memory" >&2
	   return 1 ;;
	esac
	for c in memory io; do
		grep -qw "$c" /sys/fs/cgroup/cgroup.subtree_control && continue
		echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control || {
			echo "cannot enable the $c controller for a cgroup of our own" >&2
			sys_throttle_done
			return 1
		}
		SYS_CG_ADDED="$SYS_CG_ADDED $c"
	done
	SYS_CG=/sys/fs/cgroup/wbgov-test.$$
	mkdir "$SYS_CG" && echo $$ >"$SYS_CG/cgroup.procs" || {
		echo "cannot make or join $SYS_CG" >&2
		sys_throttle_done
		return 1
	}
}

# sys_throttle MAJ:MIN BYTES_PER_S (0 removes the rule)
sys_throttle() {
	if [ -n "$SYS_CG" ]; then
		if [ "$2" = 0 ]; then
			echo "$1 wbps=max" >"$SYS_CG/io.max"
		else
			echo "$1 wbps=$2" >"$SYS_CG/io.max"
		fi
	else
		echo "$1 $2" >/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
	fi
}

# sys_throttle_done: v2: every process of ours back in the root cgroup, our
# cgroup removed, the controllers we enabled taken back. 1 if something
# could not be (said on stderr).
sys_throttle_done() {
	r=0
	if [ -n "$SYS_CG" ] && [ -d "$SYS_CG" ]; then
		while read -r p; do
			echo "$p" >/sys/fs/cgroup/cgroup.procs 2>/dev/null
		done <"$SYS_CG/cgroup.procs"
		rmdir "$SYS_CG" 2>/dev/null || { echo "cannot remove $SYS_CG" >&2; r=1; }
	fi
	SYS_CG=""
	for c in $SYS_CG_ADDED; do
		echo "-$c" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
			{ echo "cannot disable the $c controller we enabled" >&2; r=1; }
	done
	SYS_CG_ADDED=""
	return $r
}
