/*
 * random_resized_crop: on a float image whose channels are its own x and y coordinates, the
 * (linear) resampled output reveals each random window, so the windows can be checked against
 * DALI's rules (area in random_area, aspect ratio in random_aspect_ratio, inside the image).
 * The recovery is exact to ~0.1 pixel (a widened triangle sampled at whole pixels is not
 * exactly centred), which the tolerances allow. A window forced to the whole image must equal
 * resize to the same size.
 */
#include "tests/testlib/image.h"

TestSuite(img_rrc, .timeout = 30);

enum { N = 32, H = 300, W = 400, OH = 64, OW = 80 };

static float *img_rrc_coordinate_image(void)
{
	float *p = malloc(sizeof(float) * N * H * W * 2);
	for (int s = 0; s < N; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				p[((size_t)(s * H + y) * W + x) * 2] = (float)x;
				p[((size_t)(s * H + y) * W + x) * 2 + 1] = (float)y;
			}
	return p;
}

static void img_rrc_feed(dalic_pipeline_t *p, const float *img)
{
	int64_t shapes[N][3];
	for (int s = 0; s < N; s++)
		shapes[s][0] = H, shapes[s][1] = W, shapes[s][2] = 2;
	tl_feed(p, "in", DALIC_FLOAT, 3, N, &shapes[0][0], img, "HWC");
}

Test(img_rrc, windows_follow_area_and_aspect_rules)
{
	float *img = img_rrc_coordinate_image();
	dalic_pipeline_t *p = tl_pipeline(N);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "random_resized_crop");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (const double[]){OH, OW}));
	ASSERT_OK(dalic_op_set_int(op, "seed", 99));
	tl_output(p, op);
	double sum_area = 0;
	for (int it = 0; it < 2; it++) {
		img_rrc_feed(p, img);
		const dalic_batch_t *b = tl_run(p, 0);
		for (int s = 0; s < N; s++) {
			tl_expect_shape(b, s, 3, (const int64_t[]){OH, OW, 2});
			const float *o = dalic_batch_data(b, s);
			/* value = lo + (j + 0.5) * step - 0.5 away from the window's edges */
			double sx = (o[(32 * OW + 60) * 2] - o[(32 * OW + 20) * 2]) / 40;
			double sy = (o[(48 * OW + 40) * 2 + 1] - o[(16 * OW + 40) * 2 + 1]) / 32;
			double x0 = o[(32 * OW + 20) * 2] - 20.5 * sx + 0.5;
			double y0 = o[(16 * OW + 40) * 2 + 1] - 16.5 * sy + 0.5;
			double w = sx * OW, h = sy * OH, area = w * h / (W * H), ratio = w / h;
			sum_area += area;
			cr_expect(area >= 0.08 - 0.01 && area <= 1.0 + 1e-3, "sample %d area %.4f", s,
				  area);
			cr_expect(ratio >= 0.75 - 0.01 && ratio <= 4.0 / 3 + 0.01, "sample %d ratio %.4f",
				  s, ratio);
			cr_expect(x0 > -0.2 && y0 > -0.2 && x0 + w < W + 0.2 && y0 + h < H + 0.2,
				  "sample %d window %.2f,%.2f %.2fx%.2f", s, x0, y0, w, h);
		}
	}
	/* area fractions are uniform in [0.08, 1]: the mean is near 0.54 */
	cr_expect(sum_area / (2 * N) > 0.35 && sum_area / (2 * N) < 0.75, "mean area %.3f",
		  sum_area / (2 * N));
	free(img);
	dalic_pipeline_destroy(p);
}

Test(img_rrc, whole_image_window_equals_resize)
{
	float *img = img_rrc_coordinate_image();
	dalic_pipeline_t *p = tl_pipeline(N);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "random_resized_crop");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (const double[]){OH, OW}));
	ASSERT_OK(dalic_op_set_floats(op, "random_area", 2, (const double[]){1, 1}));
	ASSERT_OK(
	    dalic_op_set_floats(op, "random_aspect_ratio", 2, (const double[]){4.0 / 3, 4.0 / 3}));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_CUBIC));
	dalic_op_t *rs = tl_op(p, "resize");
	tl_input(rs, "in");
	ASSERT_OK(dalic_op_set_floats(rs, "size", 2, (const double[]){OH, OW}));
	ASSERT_OK(dalic_op_set_int(rs, "interp_type", DALIC_INTERP_CUBIC));
	tl_output(p, op);
	tl_output(p, rs);
	img_rrc_feed(p, img);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *a = dalic_pipeline_output(p, 0), *b = dalic_pipeline_output(p, 1);
	for (int s = 0; s < N; s++)
		cr_expect_eq(memcmp(dalic_batch_data(a, s), dalic_batch_data(b, s),
				    sizeof(float) * OH * OW * 2),
			     0, "sample %d", s);
	free(img);
	dalic_pipeline_destroy(p);
}
