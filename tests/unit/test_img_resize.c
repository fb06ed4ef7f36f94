/*
 * resize: DALI's output-size rules on hand-computed cases (modes, max_size, resize_shorter /
 * longer, flips, subpixel_scale), hand-computed pixel values on tiny images, and every filter
 * on a real photo against a slow 2-D reference written from the definitions below.
 *
 * Reference definitions: output pixel x samples source coordinate c = lo + (x + 0.5) * scale
 * in pixel-centre units (pixel i is centred at i); taps are the source pixels i with
 * -h <= i - c < h for the filter's half-width h, clamped to the image; weights are the filter
 * at (i - c), normalised. Scaling down with antialias widens the filter by in / out. The
 * reference sums the 2-D window in double; dalic sums two 1-D passes in float, so uint8
 * results may differ by one level where a value sits at .5 — hence a tolerance of 1.
 */
#include "tests/testlib/image.h"

TestSuite(img_resize, .timeout = 30);

/* external_source "in" (uint8 HWC zeros of H x W x 3) -> resize, configured by the caller. */
static dalic_pipeline_t *img_resize_zeros_pipeline(dalic_op_t **rs)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	*rs = tl_op(p, "resize");
	tl_input(*rs, "in");
	tl_output(p, *rs);
	return p;
}

static const int64_t *img_resize_out_shape_for(dalic_pipeline_t *p, int64_t h, int64_t w)
{
	uint8_t *zeros = calloc((size_t)(h * w * 3), 1);
	const int64_t shape[3] = {h, w, 3};
	tl_feed(p, "in", DALIC_UINT8, 3, 1, shape, zeros, "HWC");
	free(zeros);
	const dalic_batch_t *b = tl_run(p, 0);
	return dalic_batch_shape(b, 0);
}

static void img_resize_expect_size(dalic_pipeline_t *p, int64_t h, int64_t w, int64_t oh,
                                   int64_t ow)
{
	const int64_t *s = img_resize_out_shape_for(p, h, w);
	cr_expect(s[0] == oh && s[1] == ow && s[2] == 3, "%lldx%lld -> %lldx%lld, expected %lldx%lld",
		  (long long)h, (long long)w, (long long)s[0], (long long)s[1], (long long)oh,
		  (long long)ow);
}

Test(img_resize, output_size_rules)
{
	dalic_op_t *rs;
	/* DALI's docs: not_smaller, size 800, max_size 1400 on 1200x600 (W x H) -> 1400x700. */
	dalic_pipeline_t *p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_string(rs, "mode", "not_smaller"));
	ASSERT_OK(dalic_op_set_floats(rs, "size", 1, (const double[]){800}));
	ASSERT_OK(dalic_op_set_floats(rs, "max_size", 1, (const double[]){1400}));
	img_resize_expect_size(p, 600, 1200, 700, 1400);
	dalic_pipeline_destroy(p);

	/* resize_shorter 256 on 300x451: 451 * 256 / 300 = 384.85 -> 385. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_shorter", 256));
	img_resize_expect_size(p, 300, 451, 256, 385);
	dalic_pipeline_destroy(p);

	/* resize_longer 100 on 300x451: 300 * 100 / 451 = 66.52 -> 67. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_longer", 100));
	img_resize_expect_size(p, 300, 451, 67, 100);
	dalic_pipeline_destroy(p);

	/* default mode, only resize_x: the height scales alike, 300 * 200 / 451 = 133.04. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 200));
	img_resize_expect_size(p, 300, 451, 133, 200);
	dalic_pipeline_destroy(p);

	/* stretch: the unspecified extent keeps its size. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 200));
	ASSERT_OK(dalic_op_set_string(rs, "mode", "stretch"));
	img_resize_expect_size(p, 300, 451, 300, 200);
	dalic_pipeline_destroy(p);

	/* not_larger 100x100 on 300x451: scale min(1/3, 100/451) -> 66.52 x 100. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_string(rs, "mode", "not_larger"));
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){100, 100}));
	img_resize_expect_size(p, 300, 451, 67, 100);
	dalic_pipeline_destroy(p);

	/* default mode with max_size: only the offending extent is clamped (aspect not kept):
	 * resize_y 600 doubles the width to 902, capped at 800. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_y", 600));
	ASSERT_OK(dalic_op_set_floats(rs, "max_size", 2, (const double[]){1000, 800}));
	img_resize_expect_size(p, 300, 451, 600, 800);
	dalic_pipeline_destroy(p);

	/* size with a 0 extent: that extent follows the other's scale; 100 * 451 / 300. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){100, 0}));
	img_resize_expect_size(p, 300, 451, 100, 150);
	dalic_pipeline_destroy(p);

	/* Tiny outputs round up to one pixel. */
	p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){0.2, 0.3}));
	img_resize_expect_size(p, 300, 451, 1, 1);
	dalic_pipeline_destroy(p);
}

