# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for wbsim (share/fish/vendor_completions.d/wbsim.fish):
# scenarios and policies from `wbsim list`, scenario files.
function __wbsim_list
    set -l cmd (commandline -opc)[1]
    $cmd list 2>/dev/null | awk -v want="$argv[1]:" '$0 == want { p = 1; next } /^[^ ]/ { p = 0 } p { print $1 }'
end

function __wbsim_no_command
    not __fish_seen_subcommand_from list run table show
end

complete -c wbsim -f
complete -c wbsim -n __wbsim_no_command -a list -d 'scenarios and policies'
complete -c wbsim -n __wbsim_no_command -a run -d 'run a scenario under policies'
complete -c wbsim -n __wbsim_no_command -a table -d 'every scenario under every policy'
complete -c wbsim -n __wbsim_no_command -a show -d 'a scenario as a file'
complete -c wbsim -n '__fish_seen_subcommand_from run show; and test (count (commandline -opc)) -eq 2' -a '(__wbsim_list scenarios)'
# a scenario file once the word has a / or a . (a path)
complete -c wbsim -n '__fish_seen_subcommand_from run show; and test (count (commandline -opc)) -eq 2; and string match -q -r "[/.]" -- (commandline -ct)' -a '(__fish_complete_suffix .scenario)'
complete -c wbsim -n '__fish_seen_subcommand_from run show' -l sysctl -x -a 'vm.dirty_ratio= vm.dirty_background_ratio= vm.dirty_bytes= vm.dirty_background_bytes= vm.dirty_expire_centisecs= vm.dirty_writeback_centisecs=' -d vm.KEY=VALUE
complete -c wbsim -n '__fish_seen_subcommand_from run show' -l knob -x -d DEV.ATTR=VALUE
complete -c wbsim -n '__fish_seen_subcommand_from run' -l policy -x -a '(__wbsim_list policies)' -d policy
complete -c wbsim -n '__fish_seen_subcommand_from run table' -l config -r -F -d 'a wbgov.conf'
complete -c wbsim -n '__fish_seen_subcommand_from run table show' -l param -x -a 'mem= used= kernel= speed= size= hz= bits= memory= limit= target= floor= ceiling= initial= fast_target= global_drain=' -d KEY=VALUE
complete -c wbsim -n '__fish_seen_subcommand_from run table' -l format -x -a 'table csv json'
complete -c wbsim -n '__fish_seen_subcommand_from run' -l plot -r -F -d 'FILE.png or FILE.svg'
complete -c wbsim -n '__fish_seen_subcommand_from run' -l series -r -F -d 'every run\'s samples as TSV'
complete -c wbsim -s h -l help -d usage
complete -c wbsim -n __wbsim_no_command -s V -l version -d version
