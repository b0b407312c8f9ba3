#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shell completions of etc/completions over the fixture tree (through
# wbgov's --root, which they honour): bash's are registered (complete -p)
# and, called as bash calls them (COMP_WORDS, COMP_CWORD), give the
# commands for `wbgov s`, the options of each command, block device names,
# /dev nodes, and mount points whole — a blank, a tab, a backslash decoded
# from mountinfo's \040, \011, \134 — whether the word so far is escaped
# or quoted; wbsim's scenarios and policies come from `wbsim list`. fish's
# give the same through `complete -C`; zsh's and fish's files parse (zsh
# -n, fish -n).
set -eu
PROG=wbgov
. "$(dirname "$0")/../lib/cli.sh"
C=$(cd "$(dirname "$0")/../../etc/completions" && pwd)
B=$(cd "$(dirname "$W")" && pwd)
FX=$tmp/fx
cli_fixture "$FX"
# two more mount points: a backslash and a tab in one name
printf '42 22 8:17 / /media/a\\134b\\011c rw - vfat /dev/sdb1 rw\n' >>"$FX/proc/self/mountinfo"
for sh in bash zsh fish; do
	command -v $sh >/dev/null || fail "no $sh (sh scripts/deps.sh installs it)"
done

# --- bash: each case is a command line, the last word the one completed;
# what COMPREPLY holds, one per line
cat >"$tmp/cases.bash" <<'EOF'
source "$C/wbgov.bash"
complete -p wbgov wbgovd wbsim
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	local f=_${1##*/}
	$f
	echo "== $*"
	printf '%s\n' "${COMPREPLY[@]}"
}
comp wbgov s
comp wbgov c
comp wbgov notify --bus ''
comp wbgov status --bus ''
comp wbgov cp -
comp wbgov --root "$FX" sync /media/user/N
comp wbgov --root "$FX" sync '/media/user/NO\ N'
comp wbgov --root "$FX" sync '"/media/user/NO N'
comp wbgov --root "$FX" eject --no-power-off /media/user/C
comp wbgov --root "$FX" sync /media/a
comp wbgov --root "$FX" explain sd
comp wbgov --root "$FX" explain /dev/sdb
comp wbgov --root "$FX" explain sdb ''
comp wbgov status --p
comp wbgov explain --
comp wbgovd --metrics-
comp wbgovd --b
comp "$B/wbsim" run ''
comp "$B/wbsim" run usb-iso --policy wb
comp "$B/wbsim" run usb-iso --se
EOF
C=$C FX=$FX B=$B bash --norc --noprofile "$tmp/cases.bash" >"$tmp/bash.out" 2>"$tmp/bash.err" ||
	fail "bash: $(cat "$tmp/bash.err")"
[ -s "$tmp/bash.err" ] && fail "bash said: $(cat "$tmp/bash.err")"
# got CASE: the lines after "== CASE" up to the next case
got() { awk -v c="== $1" '$0 == c { p = 1; next } /^== / { p = 0 } p' "$tmp/bash.out"; }
want() { # want CASE EXPECTED (lines)
	[ "$(got "$1")" = "$2" ] || fail "bash: $1: got [$(got "$1")], want [$2]"
}
for c in wbgov wbgovd wbsim; do
	grep -qx "complete -F _$c $c" "$tmp/bash.out" || fail "complete -p: no $c: $(head -n 3 "$tmp/bash.out")"
done
want "wbgov s" "status
sync"
want "wbgov c" "cp"
want "wbgov notify --bus " "system
session"
want "wbgov status --bus " "system
session
none"
want "wbgov cp -" "--root
--state-dir
--config
-c
--help
--quiet
-q
--json"
want "wbgov --root $FX sync /media/user/N" "/media/user/NO NAME"
want "wbgov --root $FX sync /media/user/NO\\ N" "/media/user/NO NAME"
want "wbgov --root $FX sync \"/media/user/NO N" "/media/user/NO NAME"
want "wbgov --root $FX eject --no-power-off /media/user/C" "/media/user/Café"
want "wbgov --root $FX sync /media/a" "/media/a\\b	c"
want "wbgov --root $FX explain sd" "sda
sdb
sdb1
sdc"
want "wbgov --root $FX explain /dev/sdb" "/dev/sdb
/dev/sdb1"
want "wbgov --root $FX explain sdb " ""
want "wbgov status --p" "--prometheus"
want "wbgov explain --" "--root
--state-dir
--config
--help
--json
--bus"
want "wbgovd --metrics-" "--metrics-file
--metrics-interval"
want "wbgovd --b" "--bus"
"$B/wbsim" list | awk '/^scenarios:/ { p = 1; next } /^[^ ]/ { p = 0 } p { print $1 }' >"$tmp/scenarios"
[ -s "$tmp/scenarios" ] || fail "wbsim list shows no scenario"
want "$B/wbsim run " "$(cat "$tmp/scenarios")"
want "$B/wbsim run usb-iso --policy wb" "wbgov"
want "$B/wbsim run usb-iso --se" "--series"

# --- fish: its own completion engine, over the same tree
fish -n "$C/wbgov.fish" && fish -n "$C/wbgovd.fish" && fish -n "$C/wbsim.fish" || fail "fish -n"
fc() { fish --no-config -c "source '$C/$1.fish'; complete -C '$2'" | cut -f 1; }
[ "$(fc wbgov 'wbgov s')" = "status
sync" ] || fail "fish: wbgov s: $(fc wbgov 'wbgov s')"
[ "$(fc wbgov "wbgov --root $FX sync /media/user/N")" = "/media/user/NO NAME" ] ||
	fail "fish: a mount point with a blank: $(fc wbgov "wbgov --root $FX sync /media/user/N")"
fc wbgov "wbgov --root $FX explain /dev/sd" | grep -qx /dev/sdb1 || fail "fish: /dev/sdb1"
fc wbgov "wbgov status --" | grep -qx -- --prometheus || fail "fish: status --prometheus"
fc wbgov "wbgov n" | grep -qx notify || fail "fish: wbgov notify"
fc wbgov "wbgov cp --" | grep -qx -- --quiet || fail "fish: wbgov cp --quiet"
fc wbgovd "wbgovd --metrics-" | grep -qx -- --metrics-interval || fail "fish: wbgovd --metrics-interval"
[ "$(fc wbsim "$B/wbsim run " | sort)" = "$(sort "$tmp/scenarios")" ] || fail "fish: wbsim's scenarios"

# --- zsh: the file parses, and declares the three commands
zsh -n "$C/_wbgov" || fail "zsh -n _wbgov"
head -n 1 "$C/_wbgov" | grep -qx '#compdef wbgov wbgovd wbsim' || fail "_wbgov: no #compdef line for the three"
echo "$me: ok"