Test(img_resize, conflicting_size_arguments_fail)
{
	dalic_op_t *rs;
	dalic_pipeline_t *p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 10));
	ASSERT_OK(dalic_op_set_float(rs, "resize_shorter", 10));
	uint8_t px[12] = {0};
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){2, 2, 3}, px, "HWC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Exactly one method of specifying size must be used");
	dalic_pipeline_destroy(p);
}

/* One-channel float rows through resize with a given interp and antialias. */
static const float *img_resize_row(const float *in, int n, int out, int interp, bool aa,
                                   dalic_pipeline_t **pp)
{
	dalic_op_t *rs;
	dalic_pipeline_t *p = img_resize_zeros_pipeline(&rs);
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){1, out}));
	ASSERT_OK(dalic_op_set_int(rs, "interp_type", interp));
	ASSERT_OK(dalic_op_set_bool(rs, "antialias", aa));
	tl_feed(p, "in", DALIC_FLOAT, 3, 1, (const int64_t[]){1, n, 1}, in, "HWC");
	*pp = p;
	return dalic_batch_data(tl_run(p, 0), 0);
}

Test(img_resize, hand_computed_linear_values)
{
	dalic_pipeline_t *p;
	/* Upscale [0, 100] to 4: centres at -0.25, 0.25, 0.75, 1.25 (clamped at the edges). */
	const float *o =
	    img_resize_row((const float[]){0, 100}, 2, 4, DALIC_INTERP_LINEAR, true, &p);
	const float up[4] = {0, 25, 75, 100};
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(o[i], up[i], 1e-4, "up %d: %g", i, o[i]);
	dalic_pipeline_destroy(p);
	/* Downscale [0, 40, 80, 120] to 2 with antialias: a triangle of radius 2 around 0.5
	 * and 2.5 -> weights 1/8, 3/8, 3/8, 1/8 -> 25 and 95. */
	const float in4[4] = {0, 40, 80, 120};
	o = img_resize_row(in4, 4, 2, DALIC_INTERP_LINEAR, true, &p);
	cr_expect_float_eq(o[0], 25, 1e-4, "%g", o[0]);
	cr_expect_float_eq(o[1], 95, 1e-4, "%g", o[1]);
	dalic_pipeline_destroy(p);
	/* Without antialias: plain linear between the two nearest pixels -> 20 and 100. */
	o = img_resize_row(in4, 4, 2, DALIC_INTERP_LINEAR, false, &p);
	cr_expect_float_eq(o[0], 20, 1e-4, "%g", o[0]);
	cr_expect_float_eq(o[1], 100, 1e-4, "%g", o[1]);
	dalic_pipeline_destroy(p);
	/* NN picks floor(coordinate): 4 -> 3 samples at 0.67, 2, 3.33 -> pixels 0, 2, 3. */
	o = img_resize_row(in4, 4, 3, DALIC_INTERP_NN, true, &p);
	cr_expect(o[0] == 0 && o[1] == 80 && o[2] == 120, "%g %g %g", o[0], o[1], o[2]);
	dalic_pipeline_destroy(p);
}

