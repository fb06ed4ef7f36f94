/*
 * Region allocation for pipeline scripts (see pyarena.h). Memory comes in chunks of at
 * least 64 KiB, objects and raw bytes in separate lists; a request larger than a chunk gets a
 * chunk of its own. Every chunk carries a sequence number, so what was allocated after a
 * mark is exactly: the tail of the chunk current at the mark, and the chunks numbered after
 * it (a big chunk is linked behind the current one, but its number is newer).
 *
 * The runtime heap (pyarena.h): while heap mode is on, every allocation is logged (address,
 * size, kind) and sizes are rounded to classes; a collection marks from the memory allocated
 * before the heap began and from the roots, and puts what it did not reach on per-class free
 * lists that later heap allocations take first (a big one's private chunk is freed).
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

/* A heap allocation: [lo, lo + size). */
typedef struct heapobj {
	uintptr_t lo;
	size_t size;
	unsigned char raw, big, mark;
} heapobj_t;

#define HEAP_SMALL 2048 /* up to here classes step by ALIGN; above, by powers of two */
#define HEAP_CLASSES (HEAP_SMALL / ALIGN + 6)

typedef struct heap {
	bool on, started;
	pyarena_mark_t base; /* what existed when the heap began: the permanent roots */
	heapobj_t *v;        /* live heap allocations (sorted by address during a collection) */
	size_t n, cap;
	void *free_obj[HEAP_CLASSES], *free_raw[HEAP_CLASSES];
	size_t *work; /* the collection's mark stack (indices into v) */
	size_t nwork;
	uintptr_t min, max;
} heap_t;

struct pyarena {
	chunks_t obj, raw;
	size_t budget, total;
	unsigned long next_seq;
	heap_t heap;
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
	free(a->heap.v);
	free(a->heap.work);
	free(a);
}

/* The size class of a rounded heap size (HEAP_CLASSES for a big one). */
static int pyarena_heap_class(size_t n)
{
	if (n <= HEAP_SMALL)
		return (int)(n / ALIGN) - 1;
	int k = HEAP_SMALL / ALIGN;
	for (size_t s = 2 * HEAP_SMALL; s <= CHUNK_BYTES; s *= 2, k++)
		if (n <= s)
			return k;
	return HEAP_CLASSES;
}

static size_t pyarena_heap_round(size_t n)
{
	if (n <= HEAP_SMALL || n > CHUNK_BYTES)
		return n;
	size_t s = 2 * HEAP_SMALL;
	while (s < n)
		s *= 2;
	return s;
}

/* Room for one more logged allocation. */
static bool pyarena_heap_reserve(heap_t *h)
{
	if (h->n < h->cap)
		return true;
	size_t cap = h->cap ? 2 * h->cap : 256;
	heapobj_t *v = realloc(h->v, sizeof *v * cap);
	if (!v)
		return false;
	h->v = v;
	h->cap = cap;
	return true;
}

