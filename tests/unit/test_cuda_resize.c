/*
 * The CUDA resize kernel (kernels/cuda/resize.cuh) on the CPU grid runner against resize run
 * through the public API, byte for byte: every filter with antialias on and off, min_filter /
 * mag_filter apart (a sample scaled down on one axis and up on the other), every supported
 * input and output type, layouts HW, HWC, CHW, FHWC and FCHW with 1 to 5 channels, roi
 * (absolute, relative, flipped, partly outside the image), negative sizes, fractional sizes
 * with subpixel_scale on and off, and both pass orders. Batches mix shapes: an empty sample,
 * a 1x1 one, samples spanning many blocks. Each case runs twice, into outputs prefilled with
 * 0x00 and 0xff, with the intermediates prefilled with NaN (0xff bytes), so a value either
 * pass leaves unwritten shows.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/cuda_resize.h"
#include "tests/testlib/oneop.h"

#include "kernels/common/img_resample_cu.h"

TestSuite(cuda_resize, .timeout = 240);

static void cuda_resize_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_resize_body(ix, (const dalic_cu_resize_params_t *)p);
}

/* Both passes of the kernel over `b` on the grid runner, pass 0 to the end before pass 1. */
static void cuda_resize_run(const img_resample_cu_batch_t *b)
{
	float *tmp = malloc(sizeof(float) * (size_t)(b->ntmp + 1));
	cr_assert(tmp);
	tl_cu_fill(tmp, sizeof(float) * (size_t)b->ntmp, 0xff);
	for (int pass = 0; pass < 2; pass++) {
		dalic_cu_resize_params_t p = dalic_img_resample_cu_params(b, pass);
		p.tmp = tmp;
		dalic_cu_resize_grid(&p, NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
		dalic_cu_launch_t l = dalic_cu_resize_grid(&p, blocks, p.nblocks);
		int64_t calls = tl_cu_run_grid(l, cuda_resize_body, &p);
		cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
		free(blocks);
	}
	free(tmp);
}

/* Runs case c on the CPU and on the kernel and compares; returns the samples resampled
 * horizontally first [0] and vertically first [1] (of one run). */
static void cuda_resize_case(const tl_cu_resize_case_t *c, int64_t orders[2])
{
	static const char *const args[] = {"resize_x", "resize_y", NULL};
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, 100, 7u + (uint32_t)c->n);
	tl_oneop_t t = tl_oneop("resize", c->n, 1, args);
	cr_assert_eq(tl_cu_resize_set_args(t.op, c), DALIC_OK, "%s: %s", c->what,
	             dalic_last_error());
	tl_cu_batch_feed(t.p, "in", &in, c->layout);
	tl_oneop_feed_scalars(&t, "resize_x", c->n, c->rx);
	tl_oneop_feed_scalars(&t, "resize_y", c->n, c->ry);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	const int h = tl_cu_resize_h_dim(c);
	for (int canary = 0; canary < 2; canary++) {
		tl_cu_batch_like(&out, cpu, canary ? 0xff : 0x00);
		img_resample_cu_batch_t b;
		memset(&b, 0, sizeof b);
		for (int i = 0; i < c->n; i++) {
			img_resample_job_t job;
			int64_t planes;
			char err[256];
			cr_assert(tl_cu_resize_job(c, i, in.data[i], out.data[i], &job, &planes,
			                           err, sizeof err),
			          "%s: sample %d: %s", c->what, i, err);
			cr_expect(job.out_h == out.shape[i][h] && job.out_w == out.shape[i][h + 1],
			          "%s: sample %d: kernel %dx%d, CPU %lldx%lld", c->what, i,
			          job.out_h, job.out_w, (long long)out.shape[i][h],
			          (long long)out.shape[i][h + 1]);
			cr_assert_eq(dalic_img_resample_cu_add(&b, &job, planes), 0, "%s: %s",
			             c->what, dalic_last_error());
		}
		cuda_resize_run(&b);
		tl_cu_expect_equal(cpu, &out, c->what);
		if (orders) {
			orders[0] = b.orders[0];
			orders[1] = b.orders[1];
		}
		dalic_img_resample_cu_free(&b);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

/* An empty sample, a 1x1 one, up / down / mixed scaling, samples of many blocks. */
static const int64_t cuda_resize_hwc[] = {1, 1, 3, 7,  13, 3, 33, 65, 3,
                                          0, 5, 3, 40, 70, 3, 50, 9,  3};
static const float cuda_resize_rx[] = {3, 20, 17, 7, 131, 4};
static const float cuda_resize_ry[] = {5, 3, 70, 0, 21, 90};

static tl_cu_resize_case_t cuda_resize_hwc_case(const char *what, dalic_dtype_t it,
                                                dalic_dtype_t ot)
{
	tl_cu_resize_case_t c;
	memset(&c, 0, sizeof c);
	c.what = what;
	c.in_type = it;
	c.out_type = ot;
	c.layout = "HWC";
	c.ndim = 3;
	c.n = 6;
	c.shapes = cuda_resize_hwc;
	c.rx = cuda_resize_rx;
	c.ry = cuda_resize_ry;
	c.interp = c.min_filter = c.mag_filter = -1;
	c.antialias = true;
	c.subpixel = true;
	return c;
}

Test(cuda_resize, every_filter_antialias_on_and_off)
{
	static const int filters[] = {DALIC_INTERP_NN,         DALIC_INTERP_LINEAR,
	                              DALIC_INTERP_TRIANGULAR, DALIC_INTERP_CUBIC,
	                              DALIC_INTERP_LANCZOS3,   DALIC_INTERP_GAUSSIAN};
	for (int f = 0; f < 6; f++)
		for (int aa = 0; aa < 2; aa++) {
			char what[64];
			snprintf(what, sizeof what, "u8 interp %d antialias %d", filters[f], aa);
			tl_cu_resize_case_t c =
			    cuda_resize_hwc_case(what, DALIC_UINT8, DALIC_UINT8);
			c.interp = filters[f];
			c.antialias = aa;
			cuda_resize_case(&c, NULL);
		}
}

Test(cuda_resize, min_and_mag_filters)
{
	static const int pairs[][3] = {
	    {DALIC_INTERP_CUBIC, DALIC_INTERP_NN, -1},
	    {DALIC_INTERP_NN, DALIC_INTERP_LANCZOS3, -1},
	    {DALIC_INTERP_GAUSSIAN, DALIC_INTERP_TRIANGULAR, -1},
	    {DALIC_INTERP_TRIANGULAR, -1, DALIC_INTERP_CUBIC}, /* mag from interp_type */
	    {-1, DALIC_INTERP_GAUSSIAN, DALIC_INTERP_NN},      /* min from interp_type */
	};
	for (int k = 0; k < 5; k++)
		for (int aa = 0; aa < 2; aa++) {
			char what[64];
			snprintf(what, sizeof what, "min %d mag %d interp %d antialias %d",
			         pairs[k][0], pairs[k][1], pairs[k][2], aa);
			tl_cu_resize_case_t c =
			    cuda_resize_hwc_case(what, DALIC_UINT8, DALIC_UINT8);
			c.min_filter = pairs[k][0];
			c.mag_filter = pairs[k][1];
			c.interp = pairs[k][2];
			c.antialias = aa;
			cuda_resize_case(&c, NULL);
		}
}

Test(cuda_resize, every_type)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_UINT16, DALIC_FLOAT};
	static const int filters[] = {DALIC_INTERP_LANCZOS3, DALIC_INTERP_CUBIC,
	                              DALIC_INTERP_LINEAR};
	for (int t = 0; t < 4; t++)
		for (int o = 0; o < 2; o++)
			for (int f = 0; f < 3; f++) {
				dalic_dtype_t ot = o ? DALIC_FLOAT : types[t];
				if (o && types[t] == DALIC_FLOAT)
					continue;
				char what[64];
				snprintf(what, sizeof what, "%s -> %s interp %d",
				         dalic_dtype_name(types[t]), dalic_dtype_name(ot),
				         filters[f]);
				tl_cu_resize_case_t c = cuda_resize_hwc_case(what, types[t], ot);
				c.interp = filters[f];
				cuda_resize_case(&c, NULL);
			}
}

