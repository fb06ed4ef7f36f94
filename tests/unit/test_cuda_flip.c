/*
 * flip's CUDA kernel (kernels/cuda/flip.cuh) on the CPU grid runner, compared byte for byte
 * with the CPU operator run through the public API: one launch per batch of samples with
 * different shapes (sizes that do not divide the block, several blocks per sample, an empty
 * sample) and per-sample flags, in HWC, CHW, FHWC and DHWC, uint8 to float64.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/flip.cuh"

TestSuite(cuda_flip, .timeout = 60);

static void cuda_flip_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_flip_body(ix, (const dalic_cu_flip_params_t *)p);
}

/* Runs the kernel over `in` into a fresh output like `cpu` prefilled with `canary`. */
static void cuda_flip_kernel(const tl_cu_batch_t *in, const char *layout, const int32_t *h,
                             const int32_t *v, const int32_t *d, const dalic_batch_t *cpu,
                             uint8_t canary, tl_cu_batch_t *out)
{
	tl_cu_batch_like(out, cpu, canary);
	dalic_cu_flip_sample_t samples[TL_CU_MAX_SAMPLES];
	for (int i = 0; i < in->n; i++) {
		double flags[3] = {h[i], v[i], d[i]};
		samples[i].in = in->data[i];
		samples[i].out = out->data[i];
		dalic_flip_plan_make(&samples[i].plan, layout, in->ndim, in->shape[i],
		                     (int64_t)dalic_dtype_size(in->dtype), flags);
	}
	dalic_cu_flip_params_t p = {samples, NULL, in->n, 0};
	dalic_cu_flip_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_flip_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, cuda_flip_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
}

static void cuda_flip_case(const char *what, dalic_dtype_t dtype, const char *layout, int ndim,
                           int n, const int64_t *shapes, const int32_t *h, const int32_t *v,
                           const int32_t *d)
{
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, dtype, ndim, n, shapes, 1000, 7u + (uint32_t)n);
	static const char *const args[] = {"horizontal", "vertical", "depthwise", NULL};
	tl_oneop_t t = tl_oneop("flip", n, 1, args);
	tl_cu_batch_feed(t.p, "in", &in, layout);
	tl_cu_feed_ints(t.p, "horizontal", n, h);
	tl_cu_feed_ints(t.p, "vertical", n, v);
	tl_cu_feed_ints(t.p, "depthwise", n, d);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	for (int c = 0; c < 2; c++) {
		cuda_flip_kernel(&in, layout, h, v, d, cpu, c ? 0xff : 0x00, &out);
		tl_cu_expect_equal(cpu, &out, what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

Test(cuda_flip, hwc_u8_batch_of_odd_shapes)
{
	const int64_t shapes[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 1, 64, 64, 4};
	const int32_t h[] = {1, 1, 0, 1, 1, 1}, v[] = {0, 1, 1, 1, 0, 1}, d[] = {0, 0, 0, 0, 1, 0};
	cuda_flip_case("HWC u8", DALIC_UINT8, "HWC", 3, 6, shapes, h, v, d);
}

Test(cuda_flip, chw_float_and_no_flip)
{
	const int64_t shapes[] = {3, 31, 47, 1, 5, 1, 2, 129, 33};
	const int32_t h[] = {1, 0, 0}, v[] = {1, 1, 0}, d[] = {0, 0, 0};
	cuda_flip_case("CHW float", DALIC_FLOAT, "CHW", 3, 3, shapes, h, v, d);
}

Test(cuda_flip, sequences_and_volumes)
{
	const int64_t fhwc[] = {3, 9, 11, 3, 2, 40, 17, 2};
	const int32_t h[] = {1, 0}, v[] = {1, 1}, d[] = {1, 1};
	cuda_flip_case("FHWC i16", DALIC_INT16, "FHWC", 4, 2, fhwc, h, v, d);
	const int64_t dhwc[] = {5, 6, 7, 2, 3, 33, 9, 1};
	const int32_t h2[] = {0, 1}, v2[] = {0, 1}, d2[] = {1, 1};
	cuda_flip_case("DHWC f64", DALIC_FLOAT64, "DHWC", 4, 2, dhwc, h2, v2, d2);
}
