/* transforms.*: matrices computed by hand (a translation, a scale by 2 about a center, a
 * rotation by 90°, shears, a crop window), per-sample argument inputs, input transforms and
 * reverse_order, combine, and DALI's argument errors. */
#include "tests/testlib.h"

TestSuite(ops_transforms, .timeout = 20);

/* Operator `name` with no input as output 0 of a new pipeline of `batch` samples. */
static dalic_op_t *ops_transforms_gen(dalic_pipeline_t *p, const char *name)
{
	dalic_op_t *op = tl_op(p, name);
	ASSERT_OK(dalic_op_set_name(op, "xf"));
	tl_output(p, op);
	return op;
}

static void ops_transforms_floats(dalic_op_t *op, const char *arg, int n, const double *v)
{
	ASSERT_OK(dalic_op_set_floats(op, arg, n, v));
}

Test(ops_transforms, translation_2d_and_1d)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.translation");
	ops_transforms_floats(op, "offset", 2, (double[]){1.5, -2});
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	for (int i = 0; i < 2; i++) {
		tl_expect_shape(out, i, 2, (int64_t[]){2, 3});
		tl_expect_values(out, i, 6, (double[]){1, 0, 1.5, 0, 1, -2});
	}
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "fn.transforms.translation");
	ops_transforms_floats(op, "offset", 1, (double[]){3});
	out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){1, 2});
	tl_expect_values(out, 0, 2, (double[]){1, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, scale_by_two_about_a_center)
{
	/* x' = 2 (x - c) + c = 2x - c: translation -c = (-1, -3) */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.scale");
	ops_transforms_floats(op, "scale", 2, (double[]){2, 2});
	ops_transforms_floats(op, "center", 2, (double[]){1, 3});
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){2, 0, -1, 0, 2, -3});
	dalic_pipeline_destroy(p);

	/* one value with ndim=3: every dimension */
	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.scale");
	ops_transforms_floats(op, "scale", 1, (double[]){0.5});
	ASSERT_OK(dalic_op_set_int(op, "ndim", 3));
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 4});
	tl_expect_values(out, 0, 12, (double[]){0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, rotation_by_90_degrees)
{
	/* counter-clockwise (x, y) -> (-y, x); about (10, 20): t = c - R c = (30, 10) */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_float(op, "angle", 90));
	ops_transforms_floats(op, "center", 2, (double[]){10, 20});
	tl_expect_near(tl_run(p, 0), 0, 6, (double[]){0, -1, 30, 1, 0, 10}, 4e-6);
	dalic_pipeline_destroy(p);

	/* 3-D about z (any positive length): the 2-D rotation in x, y; z kept */
	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_float(op, "angle", 90));
	ops_transforms_floats(op, "axis", 3, (double[]){0, 0, 5});
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 4});
	tl_expect_near(out, 0, 12, (double[]){0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0}, 1e-7);
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, shear_factors_and_angles)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.shear");
	ops_transforms_floats(op, "shear", 2, (double[]){0.5, 0.25});
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){1, 0.5, 0, 0.25, 1, 0});
	dalic_pipeline_destroy(p);

	/* tan(45°) = 1 and tan(-45°) = -1; about (2, 4): t = c - S c = (-4, 2) */
	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.shear");
	ops_transforms_floats(op, "angles", 2, (double[]){45, -45});
	ops_transforms_floats(op, "center", 2, (double[]){2, 4});
	tl_expect_near(tl_run(p, 0), 0, 6, (double[]){1, 1, -4, -1, 1, 2}, 1e-6);
	dalic_pipeline_destroy(p);

	/* 3-D: the six factors fill the off-diagonal row by row */
	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.shear");
	ops_transforms_floats(op, "shear", 6, (double[]){1, 2, 3, 4, 5, 6});
	tl_expect_values(tl_run(p, 0), 0, 12, (double[]){1, 1, 2, 0, 3, 1, 4, 0, 5, 6, 1, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, crop_window_to_unit_square)
{
	/* [10, 110] x [20, 220] -> [0, 1]^2: scale 1/100, 1/200; offset -10/100, -20/200 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.crop");
	ops_transforms_floats(op, "from_start", 2, (double[]){10, 20});
	ops_transforms_floats(op, "from_end", 2, (double[]){110, 220});
	tl_expect_near(tl_run(p, 0), 0, 6, (double[]){0.01, 0, -0.1, 0, 0.005, -0.1}, 1e-7);
	dalic_pipeline_destroy(p);

	/* absolute swaps a reversed window: from [4, 0] is [0, 4] */
	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.crop");
	ops_transforms_floats(op, "from_start", 1, (double[]){4});
	ops_transforms_floats(op, "from_end", 1, (double[]){0});
	ASSERT_OK(dalic_op_set_bool(op, "absolute", true));
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){0.25, 0});
	dalic_pipeline_destroy(p);
}

/* A translation by (1, 2) feeding a scale by (2, 3): M·in or in·M. */
static const dalic_batch_t *ops_transforms_chain(dalic_pipeline_t *p, bool reverse)
{
	dalic_op_t *t = tl_op(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_name(t, "t"));
	ops_transforms_floats(t, "offset", 2, (double[]){1, 2});
	dalic_op_t *s = tl_op(p, "transforms.scale");
	ops_transforms_floats(s, "scale", 2, (double[]){2, 3});
	ASSERT_OK(dalic_op_set_bool(s, "reverse_order", reverse));
	tl_input(s, "t");
	tl_output(p, s);
	return tl_run(p, 0);
}