static void *pyarena_take(pyarena_t *a, chunks_t *l, size_t n)
{
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (n == 0)
		n = ALIGN;
	heap_t *h = &a->heap;
	bool raw = l == &a->raw;
	if (h->on)
		n = pyarena_heap_round(n);
	if (a->budget && (n > a->budget || a->total > a->budget - n))
		return NULL;
	int cls = h->on ? pyarena_heap_class(n) : HEAP_CLASSES;
	void **fl = cls < HEAP_CLASSES ? (raw ? &h->free_raw[cls] : &h->free_obj[cls]) : NULL;
	if (h->on && !pyarena_heap_reserve(h))
		return NULL;
	if (fl && *fl) {
		void *p = *fl;
		h->v[h->n++] = (heapobj_t){(uintptr_t)p, n, raw, 0, 0};
		memcpy(fl, p, sizeof(void *));
		memset(p, 0, n);
		a->total += n;
		return p;
	}
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
	if (h->on)
		h->v[h->n++] = (heapobj_t){(uintptr_t)p, n, raw, n > CHUNK_BYTES, 0};
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

/* ---- the runtime heap ------------------------------------------------------------------- */

void dalic_pyarena_heap_enter(pyarena_t *a)
{
	heap_t *h = &a->heap;
	if (!h->started) {
		dalic_pyarena_mark(a, &h->base);
		h->started = true;
	}
	h->on = true;
}

void dalic_pyarena_heap_leave(pyarena_t *a)
{
	a->heap.on = false;
}

size_t dalic_pyarena_heap_live(const pyarena_t *a)
{
	return a->heap.n;
}

static int pyarena_heap_cmp(const void *x, const void *y)
{
	uintptr_t a = ((const heapobj_t *)x)->lo, b = ((const heapobj_t *)y)->lo;
	return a < b ? -1 : a > b;
}

/* The heap allocation holding address w, or NULL. */
static heapobj_t *pyarena_heap_find(const heap_t *h, uintptr_t w)
{
	if (w < h->min || w >= h->max)
		return NULL;
	size_t lo = 0, hi = h->n;
	while (lo < hi) { /* the first allocation starting above w */
		size_t mid = lo + (hi - lo) / 2;
		if (h->v[mid].lo <= w)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	heapobj_t *o = &h->v[lo - 1];
	return w < o->lo + o->size ? o : NULL;
}

/* Marks what the words of [p, p + n) point into; the stack gets the objects to scan. A
 * conservative scan reads every word, a suspended stack's padding included, so the
 * sanitizer's poisoned stack redzones are not its concern. */
__attribute__((no_sanitize_address)) static void pyarena_heap_words(heap_t *h, const void *p,
                                                                   size_t n)
{
	const unsigned char *b = p;
	for (size_t off = 0; off + sizeof(uintptr_t) <= n; off += sizeof(uintptr_t)) {
		uintptr_t w = *(const uintptr_t *)(const void *)(b + off);
		heapobj_t *o = pyarena_heap_find(h, w);
		if (!o || o->mark)
			continue;
		o->mark = 1;
		if (!o->raw)
			h->work[h->nwork++] = (size_t)(o - h->v);
	}
}

static void pyarena_heap_drain(heap_t *h)
{
	while (h->nwork) {
		const heapobj_t *o = &h->v[h->work[--h->nwork]];
		pyarena_heap_words(h, (const void *)o->lo, o->size);
	}
}

int dalic_pyarena_gc_begin(pyarena_t *a)
{
	heap_t *h = &a->heap;
	free(h->work);
	h->nwork = 0;
	if (!(h->work = malloc(sizeof *h->work * (h->n + 1))))
		return -1;
	if (h->n) /* qsort(NULL, 0) is undefined */
		qsort(h->v, h->n, sizeof *h->v, pyarena_heap_cmp);
	h->min = h->n ? h->v[0].lo : 0;
	h->max = 0;
	for (size_t i = 0; i < h->n; i++) {
		h->v[i].mark = 0;
		if (h->v[i].lo + h->v[i].size > h->max)
			h->max = h->v[i].lo + h->v[i].size;
	}
	/* the memory made before the heap began is reachable by definition */
	for (const chunk_t *c = a->obj.head; c; c = c->next) {
		size_t old = pyarena_old_bytes(c, &h->base.obj);
		if (old)
			pyarena_heap_words(h, c->data, old);
	}
	pyarena_heap_drain(h);
	return 0;
}

void dalic_pyarena_gc_scan(pyarena_t *a, const void *p, size_t n)
{
	pyarena_heap_words(&a->heap, p, n);
	pyarena_heap_drain(&a->heap);
}

bool dalic_pyarena_gc_live(const pyarena_t *a, const void *p)
{
	const heapobj_t *o = pyarena_heap_find(&a->heap, (uintptr_t)p);
	return !o || o->mark;
}

/* Unlinks the private chunk whose data is p from list l; true when found. */
static bool pyarena_unlink_big(chunks_t *l, uintptr_t p)
{
	for (chunk_t **pp = &l->head; *pp; pp = &(*pp)->next)
		if ((uintptr_t)(*pp)->data == p) {
			chunk_t *c = *pp;
			*pp = c->next;
			free(c);
			return true;
		}
	return false;
}

void dalic_pyarena_gc_sweep(pyarena_t *a)
{
	heap_t *h = &a->heap;
	size_t k = 0;
	for (size_t i = 0; i < h->n; i++) {
		heapobj_t *o = &h->v[i];
		if (o->mark) {
			h->v[k++] = *o;
			continue;
		}
		a->total -= o->size;
		if (o->big) {
			pyarena_unlink_big(o->raw ? &a->raw : &a->obj, o->lo);
			continue;
		}
		int cls = pyarena_heap_class(o->size);
		void **fl = o->raw ? &h->free_raw[cls] : &h->free_obj[cls];
		memset((void *)o->lo, 0, o->size);
		memcpy((void *)o->lo, fl, sizeof(void *));
		*fl = (void *)o->lo;
	}
	h->n = k;
	free(h->work);
	h->work = NULL;
	h->nwork = 0;
}
