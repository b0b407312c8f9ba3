#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh's runner of one test script: run_one.sh OUTDIR SCRIPT runs
# SCRIPT, its output to OUTDIR/NAME.log and "STATUS SECONDS" to
# OUTDIR/NAME.rc (NAME: the script's name without .sh).
n=$(basename "$2" .sh)
t0=$(date +%s)
rc=0
sh "$2" >"$1/$n.log" 2>&1 || rc=$?
echo "$rc $(($(date +%s) - t0))" >"$1/$n.rc"