Test(ops_transforms, input_transform_and_reverse_order)
{
	/* scale after translation: x' = S (x + t) = S x + S t = (2x + 2, 3y + 6) */
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_expect_values(ops_transforms_chain(p, false), 0, 6, (double[]){2, 0, 2, 0, 3, 6});
	dalic_pipeline_destroy(p);
	/* reverse: translation after scale: x' = S x + t */
	p = tl_pipeline(1);
	tl_expect_values(ops_transforms_chain(p, true), 0, 6, (double[]){2, 0, 1, 0, 3, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, combine_applies_inputs_in_order)
{
	/* [T(1, 2), S(2, 3), R(90°)]: R·S·T: (x, y) -> S: (2x + 2, 3y + 6) -> R: (-3y - 6, 2x + 2)
	 */
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *t = tl_op(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_name(t, "t"));
	ops_transforms_floats(t, "offset", 2, (double[]){1, 2});
	dalic_op_t *s = tl_op(p, "transforms.scale");
	ASSERT_OK(dalic_op_set_name(s, "s"));
	ops_transforms_floats(s, "scale", 2, (double[]){2, 3});
	dalic_op_t *r = tl_op(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_name(r, "r"));
	ASSERT_OK(dalic_op_set_float(r, "angle", 90));
	dalic_op_t *c = tl_op(p, "transforms.combine");
	tl_input(c, "t");
	tl_input(c, "s");
	tl_input(c, "r");
	tl_output(p, c);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int i = 0; i < 2; i++)
		tl_expect_near(out, i, 6, (double[]){0, -3, -6, 2, 0, 2}, 1e-5);
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, per_sample_argument_inputs)
{
	/* angle per sample: 0°, 90°, 180° */
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "angle");
	dalic_op_t *op = ops_transforms_gen(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_arg_input(op, "angle", "angle"));
	const float angles[3] = {0, 90, 180};
	tl_feed(p, "angle", DALIC_FLOAT, 0, 3, (int64_t[]){0}, angles, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_near(out, 0, 6, (double[]){1, 0, 0, 0, 1, 0}, 1e-7);
	tl_expect_near(out, 1, 6, (double[]){0, -1, 0, 1, 0, 0}, 1e-7);
	tl_expect_near(out, 2, 6, (double[]){-1, 0, 0, 0, -1, 0}, 1e-6);
	dalic_pipeline_destroy(p);

	/* offsets per sample */
	p = tl_pipeline(2);
	tl_source(p, "off");
	op = ops_transforms_gen(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_arg_input(op, "offset", "off"));
	const float off[4] = {1, 2, -3, 4};
	tl_feed(p, "off", DALIC_FLOAT, 1, 2, (int64_t[]){2, 2}, off, NULL);
	out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){1, 0, 1, 0, 1, 2});
	tl_expect_values(out, 1, 6, (double[]){1, 0, -3, 0, 1, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_transforms, argument_errors_name_the_operator)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transforms_gen(p, "transforms.shear");
	ops_transforms_floats(op, "shear", 2, (double[]){1, 2});
	ops_transforms_floats(op, "angles", 2, (double[]){1, 2});
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "One and only one");
	EXPECT_ERROR_HAS("'xf'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.shear");
	ops_transforms_floats(op, "angles", 2, (double[]){0, -90.5});
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "range [-90, 90]");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_transforms_gen(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_float(op, "angle", 10));
	ops_transforms_floats(op, "center", 3, (double[]){1, 2, 3});
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "\"center\" expected shape 2 but got 3");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(p);

	/* a 3-D input under a 2-D rotation */
	p = tl_pipeline(1);
	dalic_op_t *t = tl_op(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_name(t, "t"));
	ops_transforms_floats(t, "offset", 3, (double[]){1, 2, 3});
	op = ops_transforms_gen(p, "transforms.rotation");
	ASSERT_OK(dalic_op_set_float(op, "angle", 10));
	tl_input(op, "t");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "input describes a 3D transform");
	dalic_pipeline_destroy(p);

	/* an integer argument input */
	p = tl_pipeline(1);
	tl_source(p, "off");
	op = ops_transforms_gen(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_arg_input(op, "offset", "off"));
	tl_feed(p, "off", DALIC_INT32, 1, 1, (int64_t[]){2}, (int32_t[]){1, 2}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "must be float");
	dalic_pipeline_destroy(p);

	/* combine of a 2-D and a 1-D transform */
	p = tl_pipeline(1);
	t = tl_op(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_name(t, "t"));
	ops_transforms_floats(t, "offset", 2, (double[]){1, 2});
	dalic_op_t *u = tl_op(p, "transforms.translation");
	ASSERT_OK(dalic_op_set_name(u, "u"));
	ops_transforms_floats(u, "offset", 1, (double[]){1});
	op = ops_transforms_gen(p, "transforms.combine");
	tl_input(op, "t");
	tl_input(op, "u");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "same shape");
	dalic_pipeline_destroy(p);
}
