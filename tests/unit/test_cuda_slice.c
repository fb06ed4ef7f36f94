/*
 * The slice / crop CUDA kernel (kernels/cuda/slice.cuh) on the CPU grid runner, compared byte
 * for byte with slice and crop run through the public API: one launch per batch of samples
 * with different shapes (sizes that do not divide the block, several blocks per sample, empty
 * samples and windows), windows inside and reaching outside the input with every
 * out_of_bounds_policy (error, pad with one or per-channel fill values, trim_to_shape and
 * slice's border modes), and dtype conversions to uint8, float16 and float (slice's
 * truncation, crop's ConvertSat). The per-element rules are kernels/common/slice_elem.h,
 * which the CPU copy calls too.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/cuda_slice.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/slice.cuh"

TestSuite(cuda_slice, .timeout = 120);

static void cuda_slice_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_slice_body(ix, (const dalic_cu_slice_params_t *)p);
}

/* Runs the kernel over `in` into a fresh output like `cpu` prefilled with `canary`. */
static void cuda_slice_kernel(const tl_cu_slice_case_t *c, const tl_cu_batch_t *in,
                              const dalic_batch_t *cpu, uint8_t canary, tl_cu_batch_t *out)
{
	static _Alignas(8) uint8_t fill[TL_CU_MAX_SAMPLES][TL_CU_SLICE_MAX_FILL * 8];
	tl_cu_batch_like(out, cpu, canary);
	dalic_cu_slice_sample_t samples[TL_CU_MAX_SAMPLES];
	for (int i = 0; i < in->n; i++) {
		tl_cu_slice_plan(c, i, &samples[i].plan, fill[i]);
		samples[i].in = in->data[i];
		samples[i].out = out->data[i];
		samples[i].fill = fill[i];
	}
	dalic_cu_slice_params_t p = {samples, NULL, in->n, 0};
	dalic_cu_slice_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_slice_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, cuda_slice_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
}

static void cuda_slice_case(const tl_cu_slice_case_t *c)
{
	tl_cu_batch_t in, out;
	double range = c->in_type == DALIC_FLOAT || c->in_type == DALIC_FLOAT16 ? 400 : 1000;
	tl_cu_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, range, 5u + (uint32_t)c->n);
	tl_oneop_t t = tl_oneop(c->op, c->n, 1, NULL);
	cr_assert_eq(tl_cu_slice_set_args(t.op, c), DALIC_OK, "%s: %s", c->what,
	             dalic_last_error());
	tl_cu_batch_feed(t.p, "in", &in, c->layout);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	for (int k = 0; k < 2; k++) {
		cuda_slice_kernel(c, &in, cpu, k ? 0xff : 0x00, &out);
		tl_cu_expect_equal(cpu, &out, c->what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

/* HWC images: 1x1, 7x13, 33x65 (one block and a bit), 0x5 (empty), 17x300, 64x64x4. */
static const int64_t cuda_slice_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3,
                                         0, 5, 3, 17, 300, 3, 64, 64, 3};

Test(cuda_slice, slice_inside_same_type)
{
	const int64_t axes[] = {0, 1}, start[] = {0, 0}, ext[] = {1, 1};
	const int64_t shapes[] = {5, 9, 3, 40, 77, 3, 1, 1, 3, 70, 300, 3};
	tl_cu_slice_case_t c = {"slice HWC u8 inside", "slice", DALIC_UINT8, DALIC_NO_TYPE, "HWC",
	                        3, 4, shapes, "error", 0, NULL, 2, axes, start, ext};
	cuda_slice_case(&c);
	const int64_t start2[] = {1, 2}, ext2[] = {3, 5};
	const int64_t shapes2[] = {5, 9, 3, 40, 77, 3, 70, 300, 3};
	tl_cu_slice_case_t c2 = {"slice HWC i16 inside", "slice", DALIC_INT16, DALIC_NO_TYPE,
	                         "HWC", 3, 3, shapes2, NULL, 0, NULL, 2, axes, start2, ext2};
	cuda_slice_case(&c2);
}

Test(cuda_slice, slice_pad_per_channel_fill)
{
	const int64_t axes[] = {0, 1}, start[] = {-3, 5}, ext[] = {20, 70};
	const double fill[] = {7.5, -1, 300.7};
	tl_cu_slice_case_t c = {"slice HWC u8 pad", "slice", DALIC_UINT8, DALIC_NO_TYPE, "HWC",
	                        3, 6, cuda_slice_hwc, "pad", 3, fill, 2, axes, start, ext};
	cuda_slice_case(&c);
	const double one[] = {42};
	tl_cu_slice_case_t c2 = {"slice HWC float pad one", "slice", DALIC_FLOAT, DALIC_NO_TYPE,
	                         "HWC", 3, 6, cuda_slice_hwc, "pad", 1, one, 2, axes, start,
	                         ext};
	cuda_slice_case(&c2);
}

Test(cuda_slice, slice_chw_pad_and_trim)
{
	const int64_t shapes[] = {3, 31, 47, 3, 5, 1, 3, 129, 33, 3, 2, 600};
	const int64_t axes[] = {1, 2}, start[] = {-2, 10}, ext[] = {30, 500};
	const double fill[] = {1, 2, 3};
	tl_cu_slice_case_t c = {"slice CHW f32 pad", "slice", DALIC_FLOAT, DALIC_NO_TYPE, "CHW",
	                        3, 4, shapes, "pad", 3, fill, 2, axes, start, ext};
	cuda_slice_case(&c);
	tl_cu_slice_case_t c2 = {"slice CHW i32 trim", "slice", DALIC_INT32, DALIC_NO_TYPE, "CHW",
	                         3, 4, shapes, "trim_to_shape", 0, NULL, 2, axes, start, ext};
	cuda_slice_case(&c2);
}

Test(cuda_slice, slice_dtype_conversions)
{
	const int64_t axes[] = {0, 1}, start[] = {2, -4}, ext[] = {25, 40};
	const double fill[] = {-3.7};
	static const dalic_dtype_t ins[] = {DALIC_FLOAT, DALIC_INT16, DALIC_UINT8, DALIC_FLOAT16};
	static const dalic_dtype_t outs[] = {DALIC_UINT8, DALIC_FLOAT16, DALIC_FLOAT};
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 3; b++) {
			char what[64];
			snprintf(what, sizeof what, "slice %s->%s pad", dalic_dtype_name(ins[a]),
			         dalic_dtype_name(outs[b]));
			tl_cu_slice_case_t c = {what, "slice", ins[a], outs[b], "HWC", 3, 6,
			                        cuda_slice_hwc, "pad", 1, fill, 2, axes, start, ext};
			cuda_slice_case(&c);
		}
}

