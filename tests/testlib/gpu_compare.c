/*
 * tl_gpu_compare: an operator on the emulated and the host-grid backend, byte for byte
 * (gpu_compare.h).
 */
#include "tests/testlib/gpu_compare.h"
#include "tests/testlib/cuda_hostgrid.h"

#include "engine/device.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct tl_gpu_result {
	dalic_dtype_t dtype[TL_GPU_ITERS];
	int ndim[TL_GPU_ITERS];
	int64_t shape[TL_GPU_ITERS][TL_GPU_N][DALIC_MAX_NDIM];
	size_t bytes[TL_GPU_ITERS][TL_GPU_N];
	uint8_t *data[TL_GPU_ITERS][TL_GPU_N];
} tl_gpu_result_t;

static dalic_pipeline_t *tl_gpu_pipeline(const tl_gpu_case_t *c, const tl_mode_t *m)
{
	dalic_pipeline_params_t params = tl_mode_params(m, TL_GPU_N, 2);
	params.device_id = 0;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	c->build(p, c->ctx);
	return p;
}

/* TL_GPU_ITERS iterations in executor mode m; every batch is fed first (and a few more for
 * the prefetching modes to take). */
static void tl_gpu_run(const tl_gpu_case_t *c, const tl_mode_t *m, tl_gpu_result_t *r)
{
	dalic_pipeline_t *p = tl_gpu_pipeline(c, m);
	for (int it = 0; it < TL_GPU_ITERS + 3; it++)
		c->feed(p, it < TL_GPU_ITERS ? it : TL_GPU_ITERS - 1, c->ctx);
	for (int it = 0; it < TL_GPU_ITERS; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		cr_assert_eq(dalic_batch_num_samples(b), TL_GPU_N, "%s", c->what);
		r->dtype[it] = dalic_batch_dtype(b);
		r->ndim[it] = dalic_batch_ndim(b);
		for (int i = 0; i < TL_GPU_N; i++) {
			memcpy(r->shape[it][i], dalic_batch_shape(b, i),
			       sizeof(int64_t) * (size_t)r->ndim[it]);
			size_t n = dalic_batch_sample_bytes(b, i);
			r->bytes[it][i] = n;
			r->data[it][i] = malloc(n + 1);
			memcpy(r->data[it][i], dalic_batch_data(b, i), n);
		}
	}
	dalic_pipeline_destroy(p);
}

static void tl_gpu_result_free(tl_gpu_result_t *r)
{
	for (int it = 0; it < TL_GPU_ITERS; it++)
		for (int i = 0; i < TL_GPU_N; i++)
			free(r->data[it][i]);
}

static void tl_gpu_expect_same(const tl_gpu_case_t *c, const tl_mode_t *m, const tl_gpu_result_t *a,
                               const tl_gpu_result_t *b)
{
	for (int it = 0; it < TL_GPU_ITERS; it++) {
		cr_expect_eq(a->dtype[it], b->dtype[it], "%s (%s): dtype", c->what, m->name);
		cr_assert_eq(a->ndim[it], b->ndim[it], "%s (%s): ndim", c->what, m->name);
		for (int i = 0; i < TL_GPU_N; i++) {
			cr_expect_arr_eq(
			    a->shape[it][i], b->shape[it][i], sizeof(int64_t) * (size_t)a->ndim[it],
			    "%s (%s): iteration %d sample %d shape", c->what, m->name, it, i);
			cr_assert_eq(a->bytes[it][i], b->bytes[it][i]);
			const uint8_t *x = a->data[it][i], *y = b->data[it][i];
			for (size_t k = 0; k < a->bytes[it][i]; k++)
				if (x[k] != y[k]) {
					cr_expect_fail(
					    "%s (%s): iteration %d sample %d differs first at "
					    "byte %zu of %zu: %02x (emulated) vs %02x",
					    c->what, m->name, it, i, k, a->bytes[it][i], x[k],
					    y[k]);
					break;
				}
		}
	}
}

void tl_gpu_compare(const tl_gpu_case_t *c)
{
	tl_gpu_result_t ref;
	memset(&ref, 0, sizeof ref);
	dalic_device_use(&dalic_device_emulated);
	tl_gpu_run(c, &tl_modes[0], &ref);
	TL_FOR_EACH_MODE(m)
	{
		tl_gpu_result_t got;
		memset(&got, 0, sizeof got);
		tl_cu_hostgrid_use();
		tl_gpu_run(c, m, &got);
		int64_t launches = atomic_load(&tl_cu_hostgrid_counts()->launches);
		dalic_device_use(&dalic_device_emulated);
		tl_gpu_expect_same(c, m, &ref, &got);
		/* the prefetching modes may run more iterations than were read */
		cr_expect_geq(launches, (int64_t)TL_GPU_ITERS * (c->copies + 1),
		              "%s (%s): the operator's kernels did not run (%lld launches)",
		              c->what, m->name, (long long)launches);
		tl_gpu_result_free(&got);
	}
	tl_gpu_result_free(&ref);
}

void tl_gpu_compare_fails(const tl_gpu_case_t *c, int status, const char *has)
{
	for (int k = 0; k < 2; k++) {
		if (k)
			tl_cu_hostgrid_use();
		else
			dalic_device_use(&dalic_device_emulated);
		dalic_pipeline_t *p = tl_gpu_pipeline(c, &tl_modes[0]);
		c->feed(p, 0, c->ctx);
		const char *msg = tl_run_fails(p, status);
		cr_expect(msg && strstr(msg, has), "%s (%s backend): got \"%s\", expected \"%s\"",
		          c->what, k ? "host-grid" : "emulated", msg ? msg : "(none)", has);
		dalic_pipeline_destroy(p);
	}
	dalic_device_use(&dalic_device_emulated);
}
