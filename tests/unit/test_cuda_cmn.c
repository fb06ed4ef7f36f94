/*
 * The crop_mirror_normalize CUDA kernel (kernels/cuda/cmn.cuh) on the CPU grid runner,
 * compared byte for byte with crop_mirror_normalize run through the public API: one launch per
 * batch of samples with different shapes (sizes that do not divide the block, several blocks
 * per sample, an empty sample), per-sample mirror, per-channel and broadcast mean / std, scale
 * and shift, windows inside and outside the input (error, pad, trim_to_shape), pad_output,
 * HWC / CHW / FHWC / HW inputs into CHW, HWC and other permutations, float, float16, int8 and
 * uint8 outputs from uint8, int16, float16 and float inputs. The uint8 -> float cases go
 * through the CPU's SIMD rows; the kernel computes each value with the scalar function those
 * rows match (kernels/common/cmn_px.h).
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/cuda_slice.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/cmn.cuh"

TestSuite(cuda_cmn, .timeout = 120);

static void cuda_cmn_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_cmn_body(ix, (const dalic_cu_cmn_params_t *)p);
}

/* Runs the kernel over `in` into a fresh output like `cpu` prefilled with `canary`. */
static void cuda_cmn_kernel(const tl_cu_cmn_case_t *c, const tl_cu_batch_t *in,
                            const dalic_batch_t *cpu, uint8_t canary, tl_cu_batch_t *out)
{
	tl_cu_batch_like(out, cpu, canary);
	dalic_cu_cmn_sample_t *samples = calloc(TL_CU_MAX_SAMPLES, sizeof *samples);
	cr_assert(samples);
	for (int i = 0; i < in->n; i++) {
		dalic_cu_cmn_sample_t *s = &samples[i];
		tl_cu_cmn_plan(c, i, &s->plan, s->mul, s->add, s->fill);
		s->in = in->data[i];
		s->out = out->data[i];
		for (int k = 0; k < s->plan.ndim; k++) /* the plan's shape is the CPU's */
			cr_expect_eq(s->plan.out_shape[k], out->shape[i][k], "%s: sample %d dim %d",
			             c->what, i, k);
	}
	dalic_cu_cmn_params_t p = {samples, NULL, in->n, 0};
	dalic_cu_cmn_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_cmn_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, cuda_cmn_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
	free(samples);
}

