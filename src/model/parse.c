/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "model/parse.h"
#include "model/units.h"

#define MB 1000000ULL


/* A decimal number with up to three decimals, in thousandths. */
static int parse_milli(const char **sp, uint64_t *ret)
{
	const char *s = *sp;
	uint64_t v = 0, frac = 0;
	int nd = 0, nf = 0;

	while (*s >= '0' && *s <= '9') {
		if (v > UINT64_MAX / 10 - 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s++ - '0');
		nd++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (nf == 3)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*s++ - '0');
			nf++;
		}
		if (!nf)
			return -EINVAL;
	}
	if (!nd)
		return -EINVAL;
	while (nf++ < 3)
		frac *= 10;
	if (v > (UINT64_MAX - 999) / 1000) /* the unit's product is checked after */
		return -EINVAL;
	*ret = v * 1000 + frac;
	*sp = s;
	return 0;
}

static int mul_milli(uint64_t milli, uint64_t unit, uint64_t *ret)
{
	if (unit && milli > UINT64_MAX / unit)
		return -EINVAL;
	*ret = milli * unit / 1000;
	return 0;
}

int parse_size(const char *s, uint64_t *ret)
{
	uint64_t m, unit = 1;

	if (!s || parse_milli(&s, &m))
		return -EINVAL;
	switch (*s) {
	case 'K': case 'k': unit = 1024; s++; break;
	case 'M': unit = MIB; s++; break;
	case 'G': unit = GIB; s++; break;
	case 'T': unit = 1024 * GIB; s++; break;
	default: break;
	}
	if (unit > 1 && !strcmp(s, "iB"))
		s += 2;
	else if (*s == 'B')
		s++;
	if (*s)
		return -EINVAL;
	return mul_milli(m, unit, ret);
}

int parse_speed(const char *s, uint64_t *ret)
{
	uint64_t m, unit = MB;

	if (!s || parse_milli(&s, &m))
		return -EINVAL;
	switch (*s) {
	case 'k': case 'K': unit = 1000; s++; break;
	case 'M': unit = MB; s++; break;
	case 'G': unit = 1000 * MB; s++; break;
	default:
		if (*s == 'B')
			unit = 1;
		break;
	}
	if (!strcmp(s, "B/s"))
		s += 3;
	else if (!strcmp(s, "B"))
		s += 1;
	if (*s)
		return -EINVAL;
	return mul_milli(m, unit, ret);
}

int parse_ms(const char *s, uint64_t *ret)
{
	uint64_t m;

	if (!s || parse_milli(&s, &m))
		return -EINVAL;
	if (!strcmp(s, "ms")) {
		if (m % 1000)
			return -EINVAL;
		m /= 1000;
		s += 2;
	} else if (*s == 's') {
		s++;
	}
	if (*s)
		return -EINVAL;
	*ret = m;
	return 0;
}

/* v, parsed (r: 0) and within [min, max], into *ret. */
static int in_range(int r, uint64_t v, uint64_t min, uint64_t max, uint64_t *ret)
{
	if (r)
		return r;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_size_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	int r = parse_size(s, &v);

	return in_range(r, v, min, max, ret);
}

int parse_ms_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	int r = parse_ms(s, &v);

	return in_range(r, v, min, max, ret);
}
