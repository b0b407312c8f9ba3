# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for wbgovd (share/fish/vendor_completions.d/wbgovd.fish).
complete -c wbgovd -f
complete -c wbgovd -s c -l config -r -F -d 'configuration file'
complete -c wbgovd -s n -l check -d 'check the configuration and exit'
complete -c wbgovd -l root -r -a '(__fish_complete_directories)' -d 'find /proc and /sys under DIR'
complete -c wbgovd -l state-dir -r -a '(__fish_complete_directories)' -d 'state directory'
complete -c wbgovd -l memory -r -F -d 'device memory file'
complete -c wbgovd -l no-memory -d 'keep no device memory'
complete -c wbgovd -l metrics-file -r -F -d "Prometheus textfile (node_exporter's)"
complete -c wbgovd -l metrics-interval -x -a '5 10 15 30 60' -d 'seconds between metrics writes'
complete -c wbgovd -l bus -x -a 'system session none' -d 'where to publish on D-Bus'
complete -c wbgovd -s v -l verbose -d 'log measurements too'
complete -c wbgovd -s h -l help -d 'usage'
complete -c wbgovd -s V -l version -d 'version'
