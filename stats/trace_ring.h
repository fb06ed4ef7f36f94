/*
 * The trace ring: a fixed array of events that executor threads append to without locks and
 * an exporter reads while they run. A writer claims a position with one fetch_add, marks the
 * slot busy, stores the fields and publishes the position as the slot's sequence number
 * (a per-slot seqlock); a reader accepts a slot only when the sequence it reads before and
 * after the fields equals the position it expects, so it never returns a torn or overwritten
 * event. When the ring is full the oldest events are overwritten and counted as dropped.
 * Writers own a slot while they fill it; a writer that finds its slot owned by a writer a lap
 * away (only when a writer stalls for a whole lap of the ring) drops its event, counted as
 * lost among the dropped — an event may be lost that way, never torn.
 */
#ifndef DALIC_STATS_TRACE_RING_H
#define DALIC_STATS_TRACE_RING_H

#include <stdatomic.h>
#include <stdint.h>

enum {
	DALIC_TRACE_NODE = 1,  /* id = node index, a = batch */
	DALIC_TRACE_CHUNK,     /* id = node index, thread, a = first sample, b = count, cpu */
	DALIC_TRACE_STAGE,     /* id = stage */
	DALIC_TRACE_WAIT,      /* id = wait kind */
	DALIC_TRACE_QUEUE,     /* id = queue, a = occupancy, b = depth; t0 == t1 */
	DALIC_TRACE_ITERATION, /* t0 = scheduled, t1 = ready */
};

typedef struct dalic_trace_event {
	int type, id, thread;
	int a, b;
	int64_t iteration;
	int64_t t0, t1;
	int64_t cpu; /* CHUNK, NODE: thread CPU ns */
} dalic_trace_event_t;

typedef struct dalic_trace_slot {
	_Atomic int64_t seq; /* position + 1 when published, -(position + 1) while written */
	_Atomic int64_t w[6];
} dalic_trace_slot_t;

typedef struct dalic_trace_ring {
	dalic_trace_slot_t *slots;
	int64_t mask;          /* capacity - 1; capacity is a power of two */
	_Atomic int64_t head;  /* next position */
	_Atomic int64_t start; /* positions before this were reset away */
	_Atomic int64_t lost;  /* events dropped because their slot was owned */
} dalic_trace_ring_t;

/* Allocates room for at least `capacity` events (rounded up to a power of two). */
int dalic_trace_ring_init(dalic_trace_ring_t *r, int capacity);
void dalic_trace_ring_free(dalic_trace_ring_t *r);
/* Forgets the events recorded so far (a racing append may survive). */
void dalic_trace_ring_reset(dalic_trace_ring_t *r);
void dalic_trace_ring_push(dalic_trace_ring_t *r, const dalic_trace_event_t *ev);
/* Events recorded since the last reset, and how many of them were overwritten or lost. */
int64_t dalic_trace_ring_recorded(const dalic_trace_ring_t *r);
int64_t dalic_trace_ring_dropped(const dalic_trace_ring_t *r);
/* Calls fn for each event still held, oldest first; returns how many were delivered. */
int64_t dalic_trace_ring_each(const dalic_trace_ring_t *r,
                              void (*fn)(void *user, const dalic_trace_event_t *ev), void *user);

#endif
