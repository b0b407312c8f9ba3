# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# What a bench/zoo case means: shared by bench/zoo and bench/zoo-report
# (sourced, bash).

# bytes per second a profile starts at
profile_bps() {
	case $1 in
	cliff) echo 40000000 ;;
	stall|error|remove) echo 5000000 ;;
	beside) echo 2000000 ;;
	*) awk -v p="$1" 'BEGIN { printf "%d", p * 1e6 }' ;;
	esac
}

# MiB a case copies: about 6 s of the device, at least 8 MiB; the cliff
# 384 MiB (256 fast, then 128 at 4 MB/s: 38 s)
case_mib() {
	local s=6
	case $1 in
	cliff) echo 384 ;;
	stall) echo 96 ;;
	error|remove) echo 40 ;;
	beside) echo 24 ;;
	*) awk -v p="$1" -v s=$s 'BEGIN { m = int(p * 1e6 * s / 1048576); if (m < 8) m = 8; print m }' ;;
	esac
}

# the time the copy ideally takes, in seconds
case_ideal() {
	case $1 in
	cliff) awk 'BEGIN { print 256 * 1048576 / 40e6 + 128 * 1048576 / 4e6 }' ;;
	stall) awk -v m="$2" 'BEGIN { print m * 1048576 / 5e6 + 2 * int(m / 32) }' ;;
	*) awk -v m="$2" -v b="$3" 'BEGIN { print m * 1048576 / b }' ;;
	esac
}