Test(cuda_slice, slice_border_modes)
{
	static const char *const modes[] = {"clamp", "reflect_1001", "reflect_101", "wrap"};
	const int64_t shapes[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 17, 300, 3, 2, 3, 1};
	const int64_t axes[] = {0, 1}, start[] = {-9, -40}, ext[] = {30, 150};
	for (int m = 0; m < 4; m++) {
		char what[64];
		snprintf(what, sizeof what, "slice HWC u8 %s", modes[m]);
		tl_cu_slice_case_t c = {what, "slice", DALIC_UINT8, DALIC_NO_TYPE, "HWC", 3, 5,
		                        shapes, modes[m], 0, NULL, 2, axes, start, ext};
		cuda_slice_case(&c);
		snprintf(what, sizeof what, "slice HWC i16->f16 %s", modes[m]);
		tl_cu_slice_case_t c2 = {what, "slice", DALIC_INT16, DALIC_FLOAT16, "HWC", 3, 5,
		                         shapes, modes[m], 0, NULL, 2, axes, start, ext};
		cuda_slice_case(&c2);
	}
}

Test(cuda_slice, slice_1d_2d_4d_and_no_layout)
{
	const int64_t s1[] = {1, 2049, 4000, 0, 17};
	const int64_t ax1[] = {0}, st1[] = {-5}, ex1[] = {2100};
	const double f1[] = {9};
	tl_cu_slice_case_t c1 = {"slice 1D f32 pad", "slice", DALIC_FLOAT, DALIC_NO_TYPE, NULL, 1,
	                         5, s1, "pad", 1, f1, 1, ax1, st1, ex1};
	cuda_slice_case(&c1);
	const int64_t s2[] = {9, 11, 100, 3, 1, 1};
	const int64_t ax2[] = {1}, st2[] = {1}, ex2[] = {9};
	tl_cu_slice_case_t c2 = {"slice HW u16 pad", "slice", DALIC_UINT16, DALIC_NO_TYPE, NULL, 2,
	                         3, s2, "pad", 0, NULL, 1, ax2, st2, ex2};
	cuda_slice_case(&c2);
	const int64_t s4[] = {3, 9, 11, 2, 2, 40, 17, 2};
	const int64_t ax4[] = {0, 2, 3}, st4[] = {1, -1, 0}, ex4[] = {3, 13, 2};
	const double f4[] = {-1, 5};
	tl_cu_slice_case_t c4 = {"slice FHWC i8 pad", "slice", DALIC_INT8, DALIC_NO_TYPE, "FHWC", 4,
	                         2, s4, "pad", 2, f4, 3, ax4, st4, ex4};
	cuda_slice_case(&c4);
}

