#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario files (wbsim-scenario(5)): the built-in ones are scenarios/*.scenario
# compiled in (what `show` prints runs the same); `run FILE` from a path with
# blanks; the file's policies; --sysctl and --knob act as the policies'
# writes do; bad input exits 64 with one line naming it and writes nothing.
set -eu
. "$(dirname "$0")/../lib/cli.sh"
cd "$(dirname "$0")/../.."
case $W in /*) ;; *) W=$PWD/$W ;; esac

# every file is a built-in scenario, in `wbsim list`, and the other way round
ok list list
awk '/^scenarios:/ { s = 1; next } /^policies:/ { s = 0 } s && NF { print $1 }' "$tmp/list" | sort >"$tmp/listed"
for f in scenarios/*.scenario; do
	n=${f##*/}
	echo "${n%.scenario}"
done | sort >"$tmp/files"
cmp -s "$tmp/listed" "$tmp/files" ||
	fail "scenarios/*.scenario and wbsim list differ (add a new file to SCENARIOS in the Makefile): $(diff "$tmp/files" "$tmp/listed" | tr '\n' ' ')"

# the compiled-in text is the file's; show's canonical form shows the same
# scenario again, and runs the same
for n in $(cat "$tmp/files"); do
	ok "$n.show" show "$n"
	ok "$n.fshow" show "scenarios/$n.scenario"
	cmp -s "$tmp/$n.show" "$tmp/$n.fshow" || fail "wbsim show $n differs from show scenarios/$n.scenario"
	cp "$tmp/$n.show" "$tmp/$n.scenario"
	ok "$n.again" show "$tmp/$n.scenario"
	cmp -s "$tmp/$n.show" "$tmp/$n.again" || fail "wbsim show of show $n's output differs"
done
for n in usb-iso slc-cliff fast-beside-stick; do
	ok "$n.name.csv" run "$n" --policy linux-64 --policy wbgov --param size=300M --format csv
	ok "$n.file.csv" run "$tmp/$n.scenario" --policy linux-64 --policy wbgov --param size=300M --format csv
	cmp -s "$tmp/$n.name.csv" "$tmp/$n.file.csv" || fail "run $n and run of its shown file differ"
done

# a file on a stick, a blank in its directory and its name; its policies
mkdir -p "$tmp/media/USB STICK"
f="$tmp/media/USB STICK/my stick.scenario"
cat >"$f" <<'EOF'
# a slow stick on a small machine
[scenario]
name = my-stick
summary = 64 MiB to a 3 MB/s stick on a 2 GiB machine
policies = udev-16m linux-64

[machine]
mem = 2G

[device sdc]
bus = usb
removable = yes
bandwidth = 3MB/s

[writer copy]
device = sdc
size = 64M
role = main
EOF
ok mine.csv run "$f" --format csv
got=$(awk -F, 'NR > 1 { printf "%s%s/%s", sep, $1, $2; sep = " " }' "$tmp/mine.csv")
[ "$got" = "my-stick/udev-16m my-stick/linux-64" ] || fail "run FILE ran '$got', want the file's policies in order"
ok mine1.csv run "$f" --policy wbgov --format csv
got=$(awk -F, 'NR > 1 { printf "%s/%s", $1, $2 }' "$tmp/mine1.csv")
[ "$got" = "my-stick/wbgov" ] || fail "run FILE --policy wbgov ran '$got'"
# a name without '/': a file in the working directory when it ends in .scenario
(cd "$tmp/media/USB STICK" && "$W" run "my stick.scenario" --policy linux-64 --format csv >"$tmp/rel.csv") ||
	fail "run NAME.scenario from its directory failed"
grep -q '^my-stick,linux-64,' "$tmp/rel.csv" || fail "run NAME.scenario did not run the file"

# --sysctl and --knob: the same writes as the policies make, the same run
cols() { awk -F, 'NR > 1 { $2 = ""; print }' "$1"; }
ok bytes.csv run usb-iso --policy bytes --param size=300M --format csv
ok sysctl.csv run usb-iso --policy linux-64 --param size=300M --format csv \
	--sysctl vm.dirty_background_bytes=16M --sysctl vm.dirty_bytes=48M
[ "$(cols "$tmp/bytes.csv")" = "$(cols "$tmp/sysctl.csv")" ] ||
	fail "--sysctl vm.dirty_*bytes under linux-64 differs from the bytes policy"
ok udev.csv run usb-iso --policy udev-16m --param size=300M --format csv
ok knob.csv run usb-iso --policy linux-64 --param size=300M --format csv \
	--knob sdb.strict_limit=1 --knob sdb.max_bytes=16M
[ "$(cols "$tmp/udev.csv")" = "$(cols "$tmp/knob.csv")" ] ||
	fail "--knob sdb.strict_limit/max_bytes under linux-64 differs from the udev-16m policy"
[ "$(cols "$tmp/udev.csv")" != "$(cols "$tmp/bytes.csv")" ] || fail "the comparisons above cannot fail"
# ... and show puts them after the file's own
ok shown show "$f" --knob sdc.max_bytes=8M --sysctl vm.dirty_ratio=10
tail -n 5 "$tmp/shown" >"$tmp/shown.tail"
printf '[knob]\nsdc.max_bytes = 8M\n\n[sysctl]\nvm.dirty_ratio = 10\n' | cmp -s - "$tmp/shown.tail" ||
	fail "show --knob --sysctl: $(cat "$tmp/shown.tail")"

