/*
 * The colour kernels (kernels/cuda/color.cuh) on the CPU grid runner, compared byte for byte
 * with hsv, color_twist and brightness_contrast run through the public API: batches of HWC,
 * FHWC and DHWC samples of odd sizes (an empty one, several blocks per sample), per-sample
 * factors, every supported input and output type (float16 in and out for the twist family),
 * and saturation (factors that push values past each type's range). Also checks the
 * kernels' ConvertSat stores (color_px.h) against kernels/common/sat_cast.h.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/common/color.h"
#include "kernels/common/sat_cast.h"
#include "kernels/cuda/color.cuh"

TestSuite(cuda_color, .timeout = 120);

static void cuda_color_twist(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_color_twist_body(ix, (const dalic_cu_color_params_t *)p);
}

static void cuda_color_muladd(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_color_muladd_body(ix, (const dalic_cu_color_params_t *)p);
}

/* Runs one kernel over `in` with per-sample descriptors already in s[] (in, items, factors). */
static void cuda_color_kernel(const tl_cu_batch_t *in, dalic_cu_color_sample_t *s, bool twist,
                              const dalic_batch_t *cpu, uint8_t canary, tl_cu_batch_t *out)
{
	tl_cu_batch_like(out, cpu, canary);
	for (int i = 0; i < in->n; i++) {
		s[i].in = in->data[i];
		s[i].out = out->data[i];
		s[i].it = in->dtype;
		s[i].ot = out->dtype;
		s[i].items =
		    (int64_t)(in->bytes[i] / dalic_dtype_size(in->dtype)) / (twist ? 3 : 1);
	}
	dalic_cu_color_params_t p = {s, NULL, in->n, 0};
	dalic_cu_color_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_color_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, twist ? cuda_color_twist : cuda_color_muladd, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
}

/* op: "hsv" (a = hue, b = saturation, c = value), "color_twist" (hue, saturation, contrast,
 * brightness = d) or "brightness_contrast" (brightness, brightness_shift, contrast). */
static void cuda_color_case(const char *what, const char *opname, dalic_dtype_t it,
                            dalic_dtype_t ot, const char *layout, int ndim, int n,
                            const int64_t *shapes, const float *a, const float *b, const float *c,
                            const float *d, double range)
{
	static const char *const hsv[] = {"hue", "saturation", "value", NULL};
	static const char *const twist[] = {"hue", "saturation", "contrast", "brightness", NULL};
	static const char *const bc[] = {"brightness", "brightness_shift", "contrast", NULL};
	bool is_bc = !strcmp(opname, "brightness_contrast");
	const char *const *names = is_bc ? bc : !strcmp(opname, "hsv") ? hsv : twist;
	const float *vals[4] = {a, b, c, d};
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, it, ndim, n, shapes, range, 5u + (uint32_t)n);
	tl_oneop_t t = tl_oneop(opname, n, 1, names);
	cr_assert_eq(dalic_op_set_int(t.op, "dtype", ot), DALIC_OK);
	tl_cu_batch_feed(t.p, "in", &in, layout);
	for (int k = 0; names[k]; k++)
		tl_oneop_feed_scalars(&t, names[k], n, vals[k]);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	dalic_cu_color_sample_t s[TL_CU_MAX_SAMPLES];
	memset(s, 0, sizeof s);
	for (int i = 0; i < n; i++) {
		if (is_bc)
			dalic_color_bc_coeffs(a[i], b[i], c[i], dalic_color_half_range(it),
			                      dalic_color_full_range(ot), &s[i].mul, &s[i].add);
		else if (names == hsv)
			dalic_color_twist_sample(it, a[i], b[i], c[i], 1, 1, s[i].m, &s[i].offset);
		else
			dalic_color_twist_sample(it, a[i], b[i], 1, d[i], c[i], s[i].m,
			                         &s[i].offset);
	}
	for (int canary = 0; canary < 2; canary++) {
		cuda_color_kernel(&in, s, !is_bc, cpu, canary ? 0xff : 0x00, &out);
		tl_cu_expect_equal(cpu, &out, what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

static const int64_t cuda_color_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 70, 3};
static const float cuda_color_hue[] = {0, 45, -120, 30, 200};
static const float cuda_color_sat[] = {1, 0.5f, 1.7f, 0, 2.5f};
static const float cuda_color_val[] = {1, 1.2f, 0.6f, 1, 3};

Test(cuda_color, hsv_every_type)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32, DALIC_FLOAT,
	                                      DALIC_FLOAT16};
	static const double ranges[] = {255, 30000, 2e9, 1.5, 2};
	for (int k = 0; k < 5; k++)
		cuda_color_case("hsv", "hsv", types[k], types[(k + 2) % 5], "HWC", 3, 5,
		                cuda_color_hwc, cuda_color_hue, cuda_color_sat, cuda_color_val,
		                NULL, ranges[k]);
	cuda_color_case("hsv u8 -> u8", "hsv", DALIC_UINT8, DALIC_UINT8, "HWC", 3, 5,
	                cuda_color_hwc, cuda_color_hue, cuda_color_sat, cuda_color_val, NULL, 255);
}

