/*
 * Memory: the one allocation layer. Every buffer byte dalic allocates for data goes through
 * here, so stats can say who holds what and tests can count allocations. Growth and shrink
 * follow DALI's Buffer::resize rule and DALI_* environment variables (docs/dali-behaviour.md §8).
 */
#ifndef DALIC_ENGINE_MEMORY_H
#define DALIC_ENGINE_MEMORY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dalic.h" /* dalic_mem_kind_t */

/* Counters for one owner (an operator output) or one memory kind. Updated atomically. */
typedef struct dalic_mem_counter {
	_Atomic int64_t allocations;
	_Atomic int64_t frees;
	_Atomic int64_t bytes_live;
	_Atomic int64_t bytes_peak;
	_Atomic int64_t bytes_allocated; /* total over time */
} dalic_mem_counter_t;

typedef struct dalic_mem_config {
	double host_shrink_threshold;   /* DALI_HOST_BUFFER_SHRINK_THRESHOLD, [0,1], 0.5 */
	double host_growth_factor;      /* DALI_BUFFER_GROWTH_FACTOR / _HOST_, [1,4], 1.1 */
	double device_growth_factor;    /* DALI_BUFFER_GROWTH_FACTOR / _DEVICE_, [1,4], 1.1 */
	bool restrict_pinned;           /* DALI_RESTRICT_PINNED_MEM */
	uint64_t max_memory;            /* DALIC_MAX_MEMORY, 0 when unset or malformed */
} dalic_mem_config_t;

/* Configuration read from the environment once per process. */
const dalic_mem_config_t *dalic_mem_config(void);
/* Re-reads the environment (tests). Not thread-safe against running pipelines. */
void dalic_mem_config_reload(void);

/*
 * The memory budget: every byte dalic allocates for data (buffers here, plus kernel scratch,
 * decoder working memory and cached files charged with dalic_mem_charge) counts against one
 * process-wide limit, and a request that would pass it is refused before any memory is
 * touched. Default: 75% of physical memory (or of the cgroup's memory.max when lower);
 * DALIC_MAX_MEMORY (bytes, or with a K/M/G/T suffix, powers of 1024) or dalic_mem_set_budget
 * (the CLI's --max-memory) replace it. Device memory counts only when devices are emulated
 * (it is host memory then).
 */
/* "1.5 GiB" style text of a byte count (for messages). */
void dalic_mem_format_size(uint64_t bytes, char *buf, size_t n);
/* Bytes charged against the budget right now. */
uint64_t dalic_mem_charged(void);
/* Charges `bytes` against the budget: DALIC_OK, or DALIC_ENOMEM with a message giving the size,
 * the budget and what is in use (callers prepend what the memory was for). */
int dalic_mem_charge(size_t bytes);
void dalic_mem_uncharge(size_t bytes);

/* Raw accounted allocation (64-byte aligned host, 256-byte aligned device); owner may be NULL.
 * NULL with dalic_last_error() set when the budget refuses or the system is out of memory. */
void *dalic_mem_alloc(dalic_mem_kind_t kind, size_t bytes, dalic_mem_counter_t *owner);
void dalic_mem_free(dalic_mem_kind_t kind, void *p, size_t bytes, dalic_mem_counter_t *owner);
/* Process-wide counter of a kind. */
const dalic_mem_counter_t *dalic_mem_kind_counter(dalic_mem_kind_t kind);

/* A growable buffer. `size` = bytes in use, `capacity` = bytes allocated. */
typedef struct dalic_buffer {
	void *data;
	size_t size, capacity;
	dalic_mem_kind_t kind;
	dalic_mem_counter_t *owner;
} dalic_buffer_t;

void dalic_buffer_init(dalic_buffer_t *b, dalic_mem_kind_t kind, dalic_mem_counter_t *owner);
/* DALI's rule: grow to max(bytes, capacity*growth) when bytes > capacity (just `bytes` when the
 * grown size would not fit the budget); a host (not pinned) buffer shrinks to exactly `bytes`
 * when bytes < capacity*shrink_threshold; size 0 never frees. Contents are not preserved across
 * a reallocation; on failure the buffer may be left empty. */
int dalic_buffer_resize(dalic_buffer_t *b, size_t bytes);
/* Ensures capacity >= bytes without changing size (bytes_per_sample presizing). */
int dalic_buffer_reserve(dalic_buffer_t *b, size_t bytes);
void dalic_buffer_free(dalic_buffer_t *b);

#endif
