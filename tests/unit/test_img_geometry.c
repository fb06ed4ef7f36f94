/*
 * crop, flip and rotate on small images whose pixels encode their position, so expected
 * outputs are computed by hand: crop anchors (round / truncate, corners, out-of-bounds
 * policies, per-sample positions), flips along W / H in HWC and CHW and per sample from
 * random.coin_flip, rotate's canvas size and parity rule, exact 90-degree rotations, fill
 * values, and arbitrary angles against a double-precision reference.
 */
#include "tests/testlib/image.h"

TestSuite(img_geometry, .timeout = 30);

/* A uint8 H x W x 2 image: channel 0 = y * W + x, channel 1 = 255 - that. */
static uint8_t *img_geometry_position_image(int H, int W)
{
	uint8_t *p = malloc((size_t)H * W * 2);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			p[(y * W + x) * 2] = (uint8_t)(y * W + x);
			p[(y * W + x) * 2 + 1] = (uint8_t)(255 - (y * W + x));
		}
	return p;
}

/* external_source "in" -> op; output 0 is the op's output. */
static dalic_pipeline_t *img_geometry_one_op(const char *name, dalic_op_t **op, int batch)
{
	dalic_pipeline_t *p = tl_pipeline(batch);
	tl_source(p, "in");
	*op = tl_op(p, name);
	tl_input(*op, "in");
	tl_output(p, *op);
	return p;
}

static const dalic_batch_t *img_geometry_run_on(dalic_pipeline_t *p, const uint8_t *img, int H,
                                                int W)
{
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){H, W, 2}, img, "HWC");
	return tl_run(p, 0);
}

/* Checks out == in[y0 + y][x0 + x] over the output's extent. */
static void img_geometry_expect_window(const dalic_batch_t *b, const uint8_t *img, int W, int y0,
                                       int x0)
{
	const int64_t *s = dalic_batch_shape(b, 0);
	const uint8_t *o = dalic_batch_data(b, 0);
	for (int y = 0; y < s[0]; y++)
		for (int x = 0; x < s[1]; x++)
			cr_expect_eq(o[(y * s[1] + x) * 2], img[((y0 + y) * W + x0 + x) * 2],
				     "(%d, %d) from anchor (%d, %d)", y, x, y0, x0);
}

Test(img_geometry, crop_anchor_is_rounded_position_times_slack)
{
	const int H = 10, W = 20;
	uint8_t *img = img_geometry_position_image(H, W);
	struct {
		double px, py;
		const char *rounding;
		int ay, ax;
	} cases[] = {
		{0.5, 0.5, "round", 3, 7},      /* 0.5 * (10 - 4) = 3, 0.5 * (20 - 6) = 7 */
		{0.25, 0.25, "round", 2, 4},    /* 1.5 -> 2 (half away from zero), 3.5 -> 4 */
		{0.25, 0.25, "truncate", 1, 3}, /* 1.5 -> 1, 3.5 -> 3 */
		{0.0, 1.0, "round", 6, 0},      /* bottom-left corner */
		{1.0, 0.0, "round", 0, 14},     /* top-right corner */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_geometry_one_op("crop", &op, 1);
		ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){4, 6}));
		ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", cases[k].px));
		ASSERT_OK(dalic_op_set_float(op, "crop_pos_y", cases[k].py));
		ASSERT_OK(dalic_op_set_string(op, "rounding", cases[k].rounding));
		const dalic_batch_t *b = img_geometry_run_on(p, img, H, W);
		tl_expect_shape(b, 0, 3, (const int64_t[]){4, 6, 2});
		cr_expect_str_eq(dalic_batch_layout(b), "HWC");
		img_geometry_expect_window(b, img, W, cases[k].ay, cases[k].ax);
		dalic_pipeline_destroy(p);
	}
	/* crop_w / crop_h is the same as crop = [h, w]. */
	dalic_op_t *op;
	dalic_pipeline_t *p = img_geometry_one_op("crop", &op, 1);
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 6));
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 4));
	img_geometry_expect_window(img_geometry_run_on(p, img, H, W), img, W, 3, 7);
	dalic_pipeline_destroy(p);
	free(img);
}

