/*
 * Region allocation for pipeline scripts (see pyarena.h). Memory comes in chunks of at
 * least 64 KiB, objects and raw bytes in separate lists; a request larger than a chunk gets a
 * chunk of its own. Every chunk carries a sequence number, so what was allocated after a
 * mark is exactly: the tail of the chunk current at the mark, and the chunks numbered after
 * it (a big chunk is linked behind the current one, but its number is newer).
 */
#include "frontend/script/py/pyarena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (64 * 1024)
#define ALIGN 16
#define MAX_NEW_RANGES 256

typedef struct chunk {
	struct chunk *next;
	size_t size, used;
	unsigned long seq;
	_Alignas(ALIGN) unsigned char data[];
} chunk_t;

typedef struct chunks {
	chunk_t *head;
} chunks_t;

struct pyarena {
	chunks_t obj, raw;
	size_t budget, total;
	unsigned long next_seq;
};

pyarena_t *dalic_pyarena_new(size_t budget)
{
	pyarena_t *a = calloc(1, sizeof *a);
	if (a)
		a->budget = budget;
	return a;
}

static void pyarena_free_list(chunk_t *c)
{
	for (chunk_t *n; c; c = n) {
		n = c->next;
		free(c);
	}
}

void dalic_pyarena_free(pyarena_t *a)
{
	if (!a)
		return;
	pyarena_free_list(a->obj.head);
	pyarena_free_list(a->raw.head);
	free(a);
}

static void *pyarena_take(pyarena_t *a, chunks_t *l, size_t n)
{
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n == 0)
		n = ALIGN;
	if (a->budget && (n > a->budget || a->total > a->budget - n))
		return NULL;
	chunk_t *c = l->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		chunk_t *nc = malloc(sizeof *nc + size);
		if (!nc)
			return NULL;
		nc->size = size;
		nc->used = 0;
		nc->seq = ++a->next_seq;
		/* a big private chunk goes behind the current one so its free space stays usable */
		if (c && size > CHUNK_BYTES) {
			nc->next = c->next;
			c->next = nc;
		} else {
			nc->next = c;
			l->head = nc;
		}
		c = nc;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

void *dalic_pyarena_alloc(pyarena_t *a, size_t n)
{
	return pyarena_take(a, &a->obj, n);
}

void *dalic_pyarena_alloc_raw(pyarena_t *a, size_t n)
{
	return pyarena_take(a, &a->raw, n);
}

