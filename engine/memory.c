/*
 * The accounting allocation layer (Redis zmalloc in spirit): per-kind global counters plus an
 * optional per-owner counter, both atomic so worker threads may allocate concurrently.
 * Device memory goes through the device backend (engine/device.h); when devices are emulated
 * it is host memory counted as device.
 */
#include "engine/memory.h"

#include "engine/device.h"
#include "engine/error.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static dalic_mem_counter_t kind_counters[DALIC_MEM_KINDS];
static dalic_mem_config_t config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
/* The budget: set by dalic_mem_set_budget (0 = not set), and what is charged against it. */
static _Atomic uint64_t budget_set;
static _Atomic uint64_t budget_charged;
static uint64_t budget_default;
static pthread_once_t budget_once = PTHREAD_ONCE_INIT;

static double mem_env_clamped(const char *name, double def, double lo, double hi)
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

static void mem_config_read(void)
{
	config.host_shrink_threshold =
	    mem_env_clamped("DALI_HOST_BUFFER_SHRINK_THRESHOLD", 0.5, 0, 1);
	double g = mem_env_clamped("DALI_BUFFER_GROWTH_FACTOR", 1.1, 1, 4);
	config.host_growth_factor = mem_env_clamped("DALI_HOST_BUFFER_GROWTH_FACTOR", g, 1, 4);
	config.device_growth_factor = mem_env_clamped("DALI_DEVICE_BUFFER_GROWTH_FACTOR", g, 1, 4);
	config.restrict_pinned = mem_env_clamped("DALI_RESTRICT_PINNED_MEM", 0, 0, 1) != 0;
	config.max_memory = 0;
	const char *max = getenv("DALIC_MAX_MEMORY");
	if (max && *max && (dalic_mem_parse_size(max, &config.max_memory) || !config.max_memory)) {
		/* a limit the user believes in must not silently vanish */
		fprintf(stderr, "dalic: ignoring DALIC_MAX_MEMORY='%s': expected a byte count with "
				"an optional K, M, G or T suffix\n", max);
		config.max_memory = 0;
	}
}

static void mem_config_none(void)
{
}

/* Reads the environment now, and makes sure the first dalic_mem_config() does not read it a
 * second time (the DALIC_MAX_MEMORY warning is printed once). */
void dalic_mem_config_reload(void)
{
	pthread_once(&config_once, mem_config_none);
	mem_config_read();
}

const dalic_mem_config_t *dalic_mem_config(void)
{
	pthread_once(&config_once, mem_config_read);
	return &config;
}

int dalic_mem_parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return -1;
	/* integer and fraction kept apart, so byte counts past 2**53 stay exact */
	uint64_t whole = 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	double frac = 0, scale = 0.1;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	static const char units[] = "KMGT";
	int shift = 0;
	const char *u = *p ? strchr(units, toupper((unsigned char)*p)) : NULL;
	if (u) {
		shift = 10 * (int)(u - units + 1);
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
	}
	if (*p == 'b' || *p == 'B')
		p++;
	if (*p)
		return -1;
	const uint64_t max = (uint64_t)1 << 63;
	if (shift && whole > (max >> shift))
		return -1;
	uint64_t v = (whole << shift) + (uint64_t)(frac * (double)((uint64_t)1 << shift));
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

void dalic_mem_format_size(uint64_t bytes, char *buf, size_t n)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64 " B", bytes);
		return;
	}
	double v = (double)bytes / 1024;
	int k = 0;
	while (v >= 1024 && k < 5) {
		v /= 1024;
		k++;
	}
	snprintf(buf, n, "%.1f %s", v, units[k]);
}

/* A limit from a cgroup file ("max" or a byte count), or 0. */
static uint64_t mem_budget_cgroup_limit(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[64] = "";
	uint64_t v = 0;
	if (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (dalic_mem_parse_size(line, &v))
			v = 0;
	}
	fclose(f);
	return v;
}