Test(img_geometry, crop_out_of_bounds_policies)
{
	const int H = 10, W = 20;
	uint8_t *img = img_geometry_position_image(H, W);
	dalic_op_t *op;
	/* 12 rows from 10: anchor round(0.5 * -2) = -1. */
	dalic_pipeline_t *p = img_geometry_one_op("crop", &op, 1);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){12, 4}));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){H, W, 2}, img, "HWC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "out of bounds");
	dalic_pipeline_destroy(p);

	p = img_geometry_one_op("crop", &op, 1);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){12, 4}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 2, (const double[]){7, 9}));
	const dalic_batch_t *b = img_geometry_run_on(p, img, H, W);
	tl_expect_shape(b, 0, 3, (const int64_t[]){12, 4, 2});
	const uint8_t *o = dalic_batch_data(b, 0);
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 4; x++) {
			int sy = y - 1, sx = x + 8; /* anchor x = round(0.5 * 16) = 8 */
			bool in = sy >= 0 && sy < H;
			cr_expect_eq(o[(y * 4 + x) * 2], in ? img[(sy * W + sx) * 2] : 7, "(%d,%d)", y, x);
			cr_expect_eq(o[(y * 4 + x) * 2 + 1], in ? img[(sy * W + sx) * 2 + 1] : 9);
		}
	dalic_pipeline_destroy(p);

	p = img_geometry_one_op("crop", &op, 1);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){12, 4}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
	b = img_geometry_run_on(p, img, H, W);
	tl_expect_shape(b, 0, 3, (const int64_t[]){10, 4, 2});
	img_geometry_expect_window(b, img, W, 0, 8);
	dalic_pipeline_destroy(p);

	p = img_geometry_one_op("crop", &op, 1);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){4, 4}));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 1.5));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){H, W, 2}, img, "HWC");
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Anchor for dimension 1 (1.500000) is out of range [0.0, 1.0]");
	dalic_pipeline_destroy(p);
	free(img);
}

/* crop_pos_x per sample from an argument input; CHW layout; dtype conversion. */
Test(img_geometry, crop_per_sample_positions_chw_and_dtype)
{
	const int C = 2, H = 5, W = 8;
	uint8_t chw[2 * 5 * 8 * 2];
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < C * H * W; k++)
			chw[s * C * H * W + k] = (uint8_t)(k + s);
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "in");
	tl_source(p, "pos");
	dalic_op_t *op = tl_op(p, "crop");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_arg_input(op, "crop_pos_x", "pos"));
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){2, 3}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
	tl_output(p, op);
	const int64_t shapes[2][3] = {{C, H, W}, {C, H, W}};
	tl_feed(p, "in", DALIC_UINT8, 3, 2, &shapes[0][0], chw, "CHW");
	const float pos[2] = {0.0f, 1.0f};
	const int64_t no_dims[1] = {0}; /* scalars: 0 dims per sample */
	tl_feed(p, "pos", DALIC_FLOAT, 0, 2, no_dims, pos, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(b), DALIC_FLOAT);
	for (int s = 0; s < 2; s++) {
		tl_expect_shape(b, s, 3, (const int64_t[]){2, 2, 3});
		const float *o = dalic_batch_data(b, s);
		int ax = s == 0 ? 0 : 5, ay = 2; /* y: round(0.5 * 3) = 2 */
		for (int c = 0; c < 2; c++)
			for (int y = 0; y < 2; y++)
				for (int x = 0; x < 3; x++)
					cr_expect_eq(o[(c * 2 + y) * 3 + x],
						     (float)((c * H + ay + y) * W + ax + x + s),
						     "sample %d c%d (%d,%d)", s, c, y, x);
	}
	dalic_pipeline_destroy(p);
}

