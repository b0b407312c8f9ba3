/* wbgov explain: the daemon's record of a device's decision, or what the
 * rule would do when no daemon runs. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "cli/cli.h"
#include "daemon/config.h"
#include "daemon/status.h"
#include "policy/governor.h"
#include "sys/procfs.h"
#include "sys/sysfs.h"

int cli_explain(const struct cli *o, const char *arg)
{
	static struct knobs_dev devs[MAXDEV];
	struct gov_config cfg;
	char err[512], sp[PATH_MAX];
	int n = cli_resolve(o, arg, devs, MAXDEV);
	bool running = cli_daemon_running(o);

	if (n < 0) {
		fprintf(stderr, "wbgov explain: no such device or path: %s\n", arg);
		return EX_UNAVAILABLE;
	}
	if (config_load(o->config, !strcmp(o->config, CONFIG_DEFAULT_PATH), &cfg, err, sizeof(err))) {
		fprintf(stderr, "wbgov explain: %s\n", err);
		return EX_CONFIG;
	}
	cli_path_in(sp, sizeof(sp), o, "status");
	for (int i = 0; i < n; i++) {
		struct knobs_dev *d = &devs[i];
		struct status_entry st;
		struct gov_decision dec;
		/* the daemon's record, while it runs: a file left by a run that
		 * ended is not what holds now */
		bool has_st = running && status_read(sp, d->bdi, &st) == 0;
		bool decided = has_st && st.why >= 0 && st.why < WHY_COUNT;
		uint64_t bw = has_st ? st.bw_bps : 0, v, strict = 0, mb = 0, fine = 0;
		bool per_dev = sysfs_bdi_read(o->root, d->bdi, BDI_STRICT_LIMIT, &strict) == 0 &&
			       sysfs_bdi_read(o->root, d->bdi, BDI_MAX_BYTES, &mb) == 0 &&
			       sysfs_bdi_read(o->root, d->bdi, BDI_MAX_RATIO_FINE, &fine) == 0;
		struct mount_list ml;
		char mounts[1024], mclean[1024], sclean[sizeof(d->serial)];

		procfs_mounts(o->root, d->disk, &ml);
		mount_list_join(&ml, ", ", mounts, sizeof(mounts));
		if (decided) {
			/* the daemon's own decision: it knows what this cannot (a
			 * start cap grown, a lower bound, the smallest cap of this
			 * kernel) */
			memset(&dec, 0, sizeof(dec));
			dec.why = (enum gov_why)st.why;
			dec.govern = dec.why != WHY_OFF;
			dec.strict = st.strict;
			dec.max_bytes = st.max_bytes;
			dec.rule = gov_match(&cfg, d);
		} else {
			struct gov_input in = { .bw_bps = bw,
						.known = has_st && st.source >= BW_MEASURED };
			if (per_dev)
				in.global_thresh_bytes = global_thresh_from_bdi(mb, fine);
			gov_decide(&cfg, d, &in, &dec);
		}
		printf("%s%s (bdi %s)\n", i ? "\n" : "", d->disk, d->bdi);
		printf("  facts:       model \"%s\", serial \"%s\", bus %s, removable %s, rotational %s%s\n",
		       cli_tty_clean(mclean, sizeof(mclean), d->model), cli_tty_clean(sclean, sizeof(sclean), d->serial),
		       d->bus[0] ? d->bus : "unknown", d->removable ? "yes" : "no",
		       d->rotational ? "yes" : "no", d->is_fuse ? ", a FUSE (fuseblk) filesystem's bdi" : "");
		printf("  mounted on:  %s\n", mounts[0] ? cli_tty_clean(mclean, sizeof(mclean), mounts) : "-");
		if (has_st && bw)
			printf("  measured:    %.1f MiB/s (%s; %u window%s of /sys/block/%s/stat)\n",
			       (double)bw / (double)MIB, cli_source_text(st.source), st.measures,
			       st.measures == 1 ? "" : "s", d->disk);
		else
			printf("  measured:    not yet%s\n", running ? "" : " (wbgovd is not running)");
		if (debugfs_bdi_bandwidth(o->root, d->bdi, &v) == 0)
			printf("  kernel:      %.1f MiB/s, its own estimate (debugfs; 0 while the bdi is clean)\n",
			       (double)v / (double)MIB);
		if (dec.rule)
			printf("  config:      section at %s:%u matches\n", o->config, dec.rule->line);
		printf("  %s %s\n", decided ? "rule:       " : "rule (if wbgovd ran):",
		       gov_why_text[dec.why]);
		if (!dec.govern)
			printf("  limit:       none set by wbgov\n");
		else if (!dec.strict)
			printf("  limit:       no cap (the kernel's global limits apply)\n");
		else if (!per_dev)
			printf("  limit:       %.1f MiB, through the global dirty_bytes while this device "
			       "holds dirty data (no per-device knobs before Linux 6.2)\n",
			       (double)dec.max_bytes / MIB);
		else
			printf("  limit:       strict_limit 1, max_bytes %llu (%.1f MiB)\n",
			       (unsigned long long)dec.max_bytes, (double)dec.max_bytes / MIB);
		if (decided && st.err)
			printf("  kernel said: %s, when wbgovd wrote the limit (the previous value "
			       "stays)\n", strerror(st.err < 0 ? -st.err : st.err));
		if (per_dev)
			printf("  kernel now:  strict_limit %llu, max_bytes %llu, max_ratio_fine %llu ppm\n",
			       (unsigned long long)strict, (unsigned long long)mb, (unsigned long long)fine);
		else
			printf("  kernel now:  no per-device strict_limit/max_bytes (Linux < 6.2)\n");
	}
	return 0;
}

