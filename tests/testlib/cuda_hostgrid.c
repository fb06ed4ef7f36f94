/* The host-grid device backend (see cuda_hostgrid.h). */
#include "tests/testlib/cuda_hostgrid.h"

#include "kernels/common/gpu_op.h"
#include "tests/testlib/cuda_grid.h"

#include <stdlib.h>
#include <string.h>

typedef struct tl_cu_hostgrid_stream {
	int64_t clock; /* fake ns: body calls so far; only the stream's stage thread writes it */
} tl_cu_hostgrid_stream_t;

typedef struct tl_cu_hostgrid_event {
	int64_t t;
	bool recorded;
} tl_cu_hostgrid_event_t;

static tl_cu_hostgrid_counts_t tl_cu_hostgrid_n;
/* The default stream (NULL): debug mode's eager runs use it, from one thread. */
static tl_cu_hostgrid_stream_t tl_cu_hostgrid_default;

static tl_cu_hostgrid_stream_t *tl_cu_hostgrid_stream_of(void *s)
{
	return s ? (tl_cu_hostgrid_stream_t *)s : &tl_cu_hostgrid_default;
}

static void *tl_cu_hostgrid_alloc_junk(size_t n)
{
	size_t bytes = (n + 255) & ~(size_t)255;
	void *p = aligned_alloc(256, bytes ? bytes : 256);
	if (p)
		memset(p, TL_CU_HOSTGRID_JUNK, bytes);
	return p;
}

static void *tl_cu_hostgrid_alloc(size_t n)
{
	atomic_fetch_add(&tl_cu_hostgrid_n.device_allocs, 1);
	return tl_cu_hostgrid_alloc_junk(n);
}

static void *tl_cu_hostgrid_alloc_pinned(size_t n)
{
	atomic_fetch_add(&tl_cu_hostgrid_n.pinned_allocs, 1);
	return tl_cu_hostgrid_alloc_junk(n);
}

static int tl_cu_hostgrid_copy(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
	return 0;
}

static int tl_cu_hostgrid_count(void)
{
	return TL_CU_HOSTGRID_DEVICES;
}

static int tl_cu_hostgrid_set_device(int device)
{
	if (device < 0 || device >= TL_CU_HOSTGRID_DEVICES)
		return -1;
	atomic_store(&tl_cu_hostgrid_n.last_device, device);
	return 0;
}

static int tl_cu_hostgrid_stream_create(void **out)
{
	*out = calloc(1, sizeof(tl_cu_hostgrid_stream_t));
	if (!*out)
		return -1;
	atomic_fetch_add(&tl_cu_hostgrid_n.streams_created, 1);
	atomic_fetch_add(&tl_cu_hostgrid_n.streams_live, 1);
	return 0;
}

static void tl_cu_hostgrid_stream_destroy(void *s)
{
	atomic_fetch_sub(&tl_cu_hostgrid_n.streams_live, 1);
	free(s);
}

static int tl_cu_hostgrid_event_create(void **out)
{
	*out = calloc(1, sizeof(tl_cu_hostgrid_event_t));
	if (!*out)
		return -1;
	atomic_fetch_add(&tl_cu_hostgrid_n.events_created, 1);
	atomic_fetch_add(&tl_cu_hostgrid_n.events_live, 1);
	return 0;
}

static void tl_cu_hostgrid_event_destroy(void *e)
{
	atomic_fetch_sub(&tl_cu_hostgrid_n.events_live, 1);
	free(e);
}

static int tl_cu_hostgrid_event_record(void *e, void *stream)
{
	tl_cu_hostgrid_event_t *ev = e;
	ev->t = tl_cu_hostgrid_stream_of(stream)->clock;
	ev->recorded = true;
	atomic_fetch_add(&tl_cu_hostgrid_n.events_recorded, 1);
	return 0;
}

static int tl_cu_hostgrid_event_elapsed_ns(void *start, void *end, int64_t *ns)
{
	const tl_cu_hostgrid_event_t *a = start, *b = end;
	if (!a->recorded || !b->recorded || b->t < a->t)
		return -1; /* CUDA: cudaErrorInvalidResourceHandle / not ready */
	*ns = b->t - a->t;
	return 0;
}

static int tl_cu_hostgrid_launch(const dalic_gpu_kernel_t *k, const void *params,
                                 const dalic_cu_launch_t *cfg, void *stream)
{
	int64_t calls = 0;
	for (int i = 0; i < k->passes; i++) {
		const void *p = (const char *)params + (size_t)i * k->params_size;
		if (cfg[i].grid.x == 0)
			continue; /* a pass with nothing to do: CUDA refuses an empty grid */
		calls += k->phases > 0 ? tl_cu_run_grid_phased(cfg[i], k->phases, k->phase, p)
		                       : tl_cu_run_grid(cfg[i], k->body, p);
	}
	tl_cu_hostgrid_stream_of(stream)->clock += calls;
	atomic_fetch_add(&tl_cu_hostgrid_n.launches, 1);
	atomic_fetch_add(&tl_cu_hostgrid_n.body_calls, calls);
	return 0;
}

const dalic_device_backend_t tl_cu_hostgrid_backend = {
    .name = "host-grid",
    .emulated = false,
    .alloc = tl_cu_hostgrid_alloc,
    .free = free,
    .alloc_pinned = tl_cu_hostgrid_alloc_pinned,
    .free_pinned = free,
    .copy = tl_cu_hostgrid_copy,
    .count = tl_cu_hostgrid_count,
    .set_device = tl_cu_hostgrid_set_device,
    .stream_create = tl_cu_hostgrid_stream_create,
    .stream_destroy = tl_cu_hostgrid_stream_destroy,
    .event_create = tl_cu_hostgrid_event_create,
    .event_destroy = tl_cu_hostgrid_event_destroy,
    .event_record = tl_cu_hostgrid_event_record,
    .event_elapsed_ns = tl_cu_hostgrid_event_elapsed_ns,
    .launch = tl_cu_hostgrid_launch,
};

void tl_cu_hostgrid_use(void)
{
	memset(&tl_cu_hostgrid_n, 0, sizeof tl_cu_hostgrid_n);
	atomic_store(&tl_cu_hostgrid_n.last_device, -1);
	tl_cu_hostgrid_default.clock = 0;
	dalic_device_use(&tl_cu_hostgrid_backend);
}

const tl_cu_hostgrid_counts_t *tl_cu_hostgrid_counts(void)
{
	return &tl_cu_hostgrid_n;
}