Test(cuda_resize, layouts_and_channels)
{
	static const int64_t fhwc[] = {3, 17, 23, 3, 2, 30, 8, 4};
	static const int64_t chw[] = {3, 17, 23, 5, 30, 8};
	static const int64_t fchw[] = {2, 3, 17, 23, 3, 1, 30, 8};
	static const int64_t hw[] = {17, 23, 30, 8, 1, 1};
	static const int64_t hwc[] = {17, 23, 1, 30, 8, 2, 19, 21, 5};
	static const float rx[] = {40, 5, 9}, ry[] = {8, 45, 2};
	tl_cu_resize_case_t c = cuda_resize_hwc_case("FHWC u8", DALIC_UINT8, DALIC_UINT8);
	c.rx = rx;
	c.ry = ry;
	c.interp = DALIC_INTERP_CUBIC;
	c.layout = "FHWC", c.ndim = 4, c.n = 2, c.shapes = fhwc;
	cuda_resize_case(&c, NULL);
	c.what = "CHW f32", c.in_type = c.out_type = DALIC_FLOAT;
	c.layout = "CHW", c.ndim = 3, c.n = 2, c.shapes = chw;
	cuda_resize_case(&c, NULL);
	c.what = "FCHW i16", c.in_type = c.out_type = DALIC_INT16;
	c.layout = "FCHW", c.ndim = 4, c.n = 2, c.shapes = fchw;
	cuda_resize_case(&c, NULL);
	c.what = "HW (no layout) u16", c.in_type = c.out_type = DALIC_UINT16;
	c.layout = NULL, c.ndim = 2, c.n = 3, c.shapes = hw;
	c.interp = DALIC_INTERP_LANCZOS3;
	cuda_resize_case(&c, NULL);
	c.what = "HWC 1, 2 and 5 channels u8 -> f32", c.in_type = DALIC_UINT8;
	c.out_type = DALIC_FLOAT;
	c.layout = "HWC", c.ndim = 3, c.n = 3, c.shapes = hwc;
	c.interp = DALIC_INTERP_GAUSSIAN;
	cuda_resize_case(&c, NULL);
}

