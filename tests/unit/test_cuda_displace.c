/*
 * The displacement kernel (kernels/cuda/displace.cuh) on the CPU grid runner, compared byte for
 * byte with water and sphere run through the public API: HWC batches of odd sizes (1x1, where
 * sphere's radius divides by 0, an empty image, samples spanning several blocks), uint8 and
 * float, NN and LINEAR, fill values that truncate and saturate, and a per-sample mask (masked
 * samples are copied). water's row and column shifts are made on the host by the CPU
 * operator's functions (dalic_displace_water_dx/dy), as a launch makes them.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/common/displace.h"
#include "kernels/cuda/displace.cuh"

TestSuite(cuda_displace, .timeout = 120);

static void cuda_displace_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_displace_body(ix, (const dalic_cu_displace_params_t *)p);
}

/* 1x1, 7x13, 33x300 (several blocks), an empty image, 40x70 single-channel, 2x1 */
static const int64_t cuda_displace_hwc[] = {1, 1, 3, 7,  13, 3, 33, 300, 3,
                                            0, 5, 3, 40, 70, 1, 2,  1,   2};

/* op "water" (with `wa`'s arguments) or "sphere"; mask[i] per sample. */
static void cuda_displace_case(const char *what, const char *op, dalic_dtype_t dtype, bool linear,
                               double fill, const dalic_displace_water_t *wa, const int32_t *mask)
{
	static const char *const names[] = {"mask", NULL};
	const int n = 6;
	bool water = !strcmp(op, "water");
	tl_cu_batch_t in;
	tl_cu_batch_random(&in, dtype, 3, n, cuda_displace_hwc, 300, 7u);
	tl_oneop_t t = tl_oneop(op, n, 1, names);
	cr_assert_eq(
	    dalic_op_set_int(t.op, "interp_type", linear ? DALIC_INTERP_LINEAR : DALIC_INTERP_NN),
	    DALIC_OK);
	cr_assert_eq(dalic_op_set_float(t.op, "fill_value", fill), DALIC_OK);
	if (water) {
		const char *args[] = {"ampl_x", "ampl_y", "freq_x", "freq_y", "phase_x", "phase_y"};
		const float v[] = {wa->ax, wa->ay, wa->fx, wa->fy, wa->phx, wa->phy};
		for (int k = 0; k < 6; k++)
			cr_assert_eq(dalic_op_set_float(t.op, args[k], v[k]), DALIC_OK);
	}
	tl_cu_batch_feed(t.p, "in", &in, "HWC");
	tl_cu_feed_ints(t.p, "mask", n, mask);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	dalic_cu_displace_sample_t s[TL_CU_MAX_SAMPLES];
	float *dx[TL_CU_MAX_SAMPLES] = {0}, *dy[TL_CU_MAX_SAMPLES] = {0};
	memset(s, 0, sizeof s);
	for (int i = 0; i < n; i++) {
		dalic_displace_img_t *g = &s[i].img;
		g->dtype = dtype;
		g->h = in.shape[i][0];
		g->w = in.shape[i][1];
		g->c = in.shape[i][2];
		g->linear = linear;
		g->fill = dalic_displace_fill(dtype, fill);
		s[i].kind = !mask[i] ? DALIC_CU_DISPLACE_COPY
		            : water  ? DALIC_CU_DISPLACE_WATER
		                     : DALIC_CU_DISPLACE_SPHERE;
		if (water) {
			dx[i] = calloc((size_t)g->h + 1, sizeof(float));
			dy[i] = calloc((size_t)g->w + 1, sizeof(float));
			for (int64_t y = 0; y < g->h; y++)
				dx[i][y] = dalic_displace_water_dx(wa, y);
			for (int64_t x = 0; x < g->w; x++)
				dy[i][x] = dalic_displace_water_dy(wa, x);
			s[i].dx = dx[i];
			s[i].dy = dy[i];
		}
	}
	for (int canary = 0; canary < 2; canary++) {
		tl_cu_batch_t out;
		tl_cu_batch_like(&out, cpu, canary ? 0xff : 0x00);
		for (int i = 0; i < n; i++) {
			s[i].img.in = in.data[i];
			s[i].img.out = out.data[i];
		}
		dalic_cu_displace_params_t p = {s, NULL, n, 0};
		dalic_cu_displace_grid(&p, NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
		dalic_cu_launch_t l = dalic_cu_displace_grid(&p, blocks, p.nblocks);
		int64_t calls = tl_cu_run_grid(l, cuda_displace_body, &p);
		cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
		tl_cu_expect_equal(cpu, &out, what);
		free(blocks);
		tl_cu_batch_free(&out);
	}
	for (int i = 0; i < n; i++) {
		free(dx[i]);
		free(dy[i]);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

static const int32_t cuda_displace_all[] = {1, 1, 1, 1, 1, 1};
static const int32_t cuda_displace_some[] = {1, 0, 1, 1, 0, 1};

Test(cuda_displace, water_nn_and_linear)
{
	const dalic_displace_water_t wa = {10, 6.5f, 0.049f, 0.13f, 0.3f, -1.2f};
	for (int lin = 0; lin < 2; lin++) {
		cuda_displace_case("water u8", "water", DALIC_UINT8, lin, 77.9, &wa,
		                   cuda_displace_all);
		cuda_displace_case("water f32", "water", DALIC_FLOAT, lin, -3.25, &wa,
		                   cuda_displace_all);
	}
	cuda_displace_case("water u8 fill saturates", "water", DALIC_UINT8, true, 1000, &wa,
	                   cuda_displace_some);
}

Test(cuda_displace, sphere_nn_and_linear)
{
	for (int lin = 0; lin < 2; lin++) {
		cuda_displace_case("sphere u8", "sphere", DALIC_UINT8, lin, 9.7, NULL,
		                   cuda_displace_all);
		cuda_displace_case("sphere f32", "sphere", DALIC_FLOAT, lin, 0.5, NULL,
		                   cuda_displace_some);
	}
	cuda_displace_case("sphere u8 negative fill", "sphere", DALIC_UINT8, true, -4, NULL,
	                   cuda_displace_some);
}
