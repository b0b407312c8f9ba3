/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov apply --once and restore: the rule in one pass without the daemon,
 * and every recorded knob given back; each under the state directory's
 * lock, as wbgovd, from the state file's read to its last write. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policy/governor.h"
#include "sys/conffile.h"
#include "sys/fsutil.h"
#include "sys/pidlock.h"
#include "sys/state.h"

static void report_restore(void *ctx, const char *owner, const char *knob, int err)
{
	(void)ctx;
	fprintf(stderr, _("wbgov restore: %s: could not give back %s: %s\n"), owner, knob,
		strerror(-err));
}

/* The state directory's lock, taken without waiting: the descriptor, or
 * a line naming who holds it (and what that means to `cmd`) and an exit
 * status, negated. */
static int lock(const struct cli *o, const char *cmd)
{
	struct pidlock_holder h;
	char p[PATH_MAX], who[64];
	int fd;

	cli_path_in(p, sizeof(p), o, "wbgovd.lock");
	fd = pidlock_take(p, &h);
	if (fd >= 0)
		return fd;
	if (fd != -EBUSY) {
		fprintf(stderr, _("wbgov %s: the lock %s: %s\n"), cmd, p, strerror(-fd));
		return -EX_CANTCREAT;
	}
	pidlock_holder_text(&h, who, sizeof(who));
	if (!strcmp(h.comm, "wbgovd"))
		fprintf(stderr, _("wbgov %s: the lock %s is held by %s: wbgovd is running%s\n"), cmd, p,
			who, !strcmp(cmd, "restore") ? _("; stop it (it gives every knob back)") :
			_(" and already applies the limits"));
	else
		fprintf(stderr, _("wbgov %s: the lock %s is held by %s (another apply or restore?); "
			"nothing done\n"), cmd, p, who);
	return -EX_TEMPFAIL;
}

int cli_restore(const struct cli *o)
{
	static struct state st;
	char p[PATH_MAX];
	struct stat sb;
	int r, fd;

	if (geteuid() != 0 && !strcmp(o->root, "/")) {
		fprintf(stderr, _("wbgov restore: writing the kernel's knobs needs root\n"));
		return EX_NOPERM;
	}
	/* no state directory: nothing was ever recorded (and none is made) */
	if (stat(o->state_dir, &sb) < 0 && errno == ENOENT) {
		printf("nothing to restore\n");
		return 0;
	}
	r = dir_of_ours(o->state_dir);
	if (r) {
		fprintf(stderr, _("wbgov restore: %s: %s\n"), o->state_dir, state_dir_text(r));
		return EX_CANTCREAT;
	}
	fd = lock(o, "restore");
	if (fd < 0)
		return -fd;
	cli_path_in(p, sizeof(p), o, "state");
	r = state_load(p, &st);
	if (r == -ENOENT) {
		printf("nothing to restore\n");
		close(fd);
		return 0;
	}
	if (r) {
		fprintf(stderr, _("wbgov restore: %s: %s\n"), p,
			r == -EINVAL ? _("malformed, or not a regular file") : file_trust_text(r));
		close(fd);
		return EX_DATAERR;
	}
	{
		int n = st.n + (st.vm_saved ? 1 : 0);
		int bad_n = state_restore(&knobs_real_ops, o->real, &st, report_restore, NULL);
		r = state_save(p, &st);
		if (r)
			fprintf(stderr, _("wbgov restore: %s: %s\n"), p, strerror(-r));
		/* the last line, in every language: what scripts read (wbgov(8)) */
		printf("restored %d of %d\n", n - bad_n, n);
		close(fd);
		return bad_n || r ? 1 : 0;
	}
}

struct apply_ctx {
	struct state st;
	char path[PATH_MAX];
};

/* The originals reach the state file before the knob changes. */
static int hook_save(void *ctx, const struct gov_dev *d)
{
	struct apply_ctx *a = ctx;

	return state_record_bdi(&a->st, a->path, d->info.bdi, d->orig.strict_limit,
				d->orig.max_ratio_fine, d->orig.min_ratio_fine);
}