Test(img_geometry, flip_axes_and_layouts)
{
	const int H = 3, W = 4;
	uint8_t *img = img_geometry_position_image(H, W);
	struct {
		int h, v;
	} cases[] = {{1, 0}, {0, 1}, {1, 1}, {0, 0}};
	for (size_t k = 0; k < 4; k++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_geometry_one_op("flip", &op, 1);
		if (k != 0) /* case 0 relies on horizontal's default of 1 */
			ASSERT_OK(dalic_op_set_int(op, "horizontal", cases[k].h));
		ASSERT_OK(dalic_op_set_int(op, "vertical", cases[k].v));
		const uint8_t *o = dalic_batch_data(img_geometry_run_on(p, img, H, W), 0);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				int sy = cases[k].v ? H - 1 - y : y, sx = cases[k].h ? W - 1 - x : x;
				for (int c = 0; c < 2; c++)
					cr_expect_eq(o[(y * W + x) * 2 + c], img[(sy * W + sx) * 2 + c],
						     "case %zu (%d,%d,%d)", k, y, x, c);
			}
		dalic_pipeline_destroy(p);
	}
	/* CHW float: W is the last dim. */
	float chw[2 * 3 * 4];
	for (int k = 0; k < 24; k++)
		chw[k] = (float)k;
	dalic_op_t *op;
	dalic_pipeline_t *p = img_geometry_one_op("flip", &op, 1);
	ASSERT_OK(dalic_op_set_int(op, "vertical", 1));
	tl_feed(p, "in", DALIC_FLOAT, 3, 1, (const int64_t[]){2, 3, 4}, chw, "CHW");
	const float *o = dalic_batch_data(tl_run(p, 0), 0);
	for (int c = 0; c < 2; c++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 4; x++)
				cr_expect_eq(o[(c * 3 + y) * 4 + x], chw[(c * 3 + 2 - y) * 4 + 3 - x]);
	dalic_pipeline_destroy(p);
	free(img);
}

Test(img_geometry, flip_per_sample_from_coin_flip)
{
	enum { N = 16, H = 2, W = 5 };
	dalic_pipeline_t *p = tl_pipeline(N);
	tl_source(p, "in");
	dalic_op_t *coin = tl_op(p, "random.coin_flip");
	dalic_op_t *op = tl_op(p, "flip");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_arg_input(op, "horizontal", dalic_op_output(coin, 0)));
	tl_output(p, op);
	tl_output(p, coin);
	uint8_t *img = img_geometry_position_image(H, W), data[N][H * W * 2];
	int64_t shapes[N][3];
	for (int s = 0; s < N; s++) {
		memcpy(data[s], img, sizeof data[s]);
		shapes[s][0] = H, shapes[s][1] = W, shapes[s][2] = 2;
	}
	tl_feed(p, "in", DALIC_UINT8, 3, N, &shapes[0][0], data, "HWC");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0), *c = dalic_pipeline_output(p, 1);
	int flipped = 0;
	for (int s = 0; s < N; s++) {
		int f = (int)tl_at(c, s, 0);
		flipped += f;
		const uint8_t *o = dalic_batch_data(b, s);
		for (int x = 0; x < W; x++)
			cr_expect_eq(o[x * 2], img[(f ? W - 1 - x : x) * 2], "sample %d coin %d", s, f);
	}
	cr_expect(flipped > 0 && flipped < N, "coin_flip gave %d of %d", flipped, N);
	free(img);
	dalic_pipeline_destroy(p);
}

/* ---- rotate ------------------------------------------------------------------------------- */
static const int64_t *img_geometry_rotated_shape(double angle, int H, int W)
{
	static int64_t s[3];
	dalic_op_t *op;
	dalic_pipeline_t *p = img_geometry_one_op("rotate", &op, 1);
	ASSERT_OK(dalic_op_set_float(op, "angle", angle));
	uint8_t *img = img_geometry_position_image(H, W);
	const int64_t *o = dalic_batch_shape(img_geometry_run_on(p, img, H, W), 0);
	memcpy(s, o, sizeof s);
	free(img);
	dalic_pipeline_destroy(p);
	return s;
}

