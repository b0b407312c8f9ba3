/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs/room.h"
#include "sys/fsutil.h"
#include "sys/state.h"
#include "sys/sysfs.h"

void state_free(struct state *st)
{
	free(st->bdi);
	memset(st, 0, sizeof(*st));
}

int state_load(const char *path, struct state *st)
{
	static char first[STATE_FILE_FIRST + 2];
	char *buf = first;
	size_t len, max = STATE_FILE_FIRST;
	int r;

	memset(st, 0, sizeof(*st));
	/* root acts on it: its own file, not a link, never blocking */
	while ((r = file_read_trusted(path, false, buf, max, &len)) == -EFBIG &&
	       max < STATE_FILE_MAX) {
		/* a line per bdi: a machine with many */
		max = max * 8 < STATE_FILE_MAX ? max * 8 : STATE_FILE_MAX;
		if (buf != first)
			free(buf);
		if (!(buf = malloc(max + 2)))
			return -ENOMEM;
	}
	if (!r)
		r = state_parse(buf, st);
	if (buf != first)
		free(buf);
	return r;
}

static int parse_lines(char *text, struct state *st)
{
	char *line, *save = NULL;
	char *buf = text;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char bdi[KNOBS_NAME_MAX], na[24], nb[24], nc[24], end;
		uint64_t a, b, c = KNOBS_KEEP;
		int n;

		if (line[0] == '#')
			continue;
		/* min_ratio_fine: recorded since wbgovd sets a floor (before 6.14);
		 * a line without it is an older wbgovd's, which left it alone */
		n = sscanf(line, "bdi %63s strict_limit %20s max_ratio_fine %20s min_ratio_fine %20s %c",
			   bdi, na, nb, nc, &end);
		if (n == 4 || (n == 3 && sscanf(line, "bdi %*s strict_limit %*s max_ratio_fine %*s %c",
						 &end) != 1)) {
			/* parse_u64, not %llu: that would take a sign; a name that
			 * is not one entry of /sys/class/bdi would lead the write
			 * anywhere ("../../../tmp/x") */
			if (parse_u64(na, &a) || parse_u64(nb, &b) ||
			    (n == 4 && (parse_u64(nc, &c) || c == KNOBS_KEEP)) || !sysfs_bdi_name_ok(bdi))
				return -EINVAL;
			if (state_put_bdi(st, bdi, a, b, c))
				return -ENOMEM;
		} else if (!strncmp(line, "vm ", 3)) {
			char *tok, *tsave = NULL;
			int k = 0;
			for (tok = strtok_r(line + 3, " ", &tsave); tok; tok = strtok_r(NULL, " ", &tsave), k++) {
				uint64_t v;
				if (k >= 2 * VM_KNOB_COUNT)
					break;
				if (k % 2 == 0) {
					if (strcmp(tok, vm_knob_names[k / 2]))
						break;
				} else {
					if (parse_u64(tok, &v))
						break;
					st->vm[k / 2] = v;
				}
			}
			if (k != 2 * VM_KNOB_COUNT || tok)
				return -EINVAL;
			st->vm_saved = true;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

int state_parse(char *text, struct state *st)
{
	int r;

	memset(st, 0, sizeof(*st));
	r = parse_lines(text, st);
	if (r)
		state_free(st); /* nothing half-read */
	return r;
}

static int fill_state(FILE *f, const void *ctx)
{
	const struct state *st = ctx;

	fprintf(f, "# wbgov: the values found on the knobs wbgovd changed; `wbgov restore` gives them back\n");
	for (int i = 0; i < st->n; i++)
		if (st->bdi[i].min_ratio_fine == KNOBS_KEEP)
			fprintf(f, "bdi %s strict_limit %llu max_ratio_fine %llu\n", st->bdi[i].bdi,
				(unsigned long long)st->bdi[i].strict_limit,
				(unsigned long long)st->bdi[i].max_ratio_fine);
		else
			fprintf(f, "bdi %s strict_limit %llu max_ratio_fine %llu min_ratio_fine %llu\n",
				st->bdi[i].bdi, (unsigned long long)st->bdi[i].strict_limit,
				(unsigned long long)st->bdi[i].max_ratio_fine,
				(unsigned long long)st->bdi[i].min_ratio_fine);
	if (st->vm_saved) {
		fputs("vm", f);
		for (int k = 0; k < VM_KNOB_COUNT; k++)
			fprintf(f, " %s %llu", vm_knob_names[k], (unsigned long long)st->vm[k]);
		fputc('\n', f);
	}
	return 0;
}

int state_save(const char *path, const struct state *st)
{
	if (!st->n && !st->vm_saved) {
		if (unlink(path) < 0 && errno != ENOENT)
			return -errno;
		return 0;
	}
	return file_replace(path, fill_state, st);
}

int state_put_bdi(struct state *st, const char *bdi, uint64_t strict_limit, uint64_t max_ratio_fine,
		  uint64_t min_ratio_fine)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->bdi[i].bdi, bdi))
			return 0; /* the first record is what was found; keep it */
	if (!room_for(&st->bdi, &st->room, st->n + 1, sizeof(*st->bdi)))
		return -ENOMEM;
	snprintf(st->bdi[i].bdi, sizeof(st->bdi[i].bdi), "%s", bdi);
	st->bdi[i].strict_limit = strict_limit;
	st->bdi[i].max_ratio_fine = max_ratio_fine;
	st->bdi[i].min_ratio_fine = min_ratio_fine;
	st->bdi[i].held = false;
	st->n++;
	return 0;
}

int state_record_bdi(struct state *st, const char *path, const char *bdi, uint64_t strict_limit,
		     uint64_t max_ratio_fine, uint64_t min_ratio_fine)
{
	int r = state_put_bdi(st, bdi, strict_limit, max_ratio_fine, min_ratio_fine);

	return r ? r : state_save(path, st);
}

void state_del_bdi(struct state *st, const char *bdi)
{
	for (int i = 0; i < st->n; i++)
		if (!strcmp(st->bdi[i].bdi, bdi)) {
			st->bdi[i] = st->bdi[--st->n];
			return;
		}
}

int state_restore(const struct knobs_ops *ops, void *kctx, struct state *st,
		  void (*report)(void *ctx, const char *owner, const char *knob, int err), void *ctx)
{
	int failures = 0;

	for (int i = 0; i < st->n;) {
		struct state_bdi *b = &st->bdi[i];
		enum bdi_attr a;
		int r = knobs_bdi_restore(ops, kctx, b->bdi, b->strict_limit, b->max_ratio_fine,
					  b->min_ratio_fine, &a);

		if (!r) {
			*b = st->bdi[--st->n];
			continue;
		}
		b->held = true;
		if (report)
			report(ctx, b->bdi, bdi_attr_names[a], r);
		failures++;
		i++;
	}
	if (st->vm_saved) {
		enum vm_knob k = VM_DIRTY_BYTES;
		int r = knobs_vm_restore(ops, kctx, st->vm, &k);
		if (r < 0) {
			failures++;
			st->vm_held = true;
			if (report)
				report(ctx, "vm", vm_knob_names[k], r);
		} else {
			st->vm_saved = false;
			st->vm_held = false;
		}
	}
	return failures;
}

bool state_bdi_held(const struct state *st, const char *bdi)
{
	for (int i = 0; i < st->n; i++)
		if (!strcmp(st->bdi[i].bdi, bdi))
			return st->bdi[i].held;
	return false;
}