/* ---- the photo against the 2-D reference ------------------------------------------------ */
static double img_resize_kernel(int interp, double t, double h)
{
	double a = fabs(t) / h;
	switch (interp) {
	case DALIC_INTERP_GAUSSIAN:
		return a <= 1 ? exp(-4 * a * a) : 0;
	case DALIC_INTERP_CUBIC: { /* Keys, a = -0.5, on [-2, 2] */
		double x = 2 * a;
		return x < 1 ? 1.5 * x * x * x - 2.5 * x * x + 1
			     : x < 2 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 0;
	}
	case DALIC_INTERP_LANCZOS3: { /* sinc(x) sinc(x / 3) on [-3, 3] */
		double x = 3 * a;
		if (x >= 3)
			return 0;
		return x == 0 ? 1 : 3 * sin(M_PI * x) * sin(M_PI * x / 3) / (M_PI * M_PI * x * x);
	}
	default: /* LINEAR, TRIANGULAR */
		return a < 1 ? 1 - a : 0;
	}
}

typedef struct img_resize_ref_axis {
	int nn;
	double lo, scale, half;
	int interp;
} img_resize_ref_axis_t;

static img_resize_ref_axis_t img_resize_ref_axis(int in, int out, int interp, bool aa)
{
	img_resize_ref_axis_t r = {interp == DALIC_INTERP_NN, 0, (double)in / out, 0, interp};
	bool down = out < in;
	double k = down && aa ? (double)in / out : 1;
	double radius = interp == DALIC_INTERP_CUBIC ? 2 : interp == DALIC_INTERP_LANCZOS3 ? 3 : 1;
	if (interp == DALIC_INTERP_TRIANGULAR && !(down && aa))
		r.interp = DALIC_INTERP_LINEAR;
	r.half = radius * k;
	if (interp == DALIC_INTERP_LINEAR && down && aa)
		r.interp = DALIC_INTERP_TRIANGULAR; /* LINEAR + antialias is the wide triangle */
	if (r.interp == DALIC_INTERP_LINEAR)
		r.half = 1;
	if (r.half < 0.5)
		r.half = 0.5;
	return r;
}

