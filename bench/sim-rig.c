/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench/model-rig's run in the simulator: one device of SPEED, a dd of MIB
 * MiB at 5 GB/s and sync, on this machine's memory (24105 MiB, 2 CPUs,
 * HZ 250), under CONFIG. Prints the same figures as bench/model-rig.
 *
 *   cc -O2 -Isrc bench/sim-rig.c build/libwbgov.a -o build/sim-rig
 *   build/sim-rig CONFIG SPEED MIB [bio=BYTES] [queue=BYTES] [kver=6.18|6.12|6.1]
 *                 [mem=BYTES] [rate=BYTES/S] [trace=1]
 * CONFIG: defaults | strict16 | pair | strict:BYTES | none (uncapped, for
 * throughput ratios). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/kernel.h"

int main(int argc, char **argv)
{
	struct sim_kernel_cfg k = {
		.k = { .hz = 250, .long_bits = 64, .ncpus = 2 },
		.mem_bytes = 24105 * MIB, .kernel_bytes = 220 * MIB, .anon_bytes = 12 * MIB,
		.reserve_bytes = 131 * MIB, .lowmem_bytes = 896 * MIB,
	};
	struct sim_dev_cfg d = { .name = "loop32", .bus = BUS_VIRTUAL, .nbw = 1,
				 .queue_bytes = 16 * MIB };
	struct sim_task_cfg t = { .kind = TASK_COPY, .files = 1, .rate_bps = 5000000000ULL,
				  .end = END_SYNC };
	struct sim_kernel *s;
	const struct sim_task_stats *st;
	uint64_t pd = 0, pw = 0, pdw = 0, next_trace = 0;
	int trace = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: sim-rig CONFIG SPEED MIB [key=value]...\n");
		return 64;
	}
	d.bw[0].bps = strtoull(argv[2], NULL, 10);
	t.file_bytes = strtoull(argv[3], NULL, 10) * MIB;
	for (int i = 4; i < argc; i++) {
		const char *v = strchr(argv[i], '=');
		if (!v)
			return 64;
		v++;
		if (!strncmp(argv[i], "bio=", 4))
			d.bio_bytes = strtoull(v, NULL, 10);
		else if (!strncmp(argv[i], "queue=", 6))
			d.queue_bytes = strtoull(v, NULL, 10);
		else if (!strncmp(argv[i], "mem=", 4))
			k.mem_bytes = strtoull(v, NULL, 10);
		else if (!strncmp(argv[i], "rate=", 5))
			t.rate_bps = strtoull(v, NULL, 10);
		else if (!strncmp(argv[i], "trace=", 6))
			trace = atoi(v);
		else if (!strncmp(argv[i], "kver=", 5))
			k.kver = !strcmp(v, "6.1") ? KVER_6_1 : !strcmp(v, "6.12") ? KVER_6_12 : KVER_6_18;
		else
			return 64;
	}
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	if (!s)
		return 70;
	if (!strcmp(argv[1], "strict16")) {
		sim_bdi_write(s, 0, BDI_MAX_BYTES, 16 * MIB);
		sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1);
	} else if (!strncmp(argv[1], "strict:", 7)) {
		if (sim_bdi_write(s, 0, BDI_MAX_BYTES, strtoull(argv[1] + 7, NULL, 10)) ||
		    sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1))
			return 78;
	} else if (!strcmp(argv[1], "pair")) {
		sim_vm_write(s, VM_DIRTY_BACKGROUND_BYTES, 16 * MIB);
		sim_vm_write(s, VM_DIRTY_BYTES, 48 * MIB);
	}
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0) &&
	       sim_now_usec(s) < 3600000000ULL) {
		uint64_t dd = sim_global_dirty(s), wb = sim_global_writeback(s);
		if (dd > pd)
			pd = dd;
		if (wb > pw)
			pw = wb;
		if (dd + wb > pdw)
			pdw = dd + wb;
		if (trace && sim_now_usec(s) >= next_trace) {
			printf("t %.2f dirty %.1f wb %.1f bw %.1f MB/s thresh %.1f\n",
			       sim_now_usec(s) / 1e6, pages_to_bytes(dd) / (double)MIB,
			       pages_to_bytes(wb) / (double)MIB,
			       pages_to_bytes(sim_dev_kernel_bw(s, 0)) / 1e6,
			       pages_to_bytes(sim_dev_wb_thresh(s, 0)) / (double)MIB);
			next_trace += (uint64_t)trace * 100000;
		}
		sim_step(s);
	}
	st = sim_task_stats(s, 0);
	printf("sim  %s %s B/s %s MiB: write_return %.2f s sync %.2f s peak_dirty %.1f MiB "
	       "peak_wb %.1f MiB peak_dirty+wb %.1f MiB end_bw %.1f MB/s throughput %.1f MB/s\n",
	       argv[1], argv[2], argv[3], st->write_return_usec / 1e6,
	       (st->end_done_usec - st->end_call_usec) / 1e6, pages_to_bytes(pd) / (double)MIB,
	       pages_to_bytes(pw) / (double)MIB, pages_to_bytes(pdw) / (double)MIB,
	       pages_to_bytes(sim_dev_kernel_bw(s, 0)) / 1e6,
	       (double)t.file_bytes / (double)st->end_done_usec);
	sim_kernel_free(s);
	return 0;
}
