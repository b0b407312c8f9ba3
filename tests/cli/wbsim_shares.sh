#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A share in wbsim (share = nfs, cifs or fuse in a [device], wbsim-scenario(5)),
# scenarios/shares/*.scenario: an NFS or SMB copy whose close() flushes
# stalls for minutes under the kernel's defaults and for under a second
# under wbgov, whose meter counts a share by what its bdi wrote (no busy
# time, nothing in flight, as sys/shares gives it); a FUSE bdi starts
# with the kernel's strict_limit and 1 % max_ratio, which bound it already;
# show prints a share as it reads one; a share with a disk's keys is an
# error naming the device.
set -eu
. "$(dirname "$0")/../lib/cli.sh"
cd "$(dirname "$0")/../.."
case $W in /*) ;; *) W=$PWD/$W ;; esac

# field POLICY COLUMN FILE: a run's figure from its CSV
field() {
	awk -F, -v p="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == p { print $col[c] }' "$3"
}
# atmost A B / atleast A B: numbers compared
atmost() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

for n in nfs-wifi smb-vpn rclone-wbcache; do
	f=scenarios/shares/$n.scenario
	ok "$n.csv" run "$f" --policy linux-64 --policy wbgov --format csv
	def=$(field linux-64 sync_after_s "$tmp/$n.csv")
	gov=$(field wbgov sync_after_s "$tmp/$n.csv")
	peak=$(field wbgov peak_dirty_mib "$tmp/$n.csv")
	echo "$me: $n: after the last write $def s under the defaults, $gov s under wbgov (peak $peak MiB)"
	atmost "$gov" 1.0 || fail "$n: wbgov's time after the last write is $gov s, want 1.0 at most"
	case $n in
	rclone-wbcache)
		# the kernel's FUSE defaults bound it already: 1 % of the
		# dirty threshold, strictly
		atmost "$def" 5 || fail "$n: the defaults' FUSE bdi took $def s after the copy: no strict 1 %?"
		;;
	*)
		# close() writes it all: minutes
		atmost 100 "$def" || fail "$n: the defaults took $def s after the copy, want the stall (100 s or more)"
		;;
	esac
	# at most 2 s of the link dirty (5 MB/s, 10 MB/s), or the start cap
	# before the share is measured (4 MiB: 2 s at 2 MB/s), and a page
	# table's worth of slack
	case $n in nfs-wifi) lim=10 ;; smb-vpn) lim=4.5 ;; rclone-wbcache) lim=20 ;; esac
	atmost "$peak" "$lim" || fail "$n: wbgov let $peak MiB be dirty, want $lim MiB at most"
	# show prints the share as the file gives it, and reads its own output
	ok "$n.show" show "$f"
	grep -q "^share = " "$tmp/$n.show" || fail "$n: show has no share line"
	awk '/^\[/ { s = 0; b = 0 } /^share = / { s = 1 } /^bus = / { b = 1 } s && b { bad = 1 }
		END { exit !bad }' "$tmp/$n.show" && fail "$n: show gives a share a bus"
	cp "$tmp/$n.show" "$tmp/$n.scenario"
	ok "$n.again" show "$tmp/$n.scenario"
	cmp -s "$tmp/$n.show" "$tmp/$n.again" || fail "$n: show of show's output differs"
done

# bad input: one line naming it, exit 64
bad() { # WANT TEXT
	printf '%s' "$2" >"$tmp/bad.scenario"
	rc=0
	"$W" run "$tmp/bad.scenario" >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
	[ "$rc" = 64 ] || fail "exit $rc for $1, want 64"
	grep -qF "$1" "$tmp/bad.err" || fail "no \"$1\" in: $(cat "$tmp/bad.err")"
	[ ! -s "$tmp/bad.out" ] || fail "output for bad input: $(head -n 2 "$tmp/bad.out")"
}
w='[writer w]
device = x
size = 1M
role = main
'
bad 'share = "afs": want none, nfs, cifs or fuse' "[device x]
share = afs
bandwidth = 1MB/s
$w"
bad '[device x]: a share has no disk' "[device x]
share = nfs
bus = usb
bandwidth = 1MB/s
$w"
bad '[device x]: a share has no disk' "[device x]
fs = vfat
share = cifs
bandwidth = 1MB/s
$w"
echo "$me: ok"
