# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for wbgov (share/fish/vendor_completions.d/wbgov.fish).
# DEVICE arguments complete to block device names (/sys/class/block) and
# mount points (/proc/self/mountinfo, its \040-style escapes decoded),
# under --root when the line gives one.

# wbgov's --root on the line so far, else /
function __wbgov_root
    set -l words (commandline -opc)
    set -l root /
    for i in (seq (count $words))
        switch $words[$i]
            case --root
                set -q words[(math $i + 1)]; and set root $words[(math $i + 1)]
            case '--root=*'
                set root (string replace -- --root= '' $words[$i])
        end
    end
    string trim -r -c / -- $root
end

# the command given (the first word after the options and their values)
function __wbgov_command
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        switch $words[1]
            case --root --state-dir --config -c --interval
                set -e words[1]
            case '-*'
            case '*'
                echo $words[1]
                return 0
        end
        set -e words[1]
    end
    return 1
end

function __wbgov_no_command
    not __wbgov_command >/dev/null
end

function __wbgov_using
    set -l c (__wbgov_command)
    test "$c" = $argv[1]
end

# block devices, as sdb and /dev/sdb, then mount points (the kernel writes
# a blank as \040, a tab \011, a newline \012, a backslash \134)
function __wbgov_devices
    set -l root (__wbgov_root)
    for d in $root/sys/class/block/*
        set -l n (string replace -r '.*/' '' -- $d)
        printf '%s\tblock device\n' $n /dev/$n
    end
    test -r $root/proc/self/mountinfo; or return
    while read -l line
        set -l mp (string split ' ' -- $line)[5]
        set mp (string replace -a '\\040' ' ' -- $mp | string replace -a '\\011' \t | string replace -a '\\012' \n | string replace -a '\\134' '\\')
        printf '%s\tmount point\n' $mp
    end <$root/proc/self/mountinfo | sort -u
end

set -l commands status watch sync eject cp explain apply restore notify
complete -c wbgov -f
complete -c wbgov -n __wbgov_no_command -a status -d 'each device: bandwidth, limit, dirty data'
complete -c wbgov -n __wbgov_no_command -a watch -d 'status again every second'
complete -c wbgov -n __wbgov_no_command -a sync -d 'write out dirty data, with progress'
complete -c wbgov -n __wbgov_no_command -a eject -d 'sync, unmount and power off a disk'
complete -c wbgov -n __wbgov_no_command -a cp -d 'copy, returning when the data is on the device'
complete -c wbgov -n __wbgov_no_command -a notify -d 'desktop notifications of data still to write'
complete -c wbgov -n __wbgov_no_command -a explain -d 'why a device has the limit it has'
complete -c wbgov -n __wbgov_no_command -a apply -d 'apply the limits once, without wbgovd'
complete -c wbgov -n __wbgov_no_command -a restore -d 'give back every recorded knob'
complete -c wbgov -l root -r -a '(__fish_complete_directories)' -d 'find /proc and /sys under DIR'
complete -c wbgov -l state-dir -r -a '(__fish_complete_directories)' -d "wbgovd's state directory"
complete -c wbgov -s c -l config -r -F -d 'configuration file'
complete -c wbgov -s h -l help -d 'usage'
complete -c wbgov -n __wbgov_no_command -s V -l version -d 'version'
complete -c wbgov -n '__wbgov_using status; or __wbgov_using watch; or __wbgov_using explain' -l json -d 'JSON output'
complete -c wbgov -n '__wbgov_using status' -l prometheus -d "Prometheus's text format"
complete -c wbgov -n '__wbgov_using watch' -l interval -x -a '0.5 1 2 5' -d 'seconds between tables'
complete -c wbgov -n '__wbgov_using eject' -l no-power-off -d 'unmount and flush only'
complete -c wbgov -n '__wbgov_using apply' -l once -d 'required'
complete -c wbgov -n '__wbgov_using cp' -s q -l quiet -d 'no progress'
complete -c wbgov -n '__wbgov_using cp' -l json -d 'progress as JSON lines'
complete -c wbgov -n '__wbgov_using cp' -F
complete -c wbgov -n '__wbgov_using notify' -l bus -x -a 'system session' -d 'where wbgovd is'
complete -c wbgov -n '__wbgov_using status; or __wbgov_using watch; or __wbgov_using explain' -l bus -x -a 'system session none' -d 'where wbgovd is'
complete -c wbgov -n '__wbgov_using notify' -l threshold -x -a '512K 8M 64M' -d 'data worth a notification'
complete -c wbgov -n '__wbgov_using sync; or __wbgov_using eject; or __wbgov_using explain' -a '(__wbgov_devices)'