char *dalic_pyarena_strndup(pyarena_t *a, const char *s, size_t n)
{
	char *d = dalic_pyarena_alloc_raw(a, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

char *dalic_pyarena_strdup(pyarena_t *a, const char *s)
{
	return dalic_pyarena_strndup(a, s, strlen(s));
}

char *dalic_pyarena_vprintf(pyarena_t *a, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	char *d = dalic_pyarena_alloc_raw(a, (size_t)n + 1);
	if (d)
		vsnprintf(d, (size_t)n + 1, fmt, ap);
	return d;
}

char *dalic_pyarena_printf(pyarena_t *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *d = dalic_pyarena_vprintf(a, fmt, ap);
	va_end(ap);
	return d;
}

size_t dalic_pyarena_used(const pyarena_t *a)
{
	return a->total;
}

/* ---- mark and release ----------------------------------------------------------------- */

static void pyarena_mark_list(const chunks_t *l, unsigned long newest, pyarena_mark_list_t *m)
{
	m->newest = newest;
	m->head = l->head ? l->head->seq : 0;
	m->used = l->head ? l->head->used : 0;
}

void dalic_pyarena_mark(const pyarena_t *a, pyarena_mark_t *m)
{
	memset(m, 0, sizeof *m);
	pyarena_mark_list(&a->obj, a->next_seq, &m->obj);
	pyarena_mark_list(&a->raw, a->next_seq, &m->raw);
	m->total = a->total;
}

/* Bytes of chunk c that existed at the mark (the rest is new). */
static size_t pyarena_old_bytes(const chunk_t *c, const pyarena_mark_list_t *m)
{
	if (c->seq > m->newest)
		return 0;
	return c->seq == m->head ? m->used : c->used;
}

typedef struct range {
	uintptr_t lo, hi;
} range_t;

/* The chunks of l holding memory made after the mark come first: newer chunks sit ahead of
 * the mark's chunk, and big ones made since sit right behind the chunk current then. */
static bool pyarena_past_new(const chunk_t *c, const pyarena_mark_list_t *m, bool *seen_head)
{
	if (c->seq == m->head && m->head)
		*seen_head = true;
	return *seen_head && c->seq <= m->newest && c->seq != m->head;
}

static int pyarena_list_has(const chunks_t *l, const pyarena_mark_list_t *m, const void *p)
{
	const unsigned char *q = p;
	bool seen = false;
	for (const chunk_t *c = l->head; c && !pyarena_past_new(c, m, &seen); c = c->next) {
		size_t old = pyarena_old_bytes(c, m);
		if (q >= c->data + old && q < c->data + c->used)
			return 1;
	}
	return 0;
}

int dalic_pyarena_is_new(const pyarena_t *a, const pyarena_mark_t *m, const void *p)
{
	return pyarena_list_has(&a->obj, &m->obj, p) || pyarena_list_has(&a->raw, &m->raw, p);
}

/* The address ranges allocated after the mark in list l; false when there are too many. */
static bool pyarena_new_ranges(const chunks_t *l, const pyarena_mark_list_t *m, range_t *r, int *n)
{
	for (const chunk_t *c = l->head; c; c = c->next) {
		size_t old = pyarena_old_bytes(c, m);
		if (old >= c->used)
			continue;
		if (*n == MAX_NEW_RANGES)
			return false;
		r[(*n)++] = (range_t){(uintptr_t)(c->data + old), (uintptr_t)(c->data + c->used)};
	}
	return true;
}

static bool pyarena_points_into(const void *p, size_t bytes, const range_t *r, int n)
{
	const unsigned char *b = p;
	for (size_t off = 0; off + sizeof(uintptr_t) <= bytes; off += sizeof(uintptr_t)) {
		uintptr_t w;
		memcpy(&w, b + off, sizeof w);
		for (int i = 0; i < n; i++)
			if (w >= r[i].lo && w < r[i].hi)
				return true;
	}
	return false;
}

/* Unlinks and frees the chunks of l made after the mark; the mark's chunk is cut back. */
static void pyarena_cut(chunks_t *l, const pyarena_mark_list_t *m)
{
	chunk_t **pp = &l->head;
	while (*pp) {
		chunk_t *c = *pp;
		if (c->seq > m->newest) {
			*pp = c->next;
			free(c);
			continue;
		}
		c->used = pyarena_old_bytes(c, m);
		pp = &c->next;
	}
}

void dalic_pyarena_release(pyarena_t *a, const pyarena_mark_t *m)
{
	pyarena_cut(&a->obj, &m->obj);
	pyarena_cut(&a->raw, &m->raw);
	a->total = m->total;
}

bool dalic_pyarena_release_unreferenced(pyarena_t *a, const pyarena_mark_t *m,
                                        const pyarena_root_t *roots, int nroots)
{
	range_t r[MAX_NEW_RANGES];
	int n = 0;
	if (!pyarena_new_ranges(&a->obj, &m->obj, r, &n) ||
	    !pyarena_new_ranges(&a->raw, &m->raw, r, &n))
		return false;
	if (n == 0)
		return true;
	for (const chunk_t *c = a->obj.head; c; c = c->next) {
		size_t old = pyarena_old_bytes(c, &m->obj);
		if (old && pyarena_points_into(c->data, old, r, n))
			return false;
	}
	for (int i = 0; i < nroots; i++)
		if (pyarena_points_into(roots[i].p, roots[i].n, r, n))
			return false;
	dalic_pyarena_release(a, m);
	return true;
}