Test(img_geometry, rotate_canvas_size_and_parity)
{
	struct {
		double angle;
		int H, W, oh, ow;
	} cases[] = {
		/* 30 deg, 300x451: w' = ceil(.866*451 + .5*300 - .01) = 541 (odd like 451),
		 * h' = ceil(.866*300 + .5*451 - .01) = 486 (even like 300) */
		{30, 300, 451, 486, 541},
		/* 60 deg: |sin| > |cos|, so w' takes h's parity and h' takes w's */
		{60, 300, 451, 541, 486},
		/* 45 deg on 3x4: ceil(4.94) = 5 both; the angle in float radians makes
		 * |sin| > |cos|, so h' takes w's parity (even: 6) and w' h's (odd: 5), as DALI 2.4
		 * gives (measured) */
		{45, 3, 4, 6, 5},
		/* 90 deg swaps extents */
		{90, 3, 4, 4, 3},
		{-90, 3, 4, 4, 3},
		{180, 3, 4, 3, 4},
		{0, 7, 5, 7, 5},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const int64_t *s =
		    img_geometry_rotated_shape(cases[k].angle, cases[k].H, cases[k].W);
		cr_expect(s[0] == cases[k].oh && s[1] == cases[k].ow && s[2] == 2,
			  "%g deg on %dx%d: %lldx%lld, expected %dx%d", cases[k].angle, cases[k].H,
			  cases[k].W, (long long)s[0], (long long)s[1], cases[k].oh, cases[k].ow);
	}
}

/* 90 degrees counter-clockwise: out(y, x) = in(x, W - 1 - y). */
Test(img_geometry, rotate_90_is_exact_and_counter_clockwise)
{
	const int H = 3, W = 4;
	uint8_t *img = img_geometry_position_image(H, W);
	for (int interp = 0; interp < 2; interp++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_geometry_one_op("rotate", &op, 1);
		ASSERT_OK(dalic_op_set_float(op, "angle", 90));
		ASSERT_OK(dalic_op_set_int(op, "interp_type",
		                           interp ? DALIC_INTERP_LINEAR : DALIC_INTERP_NN));
		const dalic_batch_t *b = img_geometry_run_on(p, img, H, W);
		tl_expect_shape(b, 0, 3, (const int64_t[]){4, 3, 2});
		const uint8_t *o = dalic_batch_data(b, 0);
		for (int y = 0; y < 4; y++)
			for (int x = 0; x < 3; x++)
				cr_expect_eq(o[(y * 3 + x) * 2], img[(x * W + W - 1 - y) * 2],
					     "interp %d (%d, %d)", interp, y, x);
		dalic_pipeline_destroy(p);
	}
	free(img);
}

Test(img_geometry, rotate_fill_keep_size_and_size)
{
	const int H = 8, W = 8;
	uint8_t img[8 * 8 * 2];
	memset(img, 100, sizeof img);
	dalic_op_t *op;
	/* 45 degrees: the canvas corners lie outside the source. */
	dalic_pipeline_t *p = img_geometry_one_op("rotate", &op, 1);
	ASSERT_OK(dalic_op_set_float(op, "angle", 45));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 255));
	const dalic_batch_t *b = img_geometry_run_on(p, img, H, W);
	const int64_t *s = dalic_batch_shape(b, 0);
	const uint8_t *o = dalic_batch_data(b, 0);
	cr_expect_eq(o[0], 255);
	cr_expect_eq(o[((s[0] / 2) * s[1] + s[1] / 2) * 2], 100, "centre keeps the image");
	dalic_pipeline_destroy(p);
	/* Without fill_value the edge is replicated: everything stays 100. */
	p = img_geometry_one_op("rotate", &op, 1);
	ASSERT_OK(dalic_op_set_float(op, "angle", 45));
	ASSERT_OK(dalic_op_set_bool(op, "keep_size", true));
	b = img_geometry_run_on(p, img, H, W);
	tl_expect_shape(b, 0, 3, (const int64_t[]){8, 8, 2});
	o = dalic_batch_data(b, 0);
	for (int k = 0; k < 8 * 8 * 2; k++)
		cr_expect_eq(o[k], 100, "value %d", k);
	dalic_pipeline_destroy(p);
	p = img_geometry_one_op("rotate", &op, 1);
	ASSERT_OK(dalic_op_set_float(op, "angle", 10));
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (const double[]){5, 11}));
	tl_expect_shape(img_geometry_run_on(p, img, H, W), 0, 3, (const int64_t[]){5, 11, 2});
	dalic_pipeline_destroy(p);
}

/* Any angle on a photo against the mapping evaluated in double; float coordinates may move
 * a bilinear weight by ~1e-5, so one level of difference is allowed. */