static void img_resize_reference(const tl_image_t *in, int oh, int ow, int interp, bool aa,
                                 uint8_t *out)
{
	img_resize_ref_axis_t ay = img_resize_ref_axis(in->h, oh, interp, aa),
	                      ax = img_resize_ref_axis(in->w, ow, interp, aa);
	/* nearest neighbour as DALI's ResampleNN: float coordinates, the row coordinate stepped
	 * by adding the scale, so a source coordinate that is a whole number in exact arithmetic
	 * falls where float rounding puts it */
	const float fy = (float)in->h / (float)oh, fx = (float)in->w / (float)ow;
	float row = 0.5f * fy;
	for (int y = 0; y < oh; y++, row += fy)
		for (int x = 0; x < ow; x++) {
			double cy = (y + 0.5) * ay.scale, cx = (x + 0.5) * ax.scale;
			if (ay.nn) {
				int sy = (int)floorf(row), sx = (int)floorf(((float)x + 0.5f) * fx);
				sy = sy >= in->h ? in->h - 1 : sy;
				sx = sx >= in->w ? in->w - 1 : sx;
				memcpy(out + ((size_t)y * ow + x) * 3,
				       in->px + ((size_t)sy * in->w + sx) * 3, 3);
				continue;
			}
			cy -= 0.5, cx -= 0.5;
			double acc[3] = {0, 0, 0}, wsum = 0;
			for (int i = (int)floor(cy - ay.half) - 1; i <= (int)ceil(cy + ay.half); i++) {
				double ty = i - cy;
				if (ty < -ay.half || ty >= ay.half)
					continue;
				double wy = img_resize_kernel(ay.interp, ty, ay.half);
				int si = i < 0 ? 0 : i >= in->h ? in->h - 1 : i;
				for (int j = (int)floor(cx - ax.half) - 1; j <= (int)ceil(cx + ax.half);
				     j++) {
					double tx = j - cx;
					if (tx < -ax.half || tx >= ax.half)
						continue;
					double w = wy * img_resize_kernel(ax.interp, tx, ax.half);
					int sj = j < 0 ? 0 : j >= in->w ? in->w - 1 : j;
					const uint8_t *p = in->px + ((size_t)si * in->w + sj) * 3;
					for (int c = 0; c < 3; c++)
						acc[c] += w * p[c];
					wsum += w;
				}
			}
			for (int c = 0; c < 3; c++) {
				double v = acc[c] / wsum + 0.5;
				out[((size_t)y * ow + x) * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
			}
		}
}

static void img_resize_compare_photo(int interp, bool aa, int oh, int ow)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, (const char *[]){"cat/chelsea.jpg"}));
	dalic_op_t *dec = tl_op(p, "decoders.image");
	tl_input(dec, dalic_op_output(rd, 0));
	dalic_op_t *rs = tl_op(p, "resize");
	tl_input(rs, dalic_op_output(dec, 0));
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){oh, ow}));
	ASSERT_OK(dalic_op_set_int(rs, "interp_type", interp));
	ASSERT_OK(dalic_op_set_bool(rs, "antialias", aa));
	tl_output(p, dec);
	tl_output(p, rs);
	ASSERT_OK(dalic_pipeline_run(p));
	tl_image_t in = tl_image_sample(dalic_pipeline_output(p, 0), 0);
	tl_image_t got = tl_image_sample(dalic_pipeline_output(p, 1), 0);
	cr_assert(got.h == oh && got.w == ow, "%dx%d", got.h, got.w);
	tl_image_t want = {ow, oh, 3, malloc((size_t)oh * ow * 3)};
	img_resize_reference(&in, oh, ow, interp, aa, want.px);
	long over = 0;
	int md = tl_image_max_diff(&got, &want, interp == DALIC_INTERP_NN ? 0 : 1, &over);
	cr_expect_eq(over, 0, "interp %d antialias %d %dx%d: %ld values off by more than the "
			      "tolerance (max %d)",
		     interp, aa, oh, ow, over, md);
	free(want.px);
	dalic_pipeline_destroy(p);
}

static const int img_resize_interps[] = {DALIC_INTERP_NN,         DALIC_INTERP_LINEAR,
                                         DALIC_INTERP_CUBIC,      DALIC_INTERP_LANCZOS3,
                                         DALIC_INTERP_TRIANGULAR, DALIC_INTERP_GAUSSIAN};

Test(img_resize, photo_downscale_matches_reference)
{
	for (int k = 0; k < 6; k++)
		for (int aa = 0; aa < 2; aa++)
			img_resize_compare_photo(img_resize_interps[k], aa, 131, 197);
}

Test(img_resize, photo_upscale_matches_reference)
{
	for (int k = 0; k < 6; k++)
		img_resize_compare_photo(img_resize_interps[k], true, 437, 650);
}

Test(img_resize, photo_mixed_scale_matches_reference)
{
	for (int k = 0; k < 6; k++)
		img_resize_compare_photo(img_resize_interps[k], true, 97, 700);
}

