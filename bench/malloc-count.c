/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LD_PRELOAD shim for bench/real-usb: counts malloc/calloc/realloc calls
 * and writes the count to $MALLOC_COUNT_FILE when the process exits. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long calls;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);

/* dlsym may calloc before real_calloc is known: serve it from here */
static char boot[4096];
static size_t boot_used;

static void *boot_alloc(size_t n)
{
	void *p = boot + boot_used;
	boot_used += (n + 15) & ~(size_t)15;
	return boot_used <= sizeof(boot) ? p : NULL;
}

void *malloc(size_t n)
{
	if (!real_malloc)
		real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	calls++;
	return real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	static int resolving;
	if (!real_calloc) {
		if (resolving)
			return boot_alloc(a * b);
		resolving = 1;
		real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
		resolving = 0;
	}
	calls++;
	return real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	if (!real_realloc)
		real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	calls++;
	return real_realloc(p, n);
}

void free(void *p)
{
	static void (*real_free)(void *);
	if ((char *)p >= boot && (char *)p < boot + sizeof(boot))
		return;
	if (!real_free)
		real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	real_free(p);
}

__attribute__((destructor)) static void report(void)
{
	const char *f = getenv("MALLOC_COUNT_FILE");
	FILE *o;
	if (f && (o = fopen(f, "w"))) {
		fprintf(o, "%llu\n", calls);
		fclose(o);
	}
}
