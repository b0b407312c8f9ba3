/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The device memory file (memfile.h says what it holds and when it is
 * trusted): parsed, read and written, and its figures got and put. No
 * clock and no log: the caller says when, and says what went wrong. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sys/fsutil.h"
#include "sys/memfile.h"

static bool id_ok(const char *id)
{
	if (!*id || strlen(id) >= KNOBS_ID_MAX)
		return false;
	for (; *id; id++)
		if (*id <= ' ' || *id > '~')
			return false;
	return true;
}

/* One "v1 BPS SOURCE WHEN ID" line, without its newline. */
static int parse_line(const char *line, struct memory_entry *e)
{
	char bps[24], when[24], src[4], id[KNOBS_ID_MAX + 1];
	int n = -1;

	if (sscanf(line, "v1 %23s %3s %23s %160s%n", bps, src, when, id, &n) != 4 || n < 0 ||
	    line[n])
		return -EINVAL;
	if (parse_u64(bps, &e->bps) || !e->bps || parse_u64(when, &e->when) ||
	    strlen(src) != 1 || !strchr("mfl", src[0]) || !id_ok(id))
		return -EINVAL;
	e->source = src[0];
	snprintf(e->id, sizeof(e->id), "%s", id);
	return 0;
}

int memory_parse(const char *text, struct memory *m, struct memory_dropped *ret_dropped)
{
	struct memory_dropped d = { 0 };
	const char *line = text;

	memset(m, 0, sizeof(*m));
	for (int no = 1; *line; no++) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[256];
		if (len && line[0] != '#') {
			/* malformed, the same device again, or past the room
			 * there is: that line goes, the others stay */
			bool ok = len < sizeof(buf) && m->n < MEMORY_MAX;
			if (ok) {
				memcpy(buf, line, len);
				buf[len] = 0;
				ok = !parse_line(buf, &m->e[m->n]) &&
				     !memory_get(m, m->e[m->n].id, NULL, NULL);
			}
			if (ok) {
				m->n++;
			} else {
				if (d.n < MEMORY_DROPPED_SHOWN)
					d.line[d.n] = no;
				d.n++;
			}
		}
		if (!eol)
			break;
		line = eol + 1;
	}
	memset(&m->e[m->n], 0, sizeof(m->e[0]) * (size_t)(MEMORY_MAX - m->n));
	if (ret_dropped)
		*ret_dropped = d;
	return d.n;
}

void memory_dropped_text(const struct memory_dropped *d, char *buf, size_t len)
{
	int shown = d->n < MEMORY_DROPPED_SHOWN ? d->n : MEMORY_DROPPED_SHOWN;
	size_t used;

	snprintf(buf, len, "line%s", d->n > 1 ? "s" : "");
	for (int i = 0; i < shown; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%d",
			 i == 0 ? " " : i == shown - 1 && shown == d->n ? " and " : ", ", d->line[i]);
	}
	used = strlen(buf);
	if (shown < d->n)
		snprintf(buf + used, len - used, ", ... (%d in all)", d->n);
}

int memory_load(const char *path, struct memory *m, struct memory_dropped *ret_dropped)
{
	char buf[MEMORY_FILE_MAX + 2];
	size_t len;
	int r;

	memset(m, 0, sizeof(*m));
	if (ret_dropped)
		memset(ret_dropped, 0, sizeof(*ret_dropped));
	r = file_read_trusted(path, false, buf, MEMORY_FILE_MAX, &len);
	if (r == -ENOENT)
		return 0;
	if (r)
		return r;
	memory_parse(buf, m, ret_dropped);
	return 0;
}

static int fill(FILE *f, const void *ctx)
{
	const struct memory *m = ctx;

	fputs("# wbgov: write bandwidth measured per device (wbgovd keeps it; see wbgovd(8))\n"
	      "# v1 BYTES_PER_S SOURCE(m measured, f fast, l a lower bound) UNIX_TIME ID\n", f);
	for (int i = 0; i < m->n; i++)
		fprintf(f, "v1 %llu %c %llu %s\n", (unsigned long long)m->e[i].bps, m->e[i].source,
			(unsigned long long)m->e[i].when, m->e[i].id);
	return 0;
}

int memory_save(const char *path, struct memory *m)
{
	int r = file_replace(path, fill, m);

	if (!r)
		m->dirty = false;
	return r;
}

uint64_t memory_get(const struct memory *m, const char *id, uint64_t *ret_when, char *ret_source)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].id, id)) {
			if (ret_when)
				*ret_when = m->e[i].when;
			if (ret_source)
				*ret_source = m->e[i].source;
			return m->e[i].bps;
		}
	return 0;
}

void memory_put(struct memory *m, const char *id, uint64_t bps, char source, uint64_t now)
{
	int i, oldest = 0;

	if (!id_ok(id) || !bps)
		return;
	for (i = 0; i < m->n && strcmp(m->e[i].id, id); i++)
		if (m->e[i].when < m->e[oldest].when)
			oldest = i;
	if (i < m->n) {
		uint64_t old = m->e[i].bps, d = old > bps ? old - bps : bps - old;
		if (d <= old / 8 && m->e[i].source == source) {
			/* the same figure: a device in use is not the oldest
			 * (one write a day at most) */
			if (now >= m->e[i].when + MEMORY_REFRESH_S) {
				m->e[i].when = now;
				m->dirty = true;
			}
			return;
		}
	} else if (m->n == MEMORY_MAX) {
		i = oldest;
	} else {
		i = m->n++;
	}
	snprintf(m->e[i].id, sizeof(m->e[i].id), "%s", id);
	m->e[i].bps = bps;
	m->e[i].source = source;
	m->e[i].when = now;
	m->dirty = true;
}