/* 75% of the memory this process can have: physical, or its cgroup's limit when lower. */
static void mem_budget_init(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	uint64_t phys = (uint64_t)1 << 32; /* when the system does not say */
	if (pages > 0 && page > 0)
		phys = (uint64_t)pages * (uint64_t)page;
	const char *const cgroups[] = {"/sys/fs/cgroup/memory.max",
				       "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
	for (int i = 0; i < 2; i++) {
		uint64_t c = mem_budget_cgroup_limit(cgroups[i]);
		if (c && c < phys)
			phys = c;
	}
	budget_default = phys / 4 * 3;
}

uint64_t dalic_mem_budget(void)
{
	uint64_t set = atomic_load(&budget_set);
	if (set)
		return set;
	uint64_t env = dalic_mem_config()->max_memory;
	if (env)
		return env;
	pthread_once(&budget_once, mem_budget_init);
	return budget_default;
}

void dalic_mem_set_budget(uint64_t bytes)
{
	atomic_store(&budget_set, bytes);
}

uint64_t dalic_mem_charged(void)
{
	return atomic_load(&budget_charged);
}

int dalic_mem_charge(size_t bytes)
{
	uint64_t limit = dalic_mem_budget();
	uint64_t before = atomic_fetch_add(&budget_charged, (uint64_t)bytes);
	if ((uint64_t)bytes <= limit && before <= limit - (uint64_t)bytes)
		return DALIC_OK;
	atomic_fetch_sub(&budget_charged, (uint64_t)bytes);
	char want[32], have[32], used[32];
	dalic_mem_format_size(bytes, want, sizeof want);
	dalic_mem_format_size(limit, have, sizeof have);
	dalic_mem_format_size(before, used, sizeof used);
	return dalic_fail(DALIC_ENOMEM,
			  "%s (%zu bytes) would exceed the memory budget of %s (%s in use); "
			  "raise it with --max-memory or DALIC_MAX_MEMORY",
			  want, bytes, have, used);
}

void dalic_mem_uncharge(size_t bytes)
{
	atomic_fetch_sub(&budget_charged, (uint64_t)bytes);
}

/* Host and pinned memory count; device memory only when it is emulated in host memory. */
static bool mem_budget_covers(dalic_mem_kind_t kind)
{
	return kind != DALIC_MEM_DEVICE || dalic_device_backend()->emulated;
}

static void mem_count(dalic_mem_counter_t *c, int64_t delta)
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
	bool budgeted = mem_budget_covers(kind);
	if (budgeted && dalic_mem_charge(bytes))
		return NULL;
	if (n > SIZE_MAX - 256) {
		/* nothing to try: the rounding below would wrap */
	} else if (kind == DALIC_MEM_HOST) {
		p = aligned_alloc(64, (n + 63) & ~(size_t)63);
	} else {
		const dalic_device_backend_t *dev = dalic_device_backend();
		p = kind == DALIC_MEM_PINNED ? dev->alloc_pinned(n) : dev->alloc(n);
	}
	if (!p) {
		if (budgeted)
			dalic_mem_uncharge(bytes);
		char size[32];
		dalic_mem_format_size(bytes, size, sizeof size);
		dalic_fail(DALIC_ENOMEM, "cannot allocate %s (%zu bytes): out of %s memory", size,
			   bytes, kind == DALIC_MEM_DEVICE ? "device" : "host");
		return NULL;
	}
	mem_count(&kind_counters[kind], (int64_t)bytes);
	if (owner)
		mem_count(owner, (int64_t)bytes);
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
	if (mem_budget_covers(kind))
		dalic_mem_uncharge(bytes);
	mem_count(&kind_counters[kind], -(int64_t)bytes);
	if (owner)
		mem_count(owner, -(int64_t)bytes);
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

/* DALI's order: the new storage is allocated before the old is freed. Contents are not kept,
 * so when old and new together do not fit, the old goes first and the new is tried alone. */
static int mem_realloc_exact(dalic_buffer_t *b, size_t cap)
{
	void *p = dalic_mem_alloc(b->kind, cap, b->owner);
	if (!p && b->data) {
		dalic_buffer_free(b);
		p = dalic_mem_alloc(b->kind, cap, b->owner);
	}
	if (!p)
		return DALIC_ENOMEM; /* the message is dalic_mem_alloc's */
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
		double grown_d = (double)b->capacity * g;
		size_t grown = grown_d < (double)SIZE_MAX / 2 ? (size_t)grown_d : bytes;
		int rc = mem_realloc_exact(b, bytes > grown ? bytes : grown);
		if (rc && grown > bytes) /* the growth margin did not fit: the request alone may */
			rc = mem_realloc_exact(b, bytes);
		if (rc)
			return rc;
	} else if (b->kind == DALIC_MEM_HOST && bytes > 0 &&
		   (double)bytes < (double)b->capacity * cfg->host_shrink_threshold) {
		int rc = mem_realloc_exact(b, bytes);
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
	return mem_realloc_exact(b, bytes);
}

void dalic_buffer_free(dalic_buffer_t *b)
{
	dalic_mem_free(b->kind, b->data, b->capacity, b->owner);
	b->data = NULL;
	b->size = b->capacity = 0;
}
