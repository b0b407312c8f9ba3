/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov explain: the daemon's record of a device's decision, or what the
 * rule would do when no daemon runs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "cli/cli.h"
#include "daemon/describe.h"
#include "daemon/status.h"
#include "model/units.h"
#include "policy/bwmeter.h"
#include "policy/governor.h"
#include "sys/conffile.h"
#include "sys/procfs.h"
#include "sys/shares.h"
#include "sys/state.h"
#include "sys/sysfs.h"

/* Knobs another rule set (a udev rule, a script): as wbgov found them
 * before its first change (its state file), or as they are now on a bdi
 * wbgov has not changed. */
enum other { OTHER_NONE, OTHER_BEFORE, OTHER_NOW };

/* One device's explanation, gathered once, printed as text or JSON. */
struct why {
	struct knobs_dev *d;
	struct mount_list ml;
	struct status_entry st;
	bool has_st, decided, per_dev, has_kernel_bw;
	uint64_t bw, kernel_bw, strict, mb, fine;
	struct gov_decision dec;
	enum other other;
	uint64_t other_strict, other_fine, other_bytes;
	bool has_vm;
	uint64_t dirty_bytes, dirty_background_bytes; /* a sysctl.d tweak's, when not 0 */
	struct cli_pending pend; /* data still to write, and where that came from */
	struct share_written nfs; /* an NFS share's COMMITs (mountstats) */
	bool has_nfs;
};

/* The state file, read once: what wbgov found on the bdis it changed. */
static const struct state *state_of(const struct cli *o)
{
	static struct state st;
	static int loaded; /* 0 not yet, 1 read, -1 none */
	char p[PATH_MAX];

	if (!loaded) {
		cli_path_in(p, sizeof(p), o, "state");
		loaded = state_load(p, &st) == 0 ? 1 : -1;
	}
	return loaded > 0 ? &st : NULL;
}

static void other_rule(const struct cli *o, struct why *w)
{
	const struct state *st = state_of(o);
	const struct knobs_dev *d = w->d;

	w->other = OTHER_NONE;
	if (!w->per_dev)
		return;
	for (int i = 0; st && i < st->n; i++) {
		if (strcmp(st->bdi[i].bdi, d->bdi))
			continue;
		w->other_strict = st->bdi[i].strict_limit;
		w->other_fine = st->bdi[i].max_ratio_fine;
		/* max_bytes is that many ppm of today's global threshold */
		w->other_bytes = global_thresh_from_bdi(w->mb, w->fine) * w->other_fine / 1000000;
		if (!knobs_bdi_default(d->is_fuse, w->other_strict, w->other_fine))
			w->other = OTHER_BEFORE;
		return;
	}
	w->other_strict = w->strict;
	w->other_fine = w->fine;
	w->other_bytes = w->mb;
	if (!knobs_bdi_default(d->is_fuse, w->strict, w->fine))
		w->other = OTHER_NOW;
}

/* An NFS share's COMMIT: its average time in ms, and the share of the
 * link's pace a writer under the cap gets (0: not known). NFS counts what
 * it sent and the server has not yet committed against the cap (as
 * writeback), and the client sends a COMMIT only once no WRITE is in
 * flight: a writer held at the cap waits a COMMIT of C seconds after each
 * cap's worth. The speed measured so, m, is that pace, and the cap is T
 * seconds of it: a cycle is m T / L + C for m T bytes, L the link's
 * speed, so m / L = 1 - C / T. (In a guest: a 4.8 MiB/s link, 0.4 s a
 * COMMIT, about 0.9 s caps: 2.4-2.9 MiB/s measured, 0.5-0.6 of the link;
 * this says 0.56.) */
static double commit_ms(const struct why *w)
{
	return w->has_nfs ? (double)w->nfs.commit_ms / (double)w->nfs.commits : 0;
}

