/*
 * The accounting allocation layer (Redis zmalloc in spirit): per-kind global counters plus an
 * optional per-owner counter, both atomic so worker threads may allocate concurrently.
 * Device memory goes through the device backend (engine/device.h); when devices are emulated
 * it is host memory counted as device.
 */
#include "engine/memory.h"

#include "engine/device.h"
#include "engine/error.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static dalic_mem_counter_t kind_counters[DALIC_MEM_KINDS];
static dalic_mem_config_t config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static double env_clamped(const char *name, double def, double lo, double hi)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return def;
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		return def;
	return v < lo ? lo : v > hi ? hi : v;
}

void dalic_mem_config_reload(void)
{
	config.host_shrink_threshold = env_clamped("DALI_HOST_BUFFER_SHRINK_THRESHOLD", 0.5, 0, 1);
	double g = env_clamped("DALI_BUFFER_GROWTH_FACTOR", 1.1, 1, 4);
	config.host_growth_factor = env_clamped("DALI_HOST_BUFFER_GROWTH_FACTOR", g, 1, 4);
	config.device_growth_factor = env_clamped("DALI_DEVICE_BUFFER_GROWTH_FACTOR", g, 1, 4);
	config.restrict_pinned = env_clamped("DALI_RESTRICT_PINNED_MEM", 0, 0, 1) != 0;
}

const dalic_mem_config_t *dalic_mem_config(void)
{
	pthread_once(&config_once, dalic_mem_config_reload);
	return &config;
}

static void count(dalic_mem_counter_t *c, int64_t delta)
{
	if (delta > 0) {
		atomic_fetch_add(&c->allocations, 1);
		atomic_fetch_add(&c->bytes_allocated, delta);
	} else {
		atomic_fetch_add(&c->frees, 1);
	}
	int64_t live = atomic_fetch_add(&c->bytes_live, delta) + delta;
	int64_t peak = atomic_load(&c->bytes_peak);
	while (live > peak && !atomic_compare_exchange_weak(&c->bytes_peak, &peak, live))
		;
}

void *dalic_mem_alloc(dalic_mem_kind_t kind, size_t bytes, dalic_mem_counter_t *owner)
{
	void *p = NULL;
	size_t n = bytes ? bytes : 1;
	if (kind == DALIC_MEM_HOST) {
		p = aligned_alloc(64, (n + 63) & ~(size_t)63);
	} else {
		const dalic_device_backend_t *dev = dalic_device_backend();
		p = kind == DALIC_MEM_PINNED ? dev->alloc_pinned(n) : dev->alloc(n);
	}
	if (!p)
		return NULL;
	count(&kind_counters[kind], (int64_t)bytes);
	if (owner)
		count(owner, (int64_t)bytes);
	return p;
}

void dalic_mem_free(dalic_mem_kind_t kind, void *p, size_t bytes, dalic_mem_counter_t *owner)
{
	if (!p)
		return;
	if (kind == DALIC_MEM_HOST) {
		free(p);
	} else {
		const dalic_device_backend_t *dev = dalic_device_backend();
		if (kind == DALIC_MEM_PINNED)
			dev->free_pinned(p);
		else
			dev->free(p);
	}
	count(&kind_counters[kind], -(int64_t)bytes);
	if (owner)
		count(owner, -(int64_t)bytes);
}

const dalic_mem_counter_t *dalic_mem_kind_counter(dalic_mem_kind_t kind)
{
	return &kind_counters[kind];
}

void dalic_mem_totals(dalic_mem_kind_t kind, dalic_mem_totals_t *out)
{
	memset(out, 0, sizeof *out);
	if (kind < 0 || kind >= DALIC_MEM_KINDS)
		return;
	const dalic_mem_counter_t *c = &kind_counters[kind];
	out->allocations = atomic_load(&c->allocations);
	out->frees = atomic_load(&c->frees);
	out->bytes_live = atomic_load(&c->bytes_live);
	out->bytes_peak = atomic_load(&c->bytes_peak);
}

void dalic_buffer_init(dalic_buffer_t *b, dalic_mem_kind_t kind, dalic_mem_counter_t *owner)
{
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->owner = owner;
}

static int realloc_exact(dalic_buffer_t *b, size_t cap)
{
	void *p = dalic_mem_alloc(b->kind, cap, b->owner);
	if (!p)
		return dalic_fail(DALIC_ENOMEM, "cannot allocate %zu bytes", cap);
	dalic_mem_free(b->kind, b->data, b->capacity, b->owner);
	b->data = p;
	b->capacity = cap;
	return DALIC_OK;
}

int dalic_buffer_resize(dalic_buffer_t *b, size_t bytes)
{
	const dalic_mem_config_t *cfg = dalic_mem_config();
	if (bytes > b->capacity) {
		double g = b->kind == DALIC_MEM_DEVICE ? cfg->device_growth_factor
						       : cfg->host_growth_factor;
		size_t grown = (size_t)((double)b->capacity * g);
		int rc = realloc_exact(b, bytes > grown ? bytes : grown);
		if (rc)
			return rc;
	} else if (b->kind == DALIC_MEM_HOST && bytes > 0 &&
		   (double)bytes < (double)b->capacity * cfg->host_shrink_threshold) {
		int rc = realloc_exact(b, bytes);
		if (rc)
			return rc;
	}
	b->size = bytes;
	return DALIC_OK;
}

int dalic_buffer_reserve(dalic_buffer_t *b, size_t bytes)
{
	if (bytes <= b->capacity)
		return DALIC_OK;
	return realloc_exact(b, bytes);
}

void dalic_buffer_free(dalic_buffer_t *b)
{
	dalic_mem_free(b->kind, b->data, b->capacity, b->owner);
	b->data = NULL;
	b->size = b->capacity = 0;
}