Test(img_geometry, rotate_photo_matches_reference)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, (const char *[]){"coffee/coffee_cup.png"}));
	dalic_op_t *dec = tl_op(p, "decoders.image");
	tl_input(dec, dalic_op_output(rd, 0));
	dalic_op_t *rot = tl_op(p, "rotate");
	tl_input(rot, dalic_op_output(dec, 0));
	const double angle = 33.3;
	ASSERT_OK(dalic_op_set_float(rot, "angle", angle));
	ASSERT_OK(dalic_op_set_float(rot, "fill_value", 0));
	tl_output(p, dec);
	tl_output(p, rot);
	ASSERT_OK(dalic_pipeline_run(p));
	tl_image_t in = tl_image_sample(dalic_pipeline_output(p, 0), 0);
	tl_image_t out = tl_image_sample(dalic_pipeline_output(p, 1), 0);
	double a = angle * M_PI / 180, c = cos(a), s = sin(a);
	long bad = 0;
	for (int y = 0; y < out.h; y++)
		for (int x = 0; x < out.w; x++) {
			double dx = x + 0.5 - out.w / 2.0, dy = y + 0.5 - out.h / 2.0;
			double fx = c * dx - s * dy + in.w / 2.0 - 0.5;
			double fy = s * dx + c * dy + in.h / 2.0 - 0.5;
			int x0 = (int)floor(fx), y0 = (int)floor(fy);
			double qx = fx - x0, qy = fy - y0;
			for (int ch = 0; ch < 3; ch++) {
				double v = 0;
				for (int t = 0; t < 4; t++) {
					int tx = x0 + (t & 1), ty = y0 + (t >> 1);
					double w = ((t & 1) ? qx : 1 - qx) * ((t >> 1) ? qy : 1 - qy);
					if (tx >= 0 && ty >= 0 && tx < in.w && ty < in.h)
						v += w * in.px[((size_t)ty * in.w + tx) * 3 + ch];
				}
				int want = (int)floor(v + 0.5);
				bad += abs(out.px[((size_t)y * out.w + x) * 3 + ch] - want) > 1;
			}
		}
	cr_expect_eq(bad, 0, "%ld values differ by more than 1", bad);
	dalic_pipeline_destroy(p);
}

/* rotate(angle = random.uniform(...)): each sample's canvas follows its own angle. */
Test(img_geometry, rotate_angle_per_sample_from_uniform)
{
	enum { N = 8 };
	dalic_pipeline_t *p = tl_pipeline(N);
	tl_source(p, "in");
	dalic_op_t *u = tl_op(p, "random.uniform");
	ASSERT_OK(dalic_op_set_floats(u, "range", 2, (const double[]){-60, 60}));
	dalic_op_t *rot = tl_op(p, "rotate");
	tl_input(rot, "in");
	ASSERT_OK(dalic_op_set_arg_input(rot, "angle", dalic_op_output(u, 0)));
	tl_output(p, rot);
	tl_output(p, u);
	const int H = 30, W = 51;
	uint8_t *img = img_geometry_position_image(H, W);
	static uint8_t data[N][30 * 51 * 2];
	int64_t shapes[N][3];
	for (int s = 0; s < N; s++) {
		memcpy(data[s], img, sizeof data[s]);
		shapes[s][0] = H, shapes[s][1] = W, shapes[s][2] = 2;
	}
	tl_feed(p, "in", DALIC_UINT8, 3, N, &shapes[0][0], data, "HWC");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0), *ang = dalic_pipeline_output(p, 1);
	for (int s = 0; s < N; s++) {
		double a = tl_at(ang, s, 0) * M_PI / 180, c = fabs(cos(a)), sn = fabs(sin(a));
		int ow = (int)ceil(c * W + sn * H - 0.01), oh = (int)ceil(c * H + sn * W - 0.01);
		int pw = sn <= c ? W % 2 : H % 2, ph = sn <= c ? H % 2 : W % 2;
		ow += ow % 2 != pw;
		oh += oh % 2 != ph;
		tl_expect_shape(b, s, 3, (const int64_t[]){oh, ow, 2});
	}
	free(img);
	dalic_pipeline_destroy(p);
}
