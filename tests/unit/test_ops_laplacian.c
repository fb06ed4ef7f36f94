/* laplacian: OpenCV's windows (smoothing 1 2 1, derivative 1 -2 1 for size 3; 1 0 -2 0 1 for
 * 5), d2/dy2 (derivative along H, smoothing along W) plus d2/dx2. For size 3 the 2-D kernel is
 * [[2, 0, 2], [0, -8, 0], [2, 0, 2]]. Values worked out by hand. */
#include "tests/testlib/oneop.h"

TestSuite(ops_laplacian, .timeout = 20);

/* laplacian of a 5x5 float image with 1 at the centre; the caller sets arguments via `set`. */
static const dalic_batch_t *ops_lap_impulse(tl_oneop_t *t, void (*set)(dalic_op_t *))
{
	float d[25] = {0};
	d[12] = 1;
	*t = tl_oneop("laplacian", 1, 1, NULL);
	if (set)
		set(t->op);
	tl_oneop_feed_f32(t, "in", 1, 2, (const int64_t[]){5, 5}, d, "HW");
	return tl_run(t->p, 0);
}

static void ops_lap_expect_3x3(const dalic_batch_t *out, const double *k3)
{
	double want[25] = {0};
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++)
			want[(y + 1) * 5 + x + 1] = k3[y * 3 + x];
	tl_expect_values(out, 0, 25, want);
}

Test(ops_laplacian, the_3x3_kernel)
{
	tl_oneop_t t;
	ops_lap_expect_3x3(ops_lap_impulse(&t, NULL), (double[]){2, 0, 2, 0, -8, 0, 2, 0, 2});
	dalic_pipeline_destroy(t.p);
}

static void ops_lap_normalized(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_bool(op, "normalized_kernel", true));
}

static void ops_lap_dy_only(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "scale", 2, (const double[]){1, 0}));
}

static void ops_lap_no_smoothing(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "smoothing_size", 1, (const int64_t[]){1}));
}

Test(ops_laplacian, scales_normalization_and_smoothing)
{
	tl_oneop_t t; /* 2^-(3 + 3 - 2 - 2) = 1/4 */
	ops_lap_expect_3x3(ops_lap_impulse(&t, ops_lap_normalized),
	                   (double[]){0.5, 0, 0.5, 0, -2, 0, 0.5, 0, 0.5});
	dalic_pipeline_destroy(t.p);
	/* d2/dy2 alone: (1 -2 1) down times (1 2 1) across */
	ops_lap_expect_3x3(ops_lap_impulse(&t, ops_lap_dy_only),
	                   (double[]){1, 2, 1, -2, -4, -2, 1, 2, 1});
	dalic_pipeline_destroy(t.p);
	/* smoothing of size 1: the plain 5-point stencil */
	ops_lap_expect_3x3(ops_lap_impulse(&t, ops_lap_no_smoothing),
	                   (double[]){0, 1, 0, 1, -4, 1, 0, 1, 0});
	dalic_pipeline_destroy(t.p);
}

Test(ops_laplacian, one_axis_borders_and_saturation)
{
	tl_oneop_t t = tl_oneop("laplacian", 1, 1, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){3}, (const float[]){10, 0, 0}, NULL);
	/* x = 0 reads x = 1 for x = -1: 0 - 20 + 0; x = 2 reads x = 1 for x = 3 */
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){-20, 10, 0});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("laplacian", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "window_size", 1, (const int64_t[]){5}));
	tl_oneop_feed_u8(&t, "in", 1, 1, (const int64_t[]){7},
	                 (const uint8_t[]){0, 0, 0, 10, 0, 0, 0}, NULL);
	/* (1 0 -2 0 1): 10 two away on both sides, -20 at the centre, saturated at 0 */
	tl_expect_values(tl_run(t.p, 0), 0, 7, (double[]){0, 10, 0, 0, 0, 10, 0});
	dalic_pipeline_destroy(t.p);
}

Test(ops_laplacian, refuses_what_dali_refuses)
{
	const char *msgs[] = {
	    "Window size must be an odd integer between 3 and 31, got 4 for sample: 0.",
	    "Window size must be an odd integer between 3 and 31, got 33 for sample: 0.",
	    "Smoothing window size must be an odd integer between 1 and 31, got 0 for sample: 0.",
	    "Parameter ``scale`` cannot be specified when ``normalized_kernel`` is set to True",
	    "Output data type must be same as input, FLOAT or skipped",
	};
	for (int k = 0; k < 5; k++) {
		tl_oneop_t t = tl_oneop("laplacian", 1, 1, NULL);
		if (k < 2)
			ASSERT_OK(dalic_op_set_ints(t.op, "window_size", 1,
			                            (const int64_t[]){k ? 33 : 4}));
		if (k == 2)
			ASSERT_OK(
			    dalic_op_set_ints(t.op, "smoothing_size", 1, (const int64_t[]){0}));
		if (k == 3) {
			ASSERT_OK(dalic_op_set_bool(t.op, "normalized_kernel", true));
			ASSERT_OK(dalic_op_set_floats(t.op, "scale", 1, (const double[]){2}));
		}
		if (k == 4)
			ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
		if (k == 3) {
			ASSERT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
			EXPECT_ERROR_HAS(msgs[k]);
		} else {
			tl_oneop_feed_u8(&t, "in", 1, 2, (const int64_t[]){3, 3},
			                 (const uint8_t[]){0, 0, 0, 0, 9, 0, 0, 0, 0}, "HW");
			EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), msgs[k], "case %d", k);
			EXPECT_ERROR_HAS("(Laplacian)");
		}
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = tl_oneop("laplacian", 1, 1, NULL);
	tl_feed(t.p, "in", DALIC_FLOAT64, 1, 1, (const int64_t[]){3}, (const double[]){1, 2, 3},
	        NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported data type: double");
	dalic_pipeline_destroy(t.p);
}