static double commit_pace(const struct why *w)
{
	double cap_s;

	if (!w->has_nfs || !w->bw || !w->dec.govern || !w->dec.strict || !w->dec.max_bytes)
		return 0;
	cap_s = (double)w->dec.max_bytes / (double)w->bw;
	return commit_ms(w) / 1000 < cap_s ? 1 - commit_ms(w) / 1000 / cap_s : 0;
}

/* s in the reader's language, or as it is (JSON's text) */
static const char *tr(bool translate, const char *s)
{
	return translate ? _(s) : s;
}

/* The knobs another rule set, as wbgovd's log says them
 * (daemon_knobs_text), in the reader's language where translate. */
static void knobs_text(bool translate, const struct why *w, char *buf, size_t len)
{
	bool was = w->other == OTHER_BEFORE;
	char mb[32], about[48];

	if (!translate) {
		daemon_knobs_text(was ? " was" : "", w->other_strict, w->other_fine, w->other_bytes,
				  buf, len);
		return;
	}
	if (w->other_fine == 1000000) {
		snprintf(buf, len, was ? _("strict_limit was %llu (and no cap)") :
					 _("strict_limit %llu (and no cap)"),
			 (unsigned long long)w->other_strict);
		return;
	}
	if (w->other_bytes) {
		bytes_text(mb, sizeof(mb), w->other_bytes, 0);
		/* TRANSLATORS: an approximate size, "about 16.0 MiB" */
		snprintf(about, sizeof(about), _("about %s"), mb);
	} else {
		snprintf(about, sizeof(about), "?");
	}
	snprintf(buf, len,
		 was ? _("strict_limit was %llu and max_bytes %s (max_ratio_fine %llu ppm)") :
		       _("strict_limit %llu and max_bytes %s (max_ratio_fine %llu ppm)"),
		 (unsigned long long)w->other_strict, about, (unsigned long long)w->other_fine);
}

/* What becomes of knobs another rule set, in words: English for JSON,
 * the reader's language where translate. */
static void other_text(const struct why *w, bool running, bool translate, char *buf, size_t len)
{
	char knobs[192];
	const char *then;

	knobs_text(translate, w, knobs, sizeof(knobs));
	if (w->other == OTHER_BEFORE)
		then = running ? N_("before wbgovd started: set by another rule (a udev rule?); given "
				    "back at exit") :
				 N_("before wbgov changed it: set by another rule (a udev rule?); "
				    "wbgov restore gives it back");
	else if (!w->dec.govern)
		then = running ? N_("now: set by another rule (a udev rule?); wbgovd leaves it as it "
				    "is (mode = off)") :
				 N_("now: set by another rule (a udev rule?); wbgovd would leave it as "
				    "it is (mode = off)");
	else if (running)
		then = N_("now: set by another rule (a udev rule?), not by wbgovd, which has not "
			  "changed this bdi");
	else
		then = N_("now: set by another rule (a udev rule?); wbgovd would set its own while "
			  "it runs and give these back at exit");
	snprintf(buf, len, "%s %s", knobs, tr(translate, then));
}