# bad input: 64, one line naming it, nothing on stdout, no plot written
nfail=0
bad() { # WORD ARG...
	word=$1
	shift
	rc=0
	"$W" "$@" --plot "$tmp/bad.svg" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	if [ "$rc" -ne 64 ] || [ -s "$tmp/out" ] || [ "$(awk 'END { print NR }' "$tmp/err")" -ne 1 ] ||
		! grep -qF -e "$word" "$tmp/err" || [ -e "$tmp/bad.svg" ]; then
		nfail=$((nfail + 1))
		printf '%s: FAIL: wbsim %s: exit %s, want 64 and one line naming %s; stderr: %s\n' \
			"$me" "$*" "$rc" "$word" "$(head -n 2 "$tmp/err")" >&2
	fi
}
bad "--knob sdx.max_bytes=16M: no device sdx in usb-iso (sdb, sda)" run usb-iso --knob sdx.max_bytes=16M
bad 'unknown bdi attribute "colour"' run usb-iso --knob sdb.colour=1
bad 'unknown sysctl "vm.swappiness"' run usb-iso --sysctl vm.swappiness=10
bad "--sysctl vm.dirty_ratio=lots: want a percentage from 0 to 100" run usb-iso --sysctl vm.dirty_ratio=lots
bad "--sysctl goes with run or show" table --sysctl vm.dirty_ratio=10
bad "$tmp/none.scenario: No such file or directory" run "$tmp/none.scenario"
bad "unknown scenario" run nosuch
printf '[machine]\nmem = 16G\nhz = 99\n' >"$tmp/hz.scenario"
bad "$tmp/hz.scenario:3: hz = \"99\": want 100, 250, 300 or 1000" run "$tmp/hz.scenario"
printf '[device sdb]\nbandwidth = 5MB/s\n[writer w]\ndevice = sdc\nsize = 1G\nrole = main\n' >"$tmp/dev.scenario"
bad "$tmp/dev.scenario:4: device = \"sdc\": no [device sdc] in the file" run "$tmp/dev.scenario"
# a knob the kernel of the file has not: the run fails, naming it
sed 's/^mem = 2G$/mem = 2G\nkernel = 6.1/' "$f" >"$tmp/k61.scenario"
printf '\n[knob]\nsdc.strict_limit = 1\n' >>"$tmp/k61.scenario"
bad "my-stick under linux-64: sdc.strict_limit = 1: the kernel refused it (No such file or directory): 6.1 has no strict_limit" \
	run "$tmp/k61.scenario" --policy linux-64
bad "sdc.max_bytes = 16M: the kernel refused it" run "$f" --policy linux-64 --knob sdc.strict_limit=0 \
	--sysctl vm.dirty_bytes=8M --knob sdc.max_bytes=16M
[ "$nfail" -eq 0 ] || fail "$nfail bad-input cases failed (see above)"
# the same knob on 6.12 runs
sed 's/^kernel = 6.1$/kernel = 6.12/' "$tmp/k61.scenario" >"$tmp/k612.scenario"
ok k612.csv run "$tmp/k612.scenario" --policy linux-64 --format csv
# wbgov on a 6.1 machine takes the global dirty_bytes route, as wbgovd does
# there: the sync after 256 MiB to the 3 MB/s stick is short, not 85 s
sed 's/^kernel = 6.1$/kernel = 6.1/; /^\[knob\]/,$d; s/^size = 64M$/size = 256M/' "$tmp/k61.scenario" >"$tmp/k61g.scenario"
ok k61g.csv run "$tmp/k61g.scenario" --policy linux-64 --policy wbgov --format csv
sync_of() { awk -F, -v p="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sync_after_s") c = i }
	NR > 1 && $2 == p { print $c }' "$tmp/k61g.csv"; }
awk -v d="$(sync_of linux-64)" -v g="$(sync_of wbgov)" 'BEGIN { exit !(d > 60 && g < 5) }' ||
	fail "6.1: sync after linux-64 $(sync_of linux-64) s, wbgov $(sync_of wbgov) s; want > 60 and < 5"
# queue = 0 (no bound) is a value, shown again as such
printf '[device sdb]\nbandwidth = 5MB/s\nqueue = 0\nbio = 1M\n[writer w]\ndevice = sdb\nsize = 8M\nrole = main\n' >"$tmp/q0.scenario"
ok q0.show show "$tmp/q0.scenario"
grep -qx 'queue = 0' "$tmp/q0.show" || fail "show of queue = 0: $(grep queue "$tmp/q0.show")"
# a device's latency: shown, and an fsync-loop alone on a fast device
# with 2 ms per request waits 2 ms, not the 41 us the bytes take
printf '[device sdb]\nbandwidth = 5MB/s\n[device sdc]\nbandwidth = 100MB/s\nlatency = 2ms\n[writer w]\ndevice = sdb\nsize = 8M\nrole = main\n[writer f]\nkind = fsync-loop\ndevice = sdc\nsize = 4K\n' >"$tmp/lat.scenario"
ok lat.show show "$tmp/lat.scenario"
grep -qx 'latency = 2ms' "$tmp/lat.show" || fail "show of latency = 2ms: $(grep latency "$tmp/lat.show")"
ok lat.csv run "$tmp/lat.scenario" --policy linux-64 --format csv
p99=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fsync_p99_ms") c = i } NR == 2 { print $c }' "$tmp/lat.csv")
awk -v p="$p99" 'BEGIN { exit !(p >= 2 && p < 3) }' || fail "latency = 2ms: fsync p99 $p99 ms; want 2 to 3"
echo "$me: ok"
