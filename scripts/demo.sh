#!/bin/sh
# The main job in one screen: the USB-stick stall of the seeds (a 4 GiB ISO
# to a 5 MB/s stick on a 16 GiB machine, then sync) under today's kernel and
# under wbgov, as a table and a plot.
set -eu
BUILD=${1:-build}
out="$BUILD/usb-iso.png"
echo "wbsim run usb-iso --policy linux-64 --policy wbgov --plot $out"
echo
"$BUILD/wbsim" run usb-iso --policy linux-64 --policy wbgov --plot "$out"
echo
echo "write_s: when cp's last write() returned (the progress bar); durable_s: when the"
echo "last byte reached the stick; sync_s: how long the sync after it hung."
echo "The plot is $out."
