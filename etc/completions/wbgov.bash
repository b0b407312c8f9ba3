# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for wbgov, wbgovd and wbsim. Installed as
# share/bash-completion/completions/wbgov, with wbgovd and wbsim linked to
# it (bash-completion loads a command's file by its name). Needs nothing
# from bash-completion itself. DEVICE arguments complete to block device
# names (/sys/class/block) and mount points (/proc/self/mountinfo, its
# \040-style escapes decoded), under wbgov's --root when the line gives one.

# The word being completed as the command will see it: backslashes and
# a leading quote taken off ("NO\ NA" -> "NO NA"). In REPLY.
_wbgov_dequote()
{
	local s=$1 out= c i
	case $s in
	\'*) REPLY=${s#\'}; return ;;
	\"*) s=${s#\"} ;;
	esac
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		if [[ $c == \\ ]]; then
			((i++))
			c=${s:i:1}
		fi
		out+=$c
	done
	REPLY=$out
}

# Mount points under root $1 that start with $2, onto COMPREPLY. The kernel
# writes a blank as \040, a tab \011, a newline \012, a backslash \134.
_wbgov_mounts()
{
	local root=${1%/} mp _
	local -A seen=()
	[[ -r $root/proc/self/mountinfo ]] || return
	while read -r _ _ _ _ mp _; do
		mp=${mp//\\040/ }
		mp=${mp//\\011/$'\t'}
		mp=${mp//\\012/$'\n'}
		mp=${mp//\\134/\\}
		# a mount point mounted over is listed twice
		[[ $mp == "$2"* && -z ${seen[$mp]-} ]] && COMPREPLY+=("$mp") && seen[$mp]=1
	done <"$root/proc/self/mountinfo"
}

# Block devices (disks and partitions) under root $1 named $2...; with a
# /dev/ prefix when $2 has one.
_wbgov_blockdevs()
{
	local root=${1%/} want=$2 pre= d n
	if [[ $want == /dev/* ]]; then
		pre=/dev/
		want=${want#/dev/}
	fi
	for d in "$root"/sys/class/block/*; do
		n=${d##*/}
		[[ -e $d && $n == "$want"* ]] && COMPREPLY+=("$pre$n")
	done
}

# A PATH or DEVICE argument: a device name, /dev/NAME, a mount point, or,
# when no mount point matches, any path.
_wbgov_device_arg()
{
	local root=$1 REPLY
	_wbgov_dequote "$2"
	case $REPLY in
	/dev/*) _wbgov_blockdevs "$root" "$REPLY" ;;
	/* | .* | '~'*)
		_wbgov_mounts "$root" "$REPLY"
		((${#COMPREPLY[@]})) || mapfile -t COMPREPLY < <(compgen -f -- "$REPLY")
		# the shell quotes what it inserts ("NO\ NAME") and shows only
		# the last part of each path in a list
		compopt -o filenames 2>/dev/null
		;;
	*) _wbgov_blockdevs "$root" "$REPLY" ;;
	esac
}

_wbgov()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="status watch sync eject cp explain apply restore notify"
	local global="--root --state-dir --config -c --help --version"
	local root=/ cmd= nargs=0 i w
	COMPREPLY=()

	# the command and its arguments so far; --root as given
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root | --state-dir | --config | -c | --interval | --bus | --threshold)
			((i + 1 < COMP_CWORD)) && [[ $w == --root ]] && { _wbgov_dequote "${COMP_WORDS[i+1]}"; root=$REPLY; }
			((i++)) ;;
		--root=*) _wbgov_dequote "${w#--root=}"; root=$REPLY ;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$w; else ((nargs++)); fi ;;
		esac
	done

	case $prev in
	--root | --state-dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--config | -c)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--interval)
		COMPREPLY=($(compgen -W "0.5 1 2 5" -- "$cur"))
		return ;;
	--bus)
		# none: ask no bus (notify follows wbgovd on one)
		if [[ $cmd == notify ]]; then
			COMPREPLY=($(compgen -W "system session" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "system session none" -- "$cur"))
		fi
		return ;;
	--threshold)
		COMPREPLY=($(compgen -W "512K 8M 64M" -- "$cur"))
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$global" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return
	fi

	local opts="--root --state-dir --config -c --help"
	case $cmd in
	status) opts+=" --json --prometheus --bus" ;;
	watch) opts+=" --interval --json --bus" ;;
	eject) opts+=" --no-power-off" ;;
	explain) opts+=" --json --bus" ;;
	apply) opts+=" --once" ;;
	cp) opts+=" --quiet -q --json" ;;
	notify) opts+=" --bus --threshold" ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	sync | eject | explain) ((nargs == 0)) && _wbgov_device_arg "$root" "$cur" ;;
	cp)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null ;;
	esac
}
complete -F _wbgov wbgov

_wbgovd()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	--root | --state-dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--config | -c | --memory | --metrics-file)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--metrics-interval)
		COMPREPLY=($(compgen -W "5 10 15 30 60" -- "$cur"))
		return ;;
	--bus)
		COMPREPLY=($(compgen -W "system session none" -- "$cur"))
		return ;;
	esac
	COMPREPLY=($(compgen -W "--config -c --check -n --root --state-dir --memory --no-memory
		--metrics-file --metrics-interval --bus --verbose -v --help --version" -- "$cur"))
}
complete -F _wbgovd wbgovd

_wbsim()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd= nargs=0 i w list
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--policy | --param | --config | --format | --plot | --series | --sysctl | --knob) ((i++)) ;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$w; else ((nargs++)); fi ;;
		esac
	done
	case $prev in
	--policy)
		# the policies and scenarios are the program's own: `wbsim list`
		list=$("${COMP_WORDS[0]}" list 2>/dev/null | awk '/^policies:/ { p = 1; next } /^[^ ]/ { p = 0 } p { print $1 }')
		COMPREPLY=($(compgen -W "$list" -- "$cur"))
		return ;;
	--param)
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "mem= used= kernel= speed= size= hz= bits= memory= limit= target= floor=
			ceiling= initial= fast_target= global_drain=" -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "table csv json" -- "$cur"))
		return ;;
	--sysctl)
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "vm.dirty_ratio= vm.dirty_background_ratio= vm.dirty_bytes=
			vm.dirty_background_bytes= vm.dirty_expire_centisecs= vm.dirty_writeback_centisecs=" -- "$cur"))
		return ;;
	--knob)
		return ;;
	--config)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--plot)
		mapfile -t COMPREPLY < <(compgen -f -X '!*.png' -- "$cur"; compgen -f -X '!*.svg' -- "$cur"
			compgen -d -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	--series)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return ;;
	esac
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "list run table show" -- "$cur"))
		fi
		return
	fi
	case $cmd in
	run | show)
		if [[ $cur == -* && $cmd == run ]]; then
			COMPREPLY=($(compgen -W "--policy --config --param --sysctl --knob --format --plot --series --help" -- "$cur"))
		elif [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--param --sysctl --knob --help" -- "$cur"))
		elif ((nargs == 0)); then
			# a built-in scenario, or a scenario file
			list=$("${COMP_WORDS[0]}" list 2>/dev/null | awk '/^scenarios:/ { p = 1; next } /^[^ ]/ { p = 0 } p { print $1 }')
			COMPREPLY=($(compgen -W "$list" -- "$cur"))
			if [[ $cur == */* || $cur == .* || ${#COMPREPLY[@]} -eq 0 ]]; then
				mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -X '!*.scenario' -- "$cur"
					compgen -d -- "$cur")
				compopt -o filenames 2>/dev/null
			fi
		fi ;;
	table)
		[[ $cur == -* ]] && COMPREPLY=($(compgen -W "--config --param --format --help" -- "$cur")) ;;
	esac
}
complete -F _wbsim wbsim
