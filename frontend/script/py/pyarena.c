/*
 * Region allocation for pipeline scripts (see pyarena.h). Memory comes in chunks of at
 * least 64 KiB; a request larger than a chunk gets a chunk of its own. Nothing is freed
 * before dalic_pyarena_free, except what a mark gives back: chunks come and go at the head
 * of the list (a big private chunk right behind the head), so what was added after a mark is
 * the list up to the marked head, plus the chunks between it and its old successor.
 */
#include "frontend/script/py/pyarena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (64 * 1024)
#define ALIGN 16

typedef struct chunk {
	struct chunk *next;
	size_t size, used;
	_Alignas(ALIGN) unsigned char data[];
} chunk_t;

struct pyarena {
	chunk_t *head;
	size_t budget, total;
};

pyarena_t *dalic_pyarena_new(size_t budget)
{
	pyarena_t *a = calloc(1, sizeof *a);
	if (a)
		a->budget = budget;
	return a;
}

void dalic_pyarena_free(pyarena_t *a)
{
	if (!a)
		return;
	for (chunk_t *c = a->head, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
}

void *dalic_pyarena_alloc(pyarena_t *a, size_t n)
{
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n == 0)
		n = ALIGN;
	if (a->budget && (n > a->budget || a->total > a->budget - n))
		return NULL;
	chunk_t *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		chunk_t *nc = malloc(sizeof *nc + size);
		if (!nc)
			return NULL;
		nc->size = size;
		nc->used = 0;
		/* a big private chunk goes behind the current one so its free space stays usable */
		if (c && size > CHUNK_BYTES) {
			nc->next = c->next;
			c->next = nc;
		} else {
			nc->next = c;
			a->head = nc;
		}
		c = nc;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *dalic_pyarena_strndup(pyarena_t *a, const char *s, size_t n)
{
	char *d = dalic_pyarena_alloc(a, n + 1);
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
	char *d = dalic_pyarena_alloc(a, (size_t)n + 1);
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

void dalic_pyarena_mark(const pyarena_t *a, pyarena_mark_t *m)
{
	chunk_t *h = a->head;
	m->chunk = h;
	m->next = h ? h->next : NULL;
	m->used = h ? h->used : 0;
	m->total = a->total;
}

/* Calls fn on every chunk added after m (fn may free it). */
static void pyarena_each_new(const pyarena_t *a, const pyarena_mark_t *m,
                             int (*fn)(chunk_t *c, const void *p), const void *p, int *hit)
{
	for (chunk_t *c = a->head, *n; c && c != m->next; c = n) {
		n = c->next;
		if (c != m->chunk && fn(c, p))
			*hit = 1;
	}
}

static int pyarena_in_chunk(chunk_t *c, const void *p)
{
	const unsigned char *q = p;
	return q >= c->data && q < c->data + c->used;
}

int dalic_pyarena_is_new(const pyarena_t *a, const pyarena_mark_t *m, const void *p)
{
	const chunk_t *mc = m->chunk;
	const unsigned char *q = p;
	if (mc && q >= mc->data + m->used && q < mc->data + mc->used)
		return 1;
	int hit = 0;
	pyarena_each_new(a, m, pyarena_in_chunk, p, &hit);
	return hit;
}

static int pyarena_free_chunk(chunk_t *c, const void *p)
{
	free(c);
	return 0;
}

void dalic_pyarena_release(pyarena_t *a, const pyarena_mark_t *m)
{
	int hit = 0;
	pyarena_each_new(a, m, pyarena_free_chunk, NULL, &hit);
	chunk_t *mc = m->chunk;
	a->head = mc;
	if (mc) {
		mc->next = m->next;
		mc->used = m->used;
	}
	a->total = m->total;
}
