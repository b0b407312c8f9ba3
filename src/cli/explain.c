/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/* One device's explanation, gathered once, printed as text or JSON. */
struct why {
	struct knobs_dev *d;
	struct mount_list ml;
	struct status_entry st;
	bool has_st, decided, per_dev, has_kernel_bw;
	uint64_t bw, kernel_bw, strict, mb, fine;
	struct gov_decision dec;
};

static void gather(const struct cli *o, const struct gov_config *cfg, const char *sp,
		   bool running, struct knobs_dev *d, struct why *w)
{
	memset(w, 0, sizeof(*w));
	w->d = d;
	/* the daemon's record, while it runs: a file left by a run that ended
	 * is not what holds now */
	w->has_st = running && status_read(sp, d->bdi, &w->st) == 0;
	w->decided = w->has_st && w->st.why >= 0 && w->st.why < WHY_COUNT;
	w->bw = w->has_st ? w->st.bw_bps : 0;
	w->per_dev = sysfs_bdi_read(o->root, d->bdi, BDI_STRICT_LIMIT, &w->strict) == 0 &&
		     sysfs_bdi_read(o->root, d->bdi, BDI_MAX_BYTES, &w->mb) == 0 &&
		     sysfs_bdi_read(o->root, d->bdi, BDI_MAX_RATIO_FINE, &w->fine) == 0;
	w->has_kernel_bw = debugfs_bdi_bandwidth(o->root, d->bdi, &w->kernel_bw) == 0;
	procfs_mounts(o->root, d->disk, &w->ml);
	if (w->decided) {
		/* the daemon's own decision: it knows what this cannot (a start
		 * cap grown, a lower bound, the smallest cap of this kernel) */
		w->dec.why = (enum gov_why)w->st.why;
		w->dec.govern = w->dec.why != WHY_OFF;
		w->dec.strict = w->st.strict;
		w->dec.max_bytes = w->st.max_bytes;
		w->dec.rule = gov_match(cfg, d);
	} else {
		struct gov_input in = { .bw_bps = w->bw,
					.known = w->has_st && w->st.source >= BW_MEASURED };
		if (w->per_dev)
			in.global_thresh_bytes = global_thresh_from_bdi(w->mb, w->fine);
		gov_decide(cfg, d, &in, &w->dec);
	}
}

static void print_text(const struct cli *o, const struct why *w, bool running, bool first)
{
	const struct knobs_dev *d = w->d;
	char mounts[1024], mclean[1024], sclean[sizeof(d->serial)];

	mount_list_join(&w->ml, ", ", mounts, sizeof(mounts));
	printf("%s%s (bdi %s)\n", first ? "" : "\n", d->disk, d->bdi);
	printf("  facts:       model \"%s\", serial \"%s\", bus %s, removable %s, rotational %s%s\n",
	       cli_tty_clean(mclean, sizeof(mclean), d->model),
	       cli_tty_clean(sclean, sizeof(sclean), d->serial), d->bus[0] ? d->bus : "unknown",
	       d->removable ? "yes" : "no", d->rotational ? "yes" : "no",
	       d->is_fuse ? ", a FUSE (fuseblk) filesystem's bdi" : "");
	printf("  mounted on:  %s\n", mounts[0] ? cli_tty_clean(mclean, sizeof(mclean), mounts) : "-");
	if (w->has_st && w->bw)
		printf("  measured:    %.1f MiB/s (%s; %u window%s of /sys/block/%s/stat)\n",
		       (double)w->bw / (double)MIB, cli_source_text(w->st.source), w->st.measures,
		       w->st.measures == 1 ? "" : "s", d->disk);
	else
		printf("  measured:    not yet%s\n", running ? "" : " (wbgovd is not running)");
	if (w->has_kernel_bw)
		printf("  kernel:      %.1f MiB/s, its own estimate (debugfs; 0 while the bdi is clean)\n",
		       (double)w->kernel_bw / (double)MIB);
	if (w->dec.rule)
		printf("  config:      section at %s:%u matches\n", o->config, w->dec.rule->line);
	printf("  %s %s\n", w->decided ? "rule:       " : "rule (if wbgovd ran):",
	       gov_why_text[w->dec.why]);
	if (!w->dec.govern)
		printf("  limit:       none set by wbgov\n");
	else if (!w->dec.strict)
		printf("  limit:       no cap (the kernel's global limits apply)\n");
	else if (!w->per_dev)
		printf("  limit:       %.1f MiB, through the global dirty_bytes while this device "
		       "holds dirty data (no per-device knobs before Linux 6.2)\n",
		       (double)w->dec.max_bytes / MIB);
	else
		printf("  limit:       strict_limit 1, max_bytes %llu (%.1f MiB)\n",
		       (unsigned long long)w->dec.max_bytes, (double)w->dec.max_bytes / MIB);
	if (w->decided && w->st.err)
		printf("  kernel said: %s, when wbgovd wrote the limit (the previous value stays)\n",
		       strerror(w->st.err < 0 ? -w->st.err : w->st.err));
	if (w->per_dev)
		printf("  kernel now:  strict_limit %llu, max_bytes %llu, max_ratio_fine %llu ppm\n",
		       (unsigned long long)w->strict, (unsigned long long)w->mb,
		       (unsigned long long)w->fine);
	else
		printf("  kernel now:  no per-device strict_limit/max_bytes (Linux < 6.2)\n");
}