/* A region with the output's own size copies it; start > end mirrors it. */
Test(img_resize, roi_copies_and_flips)
{
	const int H = 30, W = 40;
	uint8_t img[30 * 40 * 3];
	for (int k = 0; k < H * W * 3; k++)
		img[k] = (uint8_t)(k * 37 % 251);
	for (int flip = 0; flip < 2; flip++) {
		dalic_op_t *rs;
		dalic_pipeline_t *p = img_resize_zeros_pipeline(&rs);
		ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){10, 20}));
		ASSERT_OK(
		    dalic_op_set_floats(rs, "roi_start", 2, (const double[]){5, flip ? 27 : 7}));
		ASSERT_OK(
		    dalic_op_set_floats(rs, "roi_end", 2, (const double[]){15, flip ? 7 : 27}));
		tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){H, W, 3}, img, "HWC");
		tl_image_t o = tl_image_sample(tl_run(p, 0), 0);
		cr_assert(o.h == 10 && o.w == 20);
		for (int y = 0; y < 10; y++)
			for (int x = 0; x < 20; x++) {
				int sx = flip ? 26 - x : 7 + x;
				cr_expect_eq(memcmp(o.px + ((size_t)y * 20 + x) * 3,
						    img + ((size_t)(5 + y) * W + sx) * 3, 3),
					     0, "flip %d at (%d, %d)", flip, y, x);
			}
		dalic_pipeline_destroy(p);
	}
}

/* Planar (CHW) float data resizes plane by plane like the interleaved image. */
Test(img_resize, chw_float_matches_hwc)
{
	const int H = 12, W = 17, C = 3;
	float hwc[12 * 17 * 3], chw[3 * 12 * 17];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			for (int c = 0; c < C; c++) {
				float v = (float)((y * 31 + x * 17 + c * 101) % 97) * 1.5f;
				hwc[(y * W + x) * C + c] = v;
				chw[(c * H + y) * W + x] = v;
			}
	const float *out[2];
	dalic_pipeline_t *p[2];
	for (int k = 0; k < 2; k++) {
		dalic_op_t *rs;
		p[k] = img_resize_zeros_pipeline(&rs);
		ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){7, 29}));
		ASSERT_OK(dalic_op_set_int(rs, "interp_type", DALIC_INTERP_CUBIC));
		const int64_t shape[2][3] = {{H, W, C}, {C, H, W}};
		tl_feed(p[k], "in", DALIC_FLOAT, 3, 1, shape[k], k ? chw : hwc, k ? "CHW" : "HWC");
		const dalic_batch_t *b = tl_run(p[k], 0);
		cr_expect_str_eq(dalic_batch_layout(b), k ? "CHW" : "HWC");
		out[k] = dalic_batch_data(b, 0);
	}
	for (int y = 0; y < 7; y++)
		for (int x = 0; x < 29; x++)
			for (int c = 0; c < C; c++)
				cr_expect_float_eq(out[0][(y * 29 + x) * C + c],
						   out[1][(c * 7 + y) * 29 + x], 1e-3);
	dalic_pipeline_destroy(p[0]);
	dalic_pipeline_destroy(p[1]);
}

/* dtype=FLOAT keeps the unrounded values the uint8 output rounds. */
Test(img_resize, float_output_is_the_unrounded_uint8_output)
{
	uint8_t img[9 * 11 * 3];
	for (int k = 0; k < 9 * 11 * 3; k++)
		img[k] = (uint8_t)(k * 53 % 256);
	const void *out[2];
	dalic_pipeline_t *p[2];
	for (int k = 0; k < 2; k++) {
		dalic_op_t *rs;
		p[k] = img_resize_zeros_pipeline(&rs);
		ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){5, 13}));
		if (k)
			ASSERT_OK(dalic_op_set_int(rs, "dtype", DALIC_FLOAT));
		tl_feed(p[k], "in", DALIC_UINT8, 3, 1, (const int64_t[]){9, 11, 3}, img, "HWC");
		const dalic_batch_t *b = tl_run(p[k], 0);
		cr_expect_eq(dalic_batch_dtype(b), k ? DALIC_FLOAT : DALIC_UINT8);
		out[k] = dalic_batch_data(b, 0);
	}
	for (int j = 0; j < 5 * 13 * 3; j++) {
		float f = ((const float *)out[1])[j];
		float clamped = f < 0 ? 0 : f > 255 ? 255 : f;
		cr_expect_eq(((const uint8_t *)out[0])[j], (uint8_t)(clamped + 0.5f), "value %d", j);
	}
	dalic_pipeline_destroy(p[0]);
	dalic_pipeline_destroy(p[1]);
}
