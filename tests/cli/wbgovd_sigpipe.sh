#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# wbgovd ignores SIGPIPE from its first instruction, as it blocks TERM, INT
# and HUP: --help and --version written to a pipe whose reader has gone
# exit 0 (the write is EPIPE), not killed by SIGPIPE (141). The program is
# started with SIGPIPE at its default (env --default-signal), whatever the
# caller's was; wbsim --help, which ignores nothing, is the control that
# the pipe has no reader.
set -eu
PROG=wbgovd
. "$(dirname "$0")/../lib/cli.sh"
SIM=${BUILD:-build}/wbsim
[ -x "$SIM" ] || fail "no $SIM (make)"
# a pipe with no reader: the FIFO opened for reading and writing (so the
# write-only open does not wait), then its one reader closed
mkfifo "$tmp/p"
exec 5<>"$tmp/p" 6>"$tmp/p"
exec 5<&-

rc=0
env --default-signal=PIPE "$SIM" --help >&6 2>/dev/null || rc=$?
[ "$rc" -eq 141 ] || fail "the control, wbsim --help into a pipe with no reader, exited $rc, not 141"
for opt in --help --version; do
	rc=0
	env --default-signal=PIPE "$W" $opt >&6 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "wbgovd $opt into a pipe with no reader exited $rc (141: killed by SIGPIPE)"
done
exec 6>&-
echo "wbgovd_sigpipe: ok"