Test(cuda_color, color_twist_sequences_and_volumes)
{
	const int64_t fhwc[] = {3, 9, 11, 3, 2, 40, 17, 3};
	const float hue[] = {10, -60}, sat[] = {1.3f, 0.2f}, con[] = {1.5f, 0.4f},
	            bri[] = {0.9f, 1.8f};
	cuda_color_case("color_twist FHWC u8", "color_twist", DALIC_UINT8, DALIC_UINT8, "FHWC", 4,
	                2, fhwc, hue, sat, con, bri, 255);
	cuda_color_case("color_twist DHWC f16 -> f32", "color_twist", DALIC_FLOAT16, DALIC_FLOAT,
	                "DHWC", 4, 2, fhwc, hue, sat, con, bri, 1);
	cuda_color_case("color_twist HWC f32 -> i16", "color_twist", DALIC_FLOAT, DALIC_INT16,
	                "HWC", 3, 2, cuda_color_hwc, hue, sat, con, bri, 40000);
}

Test(cuda_color, brightness_contrast_every_type)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32, DALIC_FLOAT};
	static const double ranges[] = {255, 32767, 2.1e9, 2};
	const float bri[] = {1, 1.5f, 0.3f, 2, 0.8f}, shift[] = {0, 0.1f, -0.2f, 0.5f, 0},
	            con[] = {1, 0.5f, 2.5f, 1.2f, 0};
	for (int i = 0; i < 4; i++)
		for (int o = 0; o < 4; o++)
			cuda_color_case("brightness_contrast", "brightness_contrast", types[i],
			                types[o], "HWC", 3, 5, cuda_color_hwc, bri, shift, con,
			                NULL, ranges[i]);
}

Test(cuda_color, sat_stores_are_sat_cast)
{
	uint8_t u8;
	int16_t i16;
	int32_t i32;
	uint16_t h;
	for (uint32_t x = 0; x < 0xffffffffu - 8191; x += 8191) {
		float f;
		memcpy(&f, &x, 4);
		dalic_color_px_store(DALIC_UINT8, &u8, 0, f);
		dalic_color_px_store(DALIC_INT16, &i16, 0, f);
		dalic_color_px_store(DALIC_INT32, &i32, 0, f);
		dalic_color_px_store(DALIC_FLOAT16, &h, 0, f);
		if (u8 != dalic_sat_f2u8(f) || i16 != dalic_sat_f2i16(f) ||
		    i32 != dalic_sat_f2i32(f) || h != dalic_sat_f2half(f))
			cr_assert_fail(
			    "float %08x (%a): kernel %u %d %d %04x, sat_cast %u %d %d %04x", x,
			    (double)f, u8, i16, i32, h, dalic_sat_f2u8(f), dalic_sat_f2i16(f),
			    dalic_sat_f2i32(f), dalic_sat_f2half(f));
	}
	/* the halves near every rounding point of the small integers */
	for (float f = -40000.0f; f < 40000.0f; f += 0.25f) {
		dalic_color_px_store(DALIC_UINT8, &u8, 0, f);
		dalic_color_px_store(DALIC_INT16, &i16, 0, f);
		cr_assert(u8 == dalic_sat_f2u8(f) && i16 == dalic_sat_f2i16(f), "%g", (double)f);
	}
}