static void gather(const struct cli *o, const struct gov_config *cfg, const char *sp,
		   bool running, struct knobs_dev *d, const struct cli_pending *pend, struct why *w)
{
	struct gov_settings set;

	memset(w, 0, sizeof(*w));
	w->d = d;
	w->pend = *pend;
	/* the daemon's record, while it runs: a file left by a run that ended
	 * is not what holds now */
	w->has_st = running && status_read(sp, d->bdi, &w->st) == 0;
	w->decided = w->has_st && w->st.why >= 0 && w->st.why < WHY_COUNT;
	w->bw = w->has_st ? w->st.bw_bps : 0;
	w->per_dev = sysfs_bdi_read(o->root, d->bdi, BDI_STRICT_LIMIT, &w->strict) == 0 &&
		     sysfs_bdi_read(o->root, d->bdi, BDI_MAX_BYTES, &w->mb) == 0 &&
		     sysfs_bdi_read(o->root, d->bdi, BDI_MAX_RATIO_FINE, &w->fine) == 0;
	w->has_kernel_bw = debugfs_bdi_bandwidth(o->root, d->bdi, &w->kernel_bw) == 0;
	procfs_dev_mounts(o->root, d, &w->ml);
	/* /proc/self/mountstats: the client's counters, nothing asked of the
	 * server (one that stopped answering holds no read of it) */
	w->has_nfs = d->is_share && shares_mountstats(o->root, d, &w->nfs) == 0 && w->nfs.commits;
	gov_resolve(cfg, d, &set);
	if (w->decided) {
		/* the daemon's own decision: it knows what this cannot (a start
		 * cap grown, a lower bound, the smallest cap of this kernel) */
		w->dec.why = (enum gov_why)w->st.why;
		w->dec.govern = w->dec.why != WHY_OFF;
		w->dec.strict = w->st.strict;
		w->dec.max_bytes = w->st.max_bytes;
		w->dec.rule = set.rule;
	} else {
		struct gov_input in = { .bw_bps = w->bw,
					.known = w->has_st && w->st.source >= BW_MEASURED,
					.source = w->has_st ? (enum bw_source)w->st.source : BW_NONE };
		if (w->per_dev)
			in.global_thresh_bytes = global_thresh_from_bdi(w->mb, w->fine);
		gov_decide(&set, &in, &w->dec);
	}
	other_rule(o, w);
	w->has_vm = procfs_vm_read(o->root, VM_DIRTY_BYTES, &w->dirty_bytes) == 0 &&
		    procfs_vm_read(o->root, VM_DIRTY_BACKGROUND_BYTES, &w->dirty_background_bytes) == 0;
}