Test(cuda_slice, crop_inside_and_pad)
{
	const int64_t shapes[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 17, 300, 3};
	tl_cu_slice_case_t c = {"crop HWC u8 inside", "crop", DALIC_UINT8, DALIC_NO_TYPE, "HWC", 3,
	                        4, shapes, NULL, 0, NULL, 0, NULL, NULL, NULL,
	                        1, 1, 0.3, 0.7};
	cuda_slice_case(&c);
	const double fill[] = {3, 250, -20};
	tl_cu_slice_case_t c2 = {"crop HWC u8 pad", "crop", DALIC_UINT8, DALIC_NO_TYPE, "HWC", 3, 6,
	                         cuda_slice_hwc, "pad", 3, fill, 0, NULL, NULL, NULL,
	                         21, 70, 0.25, 0.8};
	cuda_slice_case(&c2);
	tl_cu_slice_case_t c3 = {"crop HWC f32 trim", "crop", DALIC_FLOAT, DALIC_NO_TYPE, "HWC", 3,
	                         6, cuda_slice_hwc, "trim_to_shape", 0, NULL, 0, NULL, NULL,
	                         NULL, 21, 70, 0.0, 1.0};
	cuda_slice_case(&c3);
}

Test(cuda_slice, crop_chw_fhwc_and_conversions)
{
	const int64_t chw[] = {3, 31, 47, 1, 5, 1, 2, 129, 33};
	const double fill[] = {-2.5};
	tl_cu_slice_case_t c = {"crop CHW f32->u8 pad", "crop", DALIC_FLOAT, DALIC_UINT8, "CHW", 3,
	                        3, chw, "pad", 1, fill, 0, NULL, NULL, NULL, 20, 40, 0.5, 0.5};
	cuda_slice_case(&c);
	tl_cu_slice_case_t c2 = {"crop CHW i16->f16 pad", "crop", DALIC_INT16, DALIC_FLOAT16, "CHW",
	                         3, 3, chw, "pad", 1, fill, 0, NULL, NULL, NULL, 20, 40, 0.1, 0.9};
	cuda_slice_case(&c2);
	tl_cu_slice_case_t c3 = {"crop HWC u8->f32 pad", "crop", DALIC_UINT8, DALIC_FLOAT, "HWC", 3,
	                         6, cuda_slice_hwc, "pad", 1, fill, 0, NULL, NULL, NULL,
	                         50, 9, 0.6, 0.4};
	cuda_slice_case(&c3);
	const int64_t fhwc[] = {3, 9, 11, 3, 2, 40, 17, 3};
	tl_cu_slice_case_t c4 = {"crop FHWC f16->u8 trim", "crop", DALIC_FLOAT16, DALIC_UINT8,
	                         "FHWC", 4, 2, fhwc, "trim_to_shape", 0, NULL, 0, NULL, NULL,
	                         NULL, 12, 5, 0.2, 1.0};
	cuda_slice_case(&c4);
}

/* The border rule against DALI's patterns written out ("dcba|abcd|dcba" and so on). */
Test(cuda_slice, border_rules_written_out)
{
	const int64_t n = 4;
	const int64_t x[] = {-5, -4, -1, 0, 3, 4, 7, 8, 11};
	const int64_t clamp[] = {0, 0, 0, 0, 3, 3, 3, 3, 3};
	const int64_t r1001[] = {3, 3, 0, 0, 3, 3, 0, 0, 3};
	const int64_t r101[] = {1, 2, 1, 0, 3, 2, 1, 2, 1};
	const int64_t wrap[] = {3, 0, 3, 0, 3, 0, 3, 0, 3};
	for (int k = 0; k < 9; k++) {
		cr_expect_eq(dalic_slice_elem_border(SLICE_BORDER_CLAMP, x[k], n), clamp[k]);
		cr_expect_eq(dalic_slice_elem_border(SLICE_BORDER_REFLECT_1001, x[k], n), r1001[k],
		             "reflect_1001 of %lld", (long long)x[k]);
		cr_expect_eq(dalic_slice_elem_border(SLICE_BORDER_REFLECT_101, x[k], n), r101[k],
		             "reflect_101 of %lld", (long long)x[k]);
		cr_expect_eq(dalic_slice_elem_border(SLICE_BORDER_WRAP, x[k], n), wrap[k]);
	}
}