static void cuda_cmn_case(const tl_cu_cmn_case_t *c)
{
	tl_cu_batch_t in, out;
	double range = c->in_type == DALIC_FLOAT || c->in_type == DALIC_FLOAT16 ? 300 : 1000;
	tl_cu_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, range, 3u + (uint32_t)c->n);
	static const char *const args[] = {"mirror", NULL};
	tl_oneop_t t = tl_oneop("crop_mirror_normalize", c->n, 1, args);
	cr_assert_eq(tl_cu_cmn_set_args(t.op, c), DALIC_OK, "%s: %s", c->what, dalic_last_error());
	tl_cu_batch_feed(t.p, "in", &in, c->layout);
	tl_cu_feed_ints(t.p, "mirror", c->n, c->mirror);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	for (int k = 0; k < 2; k++) {
		cuda_cmn_kernel(c, &in, cpu, k ? 0xff : 0x00, &out);
		tl_cu_expect_equal(cpu, &out, c->what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

/* HWC images: 1x1, 7x13, 33x65, 0x5 (empty), 17x300, 64x64. */
static const int64_t cuda_cmn_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3,
                                       0, 5, 3, 17, 300, 3, 64, 64, 3};
static const int32_t cuda_cmn_mirror[] = {1, 0, 1, 1, 0, 1, 0, 1};
static const double cuda_cmn_mean[] = {0.485 * 255, 0.456 * 255, 0.406 * 255, 17, 3};
static const double cuda_cmn_std[] = {0.229 * 255, 0.224 * 255, 0.225 * 255, 2.5, 0.5};

/* The ResNet case: uint8 HWC to float CHW (the CPU's SIMD rows), and to HWC. */
Test(cuda_cmn, resnet_u8_to_float)
{
	tl_cu_cmn_case_t c = {"cmn u8 HWC->CHW f32", DALIC_UINT8, DALIC_NO_TYPE, "HWC", NULL, 3, 6,
	                      cuda_cmn_hwc, cuda_cmn_mirror, "pad", 0, 3, 3, NULL,
	                      cuda_cmn_mean, cuda_cmn_std, 0, 0, false, 0, 0, 0.5, 0.5};
	cuda_cmn_case(&c);
	const int64_t shapes[] = {7, 13, 3, 33, 65, 3, 17, 300, 3, 64, 64, 3};
	tl_cu_cmn_case_t c2 = {"cmn u8 HWC->HWC f32 crop", DALIC_UINT8, DALIC_NO_TYPE, "HWC",
	                       "HWC", 3, 4, shapes, cuda_cmn_mirror, NULL, 0, 3, 3, NULL,
	                       cuda_cmn_mean, cuda_cmn_std, 1.25, -0.5, false, 5, 11, 0.3, 0.8};
	cuda_cmn_case(&c2);
	tl_cu_cmn_case_t c3 = {"cmn u8 HWC->CHW f32 crop", DALIC_UINT8, DALIC_NO_TYPE, "HWC",
	                       "CHW", 3, 4, shapes, cuda_cmn_mirror + 1, NULL, 0, 3, 3, NULL,
	                       cuda_cmn_mean, cuda_cmn_std, 0, 0, false, 7, 13, 0.9, 0.1};
	cuda_cmn_case(&c3);
}

Test(cuda_cmn, pad_window_fill_and_pad_output)
{
	const double fill[] = {5, -7, 100};
	static const dalic_dtype_t outs[] = {DALIC_FLOAT, DALIC_FLOAT16, DALIC_UINT8, DALIC_INT8};
	for (int o = 0; o < 4; o++) {
		char what[64];
		snprintf(what, sizeof what, "cmn u8 pad_output pad -> %s", dalic_dtype_name(outs[o]));
		tl_cu_cmn_case_t c = {what, DALIC_UINT8, outs[o], "HWC", "CHW", 3, 6, cuda_cmn_hwc,
		                      cuda_cmn_mirror, "pad", 3, 3, 3, fill, cuda_cmn_mean,
		                      cuda_cmn_std, 0.5, 3, true, 20, 70, 0.2, 0.9};
		cuda_cmn_case(&c);
		snprintf(what, sizeof what, "cmn u8 HWC->HWC pad -> %s", dalic_dtype_name(outs[o]));
		tl_cu_cmn_case_t c2 = {what, DALIC_UINT8, outs[o], "HWC", "HWC", 3, 6, cuda_cmn_hwc,
		                       cuda_cmn_mirror + 2, "pad", 1, 1, 1, fill, cuda_cmn_mean,
		                       cuda_cmn_std, 0, 0, true, 40, 9, 0.7, 0.3};
		cuda_cmn_case(&c2);
	}
}

Test(cuda_cmn, trim_and_other_inputs)
{
	tl_cu_cmn_case_t c = {"cmn f32 HWC trim -> u8", DALIC_FLOAT, DALIC_UINT8, "HWC", "CHW", 3, 6,
	                      cuda_cmn_hwc, cuda_cmn_mirror, "trim_to_shape", 0, 3, 1, NULL,
	                      cuda_cmn_mean, cuda_cmn_std + 3, 2, 1, false, 21, 70, 1.0, 0.0};
	cuda_cmn_case(&c);
	const int64_t chw[] = {3, 31, 47, 5, 5, 1, 5, 129, 33};
	tl_cu_cmn_case_t c2 = {"cmn i16 CHW->HWC f16 pad", DALIC_INT16, DALIC_FLOAT16, "CHW", "HWC",
	                       3, 3, chw, cuda_cmn_mirror, "pad", 0, 1, 1, NULL, cuda_cmn_mean + 3,
	                       cuda_cmn_std + 4, 0, 0, true, 20, 40, 0.5, 0.5};
	cuda_cmn_case(&c2);
	const int64_t chw5[] = {5, 31, 47, 5, 5, 1, 5, 129, 33};
	tl_cu_cmn_case_t c3 = {"cmn f16 CHW->CHW i8 pad", DALIC_FLOAT16, DALIC_INT8, "CHW", "CHW",
	                       3, 3, chw5, cuda_cmn_mirror + 1, "pad", 0, 5, 5, NULL, cuda_cmn_mean,
	                       cuda_cmn_std, 0, 0, false, 20, 40, 0.1, 0.6};
	cuda_cmn_case(&c3);
}

Test(cuda_cmn, sequences_gray_and_permutations)
{
	const int64_t fhwc[] = {3, 9, 11, 3, 2, 40, 17, 3};
	tl_cu_cmn_case_t c = {"cmn u8 FHWC->FCHW f32", DALIC_UINT8, DALIC_NO_TYPE, "FHWC", "FCHW", 4,
	                      2, fhwc, cuda_cmn_mirror, NULL, 0, 3, 3, NULL, cuda_cmn_mean,
	                      cuda_cmn_std, 0, 0, false, 8, 5, 0.5, 0.5};
	cuda_cmn_case(&c);
	tl_cu_cmn_case_t c2 = {"cmn u8 FHWC->CFHW f16 pad", DALIC_UINT8, DALIC_FLOAT16, "FHWC",
	                       "CFHW", 4, 2, fhwc, cuda_cmn_mirror + 1, "pad", 0, 3, 3, NULL,
	                       cuda_cmn_mean, cuda_cmn_std, 0, 0, true, 12, 15, 0.5, 0.5};
	cuda_cmn_case(&c2);
	const int64_t hw[] = {9, 11, 300, 17, 1, 1};
	tl_cu_cmn_case_t c3 = {"cmn u8 HW f32", DALIC_UINT8, DALIC_NO_TYPE, NULL, NULL, 2, 3, hw,
	                       cuda_cmn_mirror, "pad", 0, 1, 1, NULL, cuda_cmn_mean, cuda_cmn_std,
	                       0, 0, false, 10, 10, 0.5, 0.5};
	cuda_cmn_case(&c3);
	tl_cu_cmn_case_t c4 = {"cmn u8 HWC->WHC u8", DALIC_UINT8, DALIC_UINT8, "HWC", "WHC", 3, 6,
	                       cuda_cmn_hwc, cuda_cmn_mirror, "pad", 0, 3, 3, NULL, cuda_cmn_mean,
	                       cuda_cmn_std, 64, 128, false, 0, 0, 0.5, 0.5};
	cuda_cmn_case(&c4);
}

/* The stores against their rules written out: round half away, saturate, NaN to 0. */
Test(cuda_cmn, integer_stores_written_out)
{
	const float v[] = {-0.5f, 0.49f, 0.5f, 1.5f, 2.5f, 254.5f, 255.6f, -128.5f, 126.5f, 1e9f};
	const uint8_t u8[] = {0, 0, 1, 2, 3, 255, 255, 0, 127, 255};
	const int8_t i8[] = {-1, 0, 1, 2, 3, 127, 127, -128, 127, 127};
	for (int k = 0; k < 10; k++) {
		cr_expect_eq(dalic_cmn_px_u8(v[k]), u8[k], "u8 of %g", (double)v[k]);
		cr_expect_eq(dalic_cmn_px_i8(v[k]), i8[k], "i8 of %g", (double)v[k]);
	}
	cr_expect_eq(dalic_cmn_px_u8(NAN), 0);
	cr_expect_eq(dalic_cmn_px_i8(NAN), 0);
}