/* A list fact of knobs_dev, quoted, joined by ", " ("" when empty). */
static void join_list(const char *list, size_t size, char *buf, size_t len)
{
	size_t used = 0;
	char clean[KNOBS_NAME_MAX * 2];

	buf[0] = 0;
	for (const char *p = knobs_list_next(list, size, NULL); p && used + 1 < len;
	     p = knobs_list_next(list, size, p)) {
		int n = snprintf(buf + used, len - used, "%s\"%s\"", used ? ", " : "",
				 cli_tty_clean(clean, sizeof(clean), p));
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* The labels of explain's lines, the text after them in one column. */
enum label {
	L_FACTS, L_IDS, L_MOUNTED, L_MEASURED, L_TO_WRITE, L_KERNEL, L_CONFIG, L_RULE, L_LIMIT,
	L_KERNEL_SAID, L_KERNEL_NOW, L_OTHER, L_VM, L_COMMITS, L_COUNT
};
/* TRANSLATORS: the labels of wbgov explain's lines; the texts after them
 * start in one column, as far right as the longest label needs */
static const char *const label_text[L_COUNT] = {
	[L_FACTS] = N_("facts:"),	  [L_IDS] = N_("ids:"),
	[L_MOUNTED] = N_("mounted on:"),  [L_MEASURED] = N_("measured:"),
	[L_TO_WRITE] = N_("to write:"),   [L_KERNEL] = N_("kernel:"),
	[L_CONFIG] = N_("config:"),	  [L_RULE] = N_("rule:"),
	[L_LIMIT] = N_("limit:"),	  [L_KERNEL_SAID] = N_("kernel said:"),
	[L_KERNEL_NOW] = N_("kernel now:"), [L_OTHER] = N_("other rule:"),
	[L_VM] = N_("vm:"),		  [L_COMMITS] = N_("commits:"),
};

/* "  label:" and the spaces to the text's column; a label longer than
 * the column (the what-if rule's) is followed by one space. */
static void label(const char *text)
{
	static int col; /* the labels' width; 12 in English */

	if (!col) {
		col = 12;
		for (int i = 0; i < L_COUNT; i++)
			if (cli_text_width(_(label_text[i])) > col)
				col = cli_text_width(_(label_text[i]));
	}
	fputs("  ", stdout);
	cli_put_padded(stdout, text, col, false);
	fputc(' ', stdout);
}

static void put_label(enum label l)
{
	label(_(label_text[l]));
}

static const char *yes_no(bool b)
{
	return b ? _("yes") : _("no");
}

/* usb, wwn, labels, uuids: what the keys of the same names match */
static void print_ids(const struct knobs_dev *d)
{
	char labels[300], uuids[300], wwn[sizeof(d->wwn)];

	join_list(d->labels, sizeof(d->labels), labels, sizeof(labels));
	join_list(d->uuids, sizeof(d->uuids), uuids, sizeof(uuids));
	put_label(L_IDS);
	/* TRANSLATORS: usb, wwn, label and uuid are the names of wbgov.conf's
	 * keys */
	printf(_("usb %s, wwn %s, label %s, uuid %s\n"), d->usb[0] ? d->usb : "-",
	       d->wwn[0] ? cli_tty_clean(wwn, sizeof(wwn), d->wwn) : "-", labels[0] ? labels : "-",
	       uuids[0] ? uuids : "-");
}

/* The device: its name, facts, ids and mounts. */
static void print_device(const struct why *w, bool first)
{
	const struct knobs_dev *d = w->d;
	char mounts[1024], mclean[1024], sclean[sizeof(d->serial)];

	mount_list_join(&w->ml, ", ", mounts, sizeof(mounts));
	printf("%s%s (bdi %s)\n", first ? "" : "\n",
	       d->is_share ? cli_tty_clean(mclean, sizeof(mclean), d->model) : d->disk, d->bdi);
	put_label(L_FACTS);
	if (d->is_share)
		/* TRANSLATORS: the share's name (server:/export) and its file
		 * system type (nfs4, cifs, fuse.sshfs) */
		printf(_("share \"%s\", type %s: no disk, its bdi writes to a server (or a FUSE "
			 "daemon)\n"),
		       cli_tty_clean(mclean, sizeof(mclean), d->model), d->bus);
	else
		/* TRANSLATORS: model, serial, bus, removable and rotational are
		 * wbgov.conf's keys; the last %s is empty or the FUSE text below */
		printf(_("model \"%s\", serial \"%s\", bus %s, removable %s, rotational %s%s\n"),
		       cli_tty_clean(mclean, sizeof(mclean), d->model),
		       cli_tty_clean(sclean, sizeof(sclean), d->serial),
		       d->bus[0] ? d->bus : _("unknown"), yes_no(d->removable), yes_no(d->rotational),
		       d->is_fuse ? _(", a FUSE (fuseblk) filesystem's bdi") : "");
	print_ids(d);
	put_label(L_MOUNTED);
	printf("%s\n", mounts[0] ? cli_tty_clean(mclean, sizeof(mclean), mounts) : "-");
}

/* What is measured of it: its speed, its data still to write, the
 * kernel's own estimate. */
static void print_measure(const struct why *w, bool running)
{
	const struct knobs_dev *d = w->d;

	put_label(L_MEASURED);
	if (w->has_st && w->bw && d->is_share)
		/* TRANSLATORS: the bandwidth, where it came from, the count of
		 * the windows it was measured in (a share has no disk) */
		printf(ngettext("%.1f MiB/s (%s; %u window of what its bdi wrote back)\n",
				"%.1f MiB/s (%s; %u windows of what its bdi wrote back)\n",
				w->st.measures),
		       (double)w->bw / (double)MIB, cli_source_text(w->st.source), w->st.measures);
	else if (w->has_st && w->bw)
		/* TRANSLATORS: the bandwidth, where it came from, the count of
		 * the windows it was measured in and the disk */
		printf(ngettext("%.1f MiB/s (%s; %u window of /sys/block/%s/stat)\n",
				"%.1f MiB/s (%s; %u windows of /sys/block/%s/stat)\n", w->st.measures),
		       (double)w->bw / (double)MIB, cli_source_text(w->st.source), w->st.measures,
		       d->disk);
	else
		printf("%s\n", running ? _("not yet") : _("not yet (wbgovd is not running)"));
	put_label(L_TO_WRITE);
	if (w->pend.source != PENDING_NONE) {
		char b[32];
		double drain = cli_pending_drain_s(&w->pend, w->bw);
		const char *from = w->pend.source == PENDING_DEBUGFS ? "debugfs" : _("wbgovd on D-Bus");
		bytes_text(b, sizeof(b), w->pend.bytes, BYTES_KIB_DOWN);
		/* TRANSLATORS: dirty and writeback are the kernel's names; the
		 * last %s says where the figure came from (debugfs, or wbgovd) */
		if (drain >= 0)
			printf(_("%s dirty + writeback, %.1f s to write (%s)\n"), b, drain, from);
		else
			printf(_("%s dirty + writeback (%s)\n"), b, from);
	} else {
		printf("%s\n", _("not known (debugfs is root's, and wbgovd does not tell it on "
				 "D-Bus)"));
	}
	if (w->has_nfs) {
		put_label(L_COMMITS);
		if (commit_pace(w) > 0)
			/* TRANSLATORS: COMMIT is NFS's call; then the cap in
			 * seconds of the measured speed, and the pace in per cent */
			printf(_("%llu COMMIT calls, %.0f ms each: NFS counts what the server has not "
				 "committed against the cap, so under this one (%.1f s of the measured "
				 "speed) a writer runs at about %.0f %% of the link; a larger target "
				 "trades a longer close() for pace\n"),
			       (unsigned long long)w->nfs.commits, commit_ms(w),
			       (double)w->dec.max_bytes / (double)w->bw, 100 * commit_pace(w));
		else
			printf(_("%llu COMMIT calls, %.0f ms each (the server's stable write)\n"),
			       (unsigned long long)w->nfs.commits, commit_ms(w));
	}
	if (w->has_kernel_bw) {
		put_label(L_KERNEL);
		printf(_("%.1f MiB/s, its own estimate (debugfs; 0 while the bdi is clean)\n"),
		       (double)w->kernel_bw / (double)MIB);
	}
}

/* What is decided for it and why, and what the kernel holds now. */
static void print_decision(const struct gov_config *cfg, const struct why *w, bool running)
{
	if (w->dec.rule) {
		put_label(L_CONFIG);
		/* TRANSLATORS: "[device %s]" is the section as wbgov.conf spells
		 * it; then the file and the line */
		printf(_("[device %s] at %s:%u matches\n"), w->dec.rule->name,
		       cfg->files[w->dec.rule->file], w->dec.rule->line);
	}
	if (w->decided)
		put_label(L_RULE);
	else
		label(_("rule (if wbgovd ran):"));
	/* the rule's words are those of wbgovd's log and JSON's "rule" */
	printf("%s\n", _(gov_why_text[w->dec.why]));
	put_label(L_LIMIT);
	if (!w->dec.govern)
		printf("%s\n", _("none set by wbgov"));
	else if (!w->dec.strict)
		printf("%s\n", _("no cap (the kernel's global limits apply)"));
	else if (!w->per_dev)
		printf(_("%.1f MiB, through the global dirty_bytes while this device holds dirty "
			 "data (no per-device knobs before Linux 6.2)\n"),
		       (double)w->dec.max_bytes / MIB);
	else
		printf(_("strict_limit 1, max_bytes %llu (%.1f MiB)\n"),
		       (unsigned long long)w->dec.max_bytes, (double)w->dec.max_bytes / MIB);
	if (w->decided && w->st.err) {
		put_label(L_KERNEL_SAID);
		printf(_("%s, when wbgovd wrote the limit (the previous value stays)\n"),
		       strerror(w->st.err < 0 ? -w->st.err : w->st.err));
	}
	put_label(L_KERNEL_NOW);
	if (w->per_dev)
		printf(_("strict_limit %llu, max_bytes %llu, max_ratio_fine %llu ppm\n"),
		       (unsigned long long)w->strict, (unsigned long long)w->mb,
		       (unsigned long long)w->fine);
	else
		printf("%s\n", _("no per-device strict_limit/max_bytes (Linux < 6.2)"));
	if (w->other) {
		char t[512];
		other_text(w, running, true, t, sizeof(t));
		put_label(L_OTHER);
		printf("%s\n", t);
	}
	if (w->has_vm && (w->dirty_bytes || w->dirty_background_bytes)) {
		char a[32], b[32];
		bytes_text(a, sizeof(a), w->dirty_bytes, BYTES_KIB_DOWN);
		bytes_text(b, sizeof(b), w->dirty_background_bytes, BYTES_KIB_DOWN);
		put_label(L_VM);
		/* TRANSLATORS: the sysctls vm.dirty_bytes and
		 * vm.dirty_background_bytes; then what wbgovd does with them */
		printf(_("dirty_bytes %s, dirty_background_bytes %s (the kernel's default is 0: a "
			 "sysctl.d file?): %s\n"),
		       w->dirty_bytes ? a : "0", w->dirty_background_bytes ? b : "0",
		       w->per_dev ? _("wbgovd leaves them; no device cap can be above the threshold "
				      "they make") :
				    _("wbgovd replaces them while a slow device holds dirty data and "
				      "gives them back"));
	}
}

static void print_text(const struct gov_config *cfg, const struct why *w, bool running, bool first)
{
	print_device(w, first);
	print_measure(w, running);
	print_decision(cfg, w, running);
}

/* A list fact of knobs_dev as a JSON array of strings. */
static json_t *json_list(const char *list, size_t size)
{
	json_t *a = json_array();

	for (const char *p = knobs_list_next(list, size, NULL); a && p;
	     p = knobs_list_next(list, size, p))
		if (json_array_append_new(a, cli_json_text(p))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* schema 2, in wbgov(8): every key always there, null for unknown */
static json_t *device_json(const struct gov_config *cfg, const struct why *w, bool running)
{
	const struct knobs_dev *d = w->d;
	const struct gov_rule *rule = w->dec.rule;
	bool bw = w->has_st && w->bw;
	double drain = cli_pending_drain_s(&w->pend, w->bw);
	json_t *other = json_null();

	if (w->other) {
		char t[512];
		other_text(w, running, false, t, sizeof(t));
		other = json_pack("{s:s, s:I, s:I, s:o}", "when",
				  w->other == OTHER_BEFORE ? "before_wbgov" : "now", "strict_limit",
				  (json_int_t)w->other_strict, "max_ratio_fine", (json_int_t)w->other_fine,
				  "text", cli_json_text(t));
	}
	return json_pack(
		"{s:o, s:s, s:o, s:o, s:o, s:o, s:b, s:b, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		" s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		" s:o, s:o, s:o}",
		"bdi", cli_json_text(d->bdi), "kind", cli_kind_key(d), "disk", cli_json_text(d->disk),
		"model", cli_json_text_or_null(d->model), "serial", cli_json_text_or_null(d->serial),
		"bus", cli_json_text_or_null(d->bus), "removable", d->removable,
		"rotational", d->rotational, "fuse", d->is_fuse, "mounts", cli_json_mounts(&w->ml),
		"bandwidth_bps", cli_json_u64(bw, w->bw),
		"bandwidth_source", bw ? json_string(bw_source_key(w->st.source)) : json_null(),
		"windows", cli_json_u64(w->has_st, w->st.measures),
		"kernel_bandwidth_bps", cli_json_u64(w->has_kernel_bw, w->kernel_bw),
		"dirty_writeback_bytes", cli_json_u64(w->pend.source != PENDING_NONE, w->pend.bytes),
		"drain_s", cli_json_real(drain >= 0, drain, 2),
		"pending_source", w->pend.source != PENDING_NONE ?
			json_string(cli_pending_key[w->pend.source]) : json_null(),
		"usb", cli_json_text_or_null(d->usb), "wwn", cli_json_text_or_null(d->wwn),
		"labels", json_list(d->labels, sizeof(d->labels)),
		"uuids", json_list(d->uuids, sizeof(d->uuids)),
		"config", rule ? cli_json_text(cfg->files[rule->file]) : json_null(),
		"config_line", cli_json_u64(rule != NULL, rule ? rule->line : 0),
		"config_section", rule ? cli_json_text(rule->name) : json_null(),
		"decided_by", w->decided ? "wbgovd" : "what_if",
		"rule", cli_json_text(gov_why_text[w->dec.why]),
		"limit", !w->dec.govern ? "none" : !w->dec.strict ? "no_cap" :
			 w->per_dev ? "strict" : "global_dirty_bytes",
		"limit_bytes", cli_json_u64(w->dec.govern && w->dec.strict, w->dec.max_bytes),
		"write_error", w->decided && w->st.err ?
			cli_json_errno(w->st.err) : json_null(),
		"kernel_strict_limit", w->per_dev ? json_boolean(w->strict) : json_null(),
		"kernel_max_bytes", cli_json_u64(w->per_dev, w->mb),
		"kernel_max_ratio_fine", cli_json_u64(w->per_dev, w->fine), "other_rule", other,
		"vm_dirty_bytes", cli_json_u64(w->has_vm, w->dirty_bytes),
		"vm_dirty_background_bytes", cli_json_u64(w->has_vm, w->dirty_background_bytes),
		"nfs_commits", cli_json_u64(w->has_nfs, w->nfs.commits),
		"nfs_commit_ms", cli_json_real(w->has_nfs, commit_ms(w), 1),
		"nfs_pace_under_cap", cli_json_real(commit_pace(w) > 0, commit_pace(w), 3));
}

int cli_explain(const struct cli *o, const char *arg)
{
	static struct knobs_dev devs[MAXDEV];
	static struct cli_pending pend[MAXDEV];
	const char *bdis[MAXDEV];
	struct gov_config cfg;
	char err[512], sp[PATH_MAX];
	int n;
	bool running = cli_daemon_running(o);
	json_t *list;

	/* labels and UUIDs to show: a probe where udev keeps no database (as
	 * root; a user's probe of /dev finds nothing) */
	o->real->probe_fs = true;
	n = cli_resolve(o, arg, devs, MAXDEV);

	if (n < 0) {
		fprintf(stderr, _("wbgov explain: no such device or path: %s\n"), arg);
		return EX_UNAVAILABLE;
	}
	if (conffile_load(o->config, !strcmp(o->config, CONFFILE_DEFAULT_PATH), &cfg, err, sizeof(err))) {
		fprintf(stderr, "wbgov explain: %s\n", err);
		return EX_CONFIG;
	}
	cli_path_in(sp, sizeof(sp), o, "status");
	list = o->json ? json_array() : NULL;
	for (int i = 0; i < n; i++)
		bdis[i] = devs[i].bdi;
	cli_pending_fill(o, bdis, pend, n);
	for (int i = 0; i < n; i++) {
		struct why w;
		gather(o, &cfg, sp, running, &devs[i], &pend[i], &w);
		if (!o->json)
			print_text(&cfg, &w, running, i == 0);
		else if (list && json_array_append_new(list, device_json(&cfg, &w, running)))
			json_decref(list), list = NULL;
	}
	if (o->json) {
		int r = cli_json_print(stdout, json_pack("{s:i, s:b, s:o}", "schema", 2,
							 "wbgovd_running", running, "devices", list),
				       false);
		if (r == -ENOMEM)
			fprintf(stderr, "wbgov explain: %s\n", strerror(ENOMEM));
		return r == -ENOMEM ? EX_OSERR : r ? EX_IOERR : 0;
	}
	return 0;
}