Test(cuda_resize, roi_flips_and_subpixel_scale)
{
	static const double start[] = {2.5, 3.25}, end[] = {30.5, 50.75};
	static const double flipped_start[] = {30.5, 3.25}, flipped_end[] = {2.5, 50.75};
	static const double outside_start[] = {-10, 40.5}, outside_end[] = {25, 90};
	static const double rel_start[] = {0.1, 0.9}, rel_end[] = {0.75, 0.2};
	static const double *const roi[][2] = {{start, end},
	                                       {flipped_start, flipped_end},
	                                       {outside_start, outside_end},
	                                       {rel_start, rel_end}};
	static const int64_t shapes[] = {40, 70, 3, 33, 65, 3, 9, 60, 4};
	static const int roi_filters[] = {DALIC_INTERP_NN, DALIC_INTERP_LANCZOS3,
	                                  DALIC_INTERP_LINEAR, DALIC_INTERP_CUBIC};
	static const float rx[] = {-20, 31, 13.7f}, ry[] = {17, -9, 8.2f};
	for (int r = 0; r < 4; r++)
		for (int sub = 0; sub < 2; sub++) {
			char what[64];
			snprintf(what, sizeof what, "roi %d subpixel_scale %d", r, sub);
			tl_cu_resize_case_t c =
			    cuda_resize_hwc_case(what, DALIC_UINT8, DALIC_UINT8);
			c.n = 3;
			c.shapes = shapes;
			c.rx = rx;
			c.ry = ry;
			c.interp = roi_filters[r];
			c.roi_start = roi[r][0];
			c.roi_end = roi[r][1];
			c.roi_relative = r == 3;
			c.subpixel = sub;
			cuda_resize_case(&c, NULL);
		}
	/* fractional sizes without roi */
	static const float frx[] = {13.7f, 100.4f, 2.5f}, fry[] = {8.2f, 3.49f, 90.6f};
	for (int sub = 0; sub < 2; sub++) {
		tl_cu_resize_case_t c = cuda_resize_hwc_case(sub ? "fractional, subpixel_scale"
		                                                 : "fractional, no subpixel_scale",
		                                             DALIC_FLOAT, DALIC_FLOAT);
		c.n = 3;
		c.shapes = shapes;
		c.rx = frx;
		c.ry = fry;
		c.interp = DALIC_INTERP_CUBIC;
		c.subpixel = sub;
		cuda_resize_case(&c, NULL);
	}
}