/* The global knobs are not apply's: from 6.2 wbgovd lowers the background
 * threshold while a capped device holds dirty data and gives it back once
 * none does, which one pass cannot; and apply's state file records bdis
 * alone, so `wbgov restore` could not give it back either. Refused, the
 * governor leaves them as they are. */
static int hook_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	(void)ctx;
	(void)vm;
	return -EOPNOTSUPP;
}

int cli_apply(const struct cli *o)
{
	static struct governor g;
	static struct apply_ctx a;
	struct gov_config cfg;
	struct gov_hooks h = { .ctx = &a, .save = hook_save, .save_vm = hook_save_vm };
	char err[512];
	int r, fd, failed = 0;

	if (!o->once)
		return cli_bad("apply runs one pass and needs --once", _("(wbgovd is the daemon)"));
	/* the machine's knobs need root; a tree under --root is files */
	if (geteuid() != 0 && !strcmp(o->root, "/")) {
		fprintf(stderr, _("wbgov apply: writing the kernel's knobs needs root\n"));
		return EX_NOPERM;
	}
	if (conffile_load(o->config, !strcmp(o->config, CONFFILE_DEFAULT_PATH), &cfg, err, sizeof(err))) {
		fprintf(stderr, _("wbgov apply: %s\n"), err);
		return EX_CONFIG;
	}
	/* before 6.2 the cap is the global dirty_bytes, applied while a slow
	 * device holds dirty data and given back when it has none: a single
	 * pass can only leave it wrong */
	if (!(knobs_real_ops.features(o->real) & KNOBS_BDI_BYTES)) {
		fprintf(stderr, _("wbgov apply: this kernel has no per-device strict_limit and "
				"max_bytes (Linux < 6.2), and the global dirty_bytes must follow the "
				"writes, which only wbgovd does; nothing was changed\n"));
		return EX_UNAVAILABLE;
	}
	r = dir_of_ours(o->state_dir);
	if (r) {
		fprintf(stderr, _("wbgov apply: %s: %s\n"), o->state_dir,
			state_dir_text(r));
		return EX_CANTCREAT;
	}
	/* held to the end: the originals recorded are the ones found */
	fd = lock(o, "apply");
	if (fd < 0)
		return -fd;
	cli_path_in(a.path, sizeof(a.path), o, "state");
	r = state_load(a.path, &a.st);
	if (r && r != -ENOENT) {
		fprintf(stderr, _("wbgov apply: %s: unreadable; run wbgov restore first\n"), a.path);
		close(fd);
		return EX_DATAERR;
	}
	if (r == -ENOENT)
		state_free(&a.st);
	gov_init(&g, &cfg, &knobs_real_ops, o->real, &h);
	gov_tick(&g, 0); /* facts only: nothing is measured in one pass */
	for (int i = 0; i < g.ndev; i++) {
		const struct gov_dev *d = &g.dev[i];
		if (d->err && d->err_op == GOV_ERR_RECORD) {
			/* nothing was written to a device whose originals could
			 * not be recorded */
			failed++;
			fprintf(stderr, _("wbgov apply: %s: its knobs could not be recorded in %s (%s); "
					"left as they are\n"), d->info.bdi, a.path, strerror(-d->err));
		} else if (d->err) {
			failed++;
			fprintf(stderr, _("wbgov apply: %s: %s %s: %s%s\n"), d->info.bdi,
				d->err_op == GOV_ERR_READ ? _("reading") : _("writing"),
				bdi_attr_names[d->err_attr], strerror(-d->err),
				d->err_op == GOV_ERR_READ ? _("; left as it is") :
							    _(" (the previous value stays)"));
		} else if (d->dec.strict) {
			printf("%s (%s): max_bytes %.1f MiB, strict (%s)\n", d->info.disk, d->info.bdi,
			       (double)d->dec.max_bytes / MIB, gov_why_text[d->dec.why]);
		}
	}
	close(fd);
	return failed ? (failed == g.ndev ? EX_NOPERM : 1) : 0;
}

