/*
 * Lock-free event ring (see trace_ring.h). Fields are packed into five 64-bit atomics so a
 * concurrent reader is never a data race in the C11 sense; the seqlock makes it consistent.
 * A slot's sequence is pos+1 once event `pos` is published and -(pos+1) while its writer
 * owns it: writers take a slot by compare-and-swap, so two writers a lap apart never mix
 * their fields — the one that finds the slot owned, or already holding a newer event, drops
 * its own event (counted as lost) instead.
 */
#include "stats/trace_ring.h"

#include "dalic.h"

#include <stdlib.h>

int dalic_trace_ring_init(dalic_trace_ring_t *r, int capacity)
{
	int64_t cap = 1024;
	while (cap < capacity)
		cap <<= 1;
	r->slots = calloc((size_t)cap, sizeof *r->slots);
	if (!r->slots)
		return DALIC_ENOMEM;
	r->mask = cap - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->start, 0);
	atomic_init(&r->lost, 0);
	return DALIC_OK;
}

void dalic_trace_ring_free(dalic_trace_ring_t *r)
{
	free(r->slots);
	r->slots = NULL;
}

void dalic_trace_ring_reset(dalic_trace_ring_t *r)
{
	atomic_store(&r->start, atomic_load(&r->head));
	atomic_store(&r->lost, 0);
}

void dalic_trace_ring_push(dalic_trace_ring_t *r, const dalic_trace_event_t *ev)
{
	int64_t pos = atomic_fetch_add_explicit(&r->head, 1, memory_order_relaxed);
	dalic_trace_slot_t *s = &r->slots[pos & r->mask];
	/* claim the slot: it holds an older event (or none) and nobody is writing it */
	int64_t cur = atomic_load_explicit(&s->seq, memory_order_relaxed);
	do {
		if (cur < 0 || cur > pos + 1) {
			/* a writer a lap behind or ahead owns it: ours is the event to lose */
			atomic_fetch_add_explicit(&r->lost, 1, memory_order_relaxed);
			return;
		}
	} while (!atomic_compare_exchange_weak_explicit(
	    &s->seq, &cur, -(pos + 1), memory_order_relaxed, memory_order_relaxed));
	atomic_thread_fence(memory_order_release);
	uint64_t w0 = (uint64_t)(uint8_t)ev->type | ((uint64_t)(uint32_t)ev->thread << 8) |
	              ((uint64_t)(ev->id & 0xffffff) << 40);
	atomic_store_explicit(&s->w[0], (int64_t)w0, memory_order_relaxed);
	atomic_store_explicit(&s->w[1], ev->iteration, memory_order_relaxed);
	atomic_store_explicit(&s->w[2], ev->t0, memory_order_relaxed);
	atomic_store_explicit(&s->w[3], ev->t1, memory_order_relaxed);
	atomic_store_explicit(
	    &s->w[4], (int64_t)((uint64_t)(uint32_t)ev->a | ((uint64_t)(uint32_t)ev->b << 32)),
	    memory_order_relaxed);
	atomic_store_explicit(&s->w[5], ev->cpu, memory_order_relaxed);
	atomic_store_explicit(&s->seq, pos + 1, memory_order_release);
}

static int64_t ring_first_held(const dalic_trace_ring_t *r, int64_t head)
{
	int64_t start = atomic_load(&r->start);
	int64_t oldest = head - (r->mask + 1);
	return oldest > start ? oldest : start;
}

int64_t dalic_trace_ring_recorded(const dalic_trace_ring_t *r)
{
	return atomic_load(&r->head) - atomic_load(&r->start);
}

int64_t dalic_trace_ring_dropped(const dalic_trace_ring_t *r)
{
	int64_t head = atomic_load(&r->head);
	return ring_first_held(r, head) - atomic_load(&r->start) + atomic_load(&r->lost);
}

int64_t dalic_trace_ring_each(const dalic_trace_ring_t *r,
                              void (*fn)(void *user, const dalic_trace_event_t *ev), void *user)
{
	int64_t head = atomic_load(&r->head), n = 0;
	for (int64_t pos = ring_first_held(r, head); pos < head; pos++) {
		const dalic_trace_slot_t *s = &r->slots[pos & r->mask];
		if (atomic_load_explicit(&s->seq, memory_order_acquire) != pos + 1)
			continue; /* still being written, or already overwritten */
		uint64_t w[6];
		for (int i = 0; i < 6; i++)
			w[i] = (uint64_t)atomic_load_explicit(&s->w[i], memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->seq, memory_order_relaxed) != pos + 1)
			continue;
		dalic_trace_event_t ev = {
		    .type = (int)(w[0] & 0xff),
		    .thread = (int)(uint32_t)(w[0] >> 8),
		    .id = (int)((w[0] >> 40) & 0xffffff),
		    .iteration = (int64_t)w[1],
		    .t0 = (int64_t)w[2],
		    .t1 = (int64_t)w[3],
		    .a = (int)(uint32_t)w[4],
		    .b = (int)(uint32_t)(w[4] >> 32),
		    .cpu = (int64_t)w[5],
		};
		fn(user, &ev);
		n++;
	}
	return n;
}
