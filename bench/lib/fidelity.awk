# SPDX-License-Identifier: GPL-2.0-or-later
# The rules bench/fidelity and bench/fidelity-report share (awk -f this -f
# the program): the band a real figure must lie in, and the rig families
# the summaries count by.

# the simulated range [lo, hi] widened by 0.8-1.25 holds the real value v
function range_in_band(v, lo, hi) { return v > 0 ? (hi / v >= 0.8 && lo / v <= 1.25) : (lo == 0) }

# a results.tsv ratio (the simulated value nearest the real median over it)
# is in band: "-" (not simulated) and "n/a" are not
function ratio_in_band(r) { return r != "-" && r != "n/a" && r >= 0.8 && r <= 1.25 }

# the family a rig counts in: this machine, or a guest's kernel (its vfat
# rigs with it)
function rig_family(rig) {
	if (rig ~ /^host/)
		return "host"
	if (rig ~ /^qemu-6\.1-/)
		return "qemu 6.1"
	if (rig ~ /^qemu-6\.12-/)
		return "qemu 6.12"
	return rig
}