static void json_u64_or_null(const char *key, bool have, uint64_t v)
{
	if (have)
		printf(", \"%s\": %llu", key, (unsigned long long)v);
	else
		printf(", \"%s\": null", key);
}

/* schema 1, in wbgov(8): every key always there, null for unknown */
static void print_json(const struct cli *o, const struct why *w, bool first)
{
	const struct knobs_dev *d = w->d;
	bool bw = w->has_st && w->bw;

	printf("%s\n  {\"bdi\": ", first ? "" : ",");
	cli_json_str(stdout, d->bdi);
	fputs(", \"disk\": ", stdout);
	cli_json_str(stdout, d->disk);
	fputs(", \"model\": ", stdout);
	cli_json_str_or_null(stdout, d->model);
	fputs(", \"serial\": ", stdout);
	cli_json_str_or_null(stdout, d->serial);
	fputs(", \"bus\": ", stdout);
	cli_json_str_or_null(stdout, d->bus);
	printf(", \"removable\": %s, \"rotational\": %s, \"fuse\": %s, \"mounts\": [",
	       d->removable ? "true" : "false", d->rotational ? "true" : "false",
	       d->is_fuse ? "true" : "false");
	for (const char *m = mount_list_next(&w->ml, NULL); m; m = mount_list_next(&w->ml, m)) {
		if (m != w->ml.buf)
			fputs(", ", stdout);
		cli_json_str(stdout, m);
	}
	fputc(']', stdout);
	json_u64_or_null("bandwidth_bps", bw, w->bw);
	if (bw)
		printf(", \"bandwidth_source\": \"%s\"", cli_source_key(w->st.source));
	else
		fputs(", \"bandwidth_source\": null", stdout);
	json_u64_or_null("windows", w->has_st, w->st.measures);
	json_u64_or_null("kernel_bandwidth_bps", w->has_kernel_bw, w->kernel_bw);
	if (w->dec.rule) {
		fputs(", \"config\": ", stdout);
		cli_json_str(stdout, o->config);
		printf(", \"config_line\": %u", w->dec.rule->line);
	} else {
		fputs(", \"config\": null, \"config_line\": null", stdout);
	}
	printf(", \"decided_by\": \"%s\", \"rule\": ", w->decided ? "wbgovd" : "what-if");
	cli_json_str(stdout, gov_why_text[w->dec.why]);
	printf(", \"limit\": \"%s\"",
	       !w->dec.govern ? "none" : !w->dec.strict ? "no_cap" :
	       w->per_dev ? "strict" : "global_dirty_bytes");
	json_u64_or_null("limit_bytes", w->dec.govern && w->dec.strict, w->dec.max_bytes);
	if (w->decided && w->st.err) {
		fputs(", \"write_error\": ", stdout);
		cli_json_str(stdout, strerror(w->st.err < 0 ? -w->st.err : w->st.err));
	} else {
		fputs(", \"write_error\": null", stdout);
	}
	if (w->per_dev)
		printf(", \"kernel_strict_limit\": %s", w->strict ? "true" : "false");
	else
		fputs(", \"kernel_strict_limit\": null", stdout);
	json_u64_or_null("kernel_max_bytes", w->per_dev, w->mb);
	json_u64_or_null("kernel_max_ratio_fine", w->per_dev, w->fine);
	fputc('}', stdout);
}

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
	if (o->json)
		printf("{\"schema\": 1, \"wbgovd_running\": %s, \"devices\": [",
		       running ? "true" : "false");
	for (int i = 0; i < n; i++) {
		struct why w;
		gather(o, &cfg, sp, running, &devs[i], &w);
		if (o->json)
			print_json(o, &w, i == 0);
		else
			print_text(o, &w, running, i == 0);
	}
	if (o->json)
		fputs(n ? "\n]}\n" : "]}\n", stdout);
	return 0;
}