Test(cuda_resize, both_pass_orders)
{
	/* narrowed a lot: horizontal first is cheaper; shortened a lot: vertical first */
	static const int64_t shapes[] = {40, 90, 3, 90, 40, 3, 90, 40, 1, 40, 90, 2};
	static const float rx[] = {10, 40, 40, 10}, ry[] = {40, 10, 10, 40};
	static const int filters[] = {DALIC_INTERP_NN, DALIC_INTERP_LINEAR, DALIC_INTERP_LANCZOS3};
	for (int f = 0; f < 3; f++) {
		tl_cu_resize_case_t c =
		    cuda_resize_hwc_case("pass orders", DALIC_UINT8, DALIC_UINT8);
		c.n = 4;
		c.shapes = shapes;
		c.rx = rx;
		c.ry = ry;
		c.interp = filters[f];
		int64_t orders[2];
		cuda_resize_case(&c, orders);
		cr_expect(orders[0] == 2 && orders[1] == 2,
		          "interp %d: %lld horizontal-first and %lld vertical-first samples",
		          filters[f], (long long)orders[0], (long long)orders[1]);
	}
}

/* The stores' rounding, by hand: + 0.5, clamp, truncate toward zero (so -1.6 gives -1). */
Test(cuda_resize, stores_round_like_dali)
{
	static const float v[] = {0.49f, 0.5f, 254.4f, 254.5f, 300, -0.6f, -1.6f, NAN};
	static const uint8_t u8[] = {0, 1, 254, 255, 255, 0, 0, 0};
	static const int16_t i16[] = {0, 1, 254, 255, 300, 0, -1, 0};
	static const uint16_t u16[] = {0, 1, 254, 255, 300, 0, 0, 0};
	for (int k = 0; k < 8; k++) {
		uint8_t a;
		int16_t b;
		uint16_t c;
		float f;
		dalic_resample_px_store(DALIC_UINT8, &a, 0, v[k]);
		dalic_resample_px_store(DALIC_INT16, &b, 0, v[k]);
		dalic_resample_px_store(DALIC_UINT16, &c, 0, v[k]);
		dalic_resample_px_store(DALIC_FLOAT, &f, 0, v[k]);
		cr_expect(a == u8[k] && b == i16[k] && c == u16[k], "%g: %u %d %u", (double)v[k], a,
		          b, c);
		cr_expect(!memcmp(&f, &v[k], 4), "%g stored as float", (double)v[k]);
	}
	int16_t lo, hi;
	dalic_resample_px_store(DALIC_INT16, &lo, 0, -40000.0f);
	dalic_resample_px_store(DALIC_INT16, &hi, 0, 32766.6f);
	cr_expect(lo == -32768 && hi == 32767, "%d %d", lo, hi);
	uint16_t top;
	dalic_resample_px_store(DALIC_UINT16, &top, 0, 70000.0f);
	cr_expect_eq(top, 65535);
}
