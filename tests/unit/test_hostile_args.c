/*
 * Hostile argument values (issue 24): NaN, infinities and numbers too large for the integer
 * they become get DALI's validation (an error naming the operator, the argument and the
 * sample) instead of passing comparisons they should fail or reaching an undefined
 * float-to-int conversion; labels in file lists that do not fit DALI's int are errors naming
 * the file and line instead of wrapping.
 */
#include "tests/testlib/hostile.h"

#include "tests/testlib.h"

TestSuite(hostile_args, .timeout = 30);

#define HS_IMAGE "    img = fn.random.uniform(range=[0, 255], shape=[8, 6, 3], dtype=types.UINT8)\n"

/* Was accepted (every comparison with NaN is false) while inf was refused. */
/* DALI 2.4 checks no range: NaN gives zeros, inf ones (engine/rng.h's bernoulli threshold). */
Test(hostile_args, coin_flip_probability_nan_and_inf_run_as_dali)
{
	cr_expect_eq(hs_script_run(HS_PIPE("    return fn.random.coin_flip(probability=float('nan'))"),
				   2),
		     DALIC_OK, "%s", hs_msg);
	cr_expect_eq(hs_script_run(HS_PIPE("    return fn.random.coin_flip(probability=float('inf'))"),
				   2),
		     DALIC_OK, "%s", hs_msg);
}

Test(hostile_args, coin_flip_probability_bounds_still_work)
{
	cr_expect_eq(hs_script_run(HS_PIPE("    return fn.random.coin_flip(probability=1.0)"), 2),
		     DALIC_OK, "%s", hs_msg);
	cr_expect_eq(hs_script_run(HS_PIPE("    return fn.random.coin_flip(probability=0.0)"), 2),
		     DALIC_OK, "%s", hs_msg);
}

/* Was a 1x1 output; DALI 2.4 crashes on it. */
Test(hostile_args, resize_x_nan_is_an_error)
{
	const char *msg = hs_script_fails(
	    HS_PIPE(HS_IMAGE "    return fn.resize(img, resize_x=float('nan'), resize_y=4)"));
	hs_expect_mentions(msg, "__Resize_", "sample 0", "argument 'resize_x': nan", NULL);
}

Test(hostile_args, resize_sizes_must_be_finite_and_fit)
{
	const char *msg =
	    hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.resize(img, size=[float('inf'), 4])"));
	hs_expect_mentions(msg, "__Resize_", "argument 'size': inf", NULL);
	msg = hs_script_fails(
	    HS_PIPE(HS_IMAGE "    return fn.resize(img, resize_shorter=float('nan'))"));
	hs_expect_mentions(msg, "argument 'resize_shorter': nan", NULL);
	msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.resize(img, resize_x=1e10)"));
	hs_expect_mentions(msg, "__Resize_", "output size", "out of range", NULL);
	msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.resize(img, size=[4, 4], "
					       "roi_start=[0, float('nan')], roi_end=[1, 1])"));
	hs_expect_mentions(msg, "argument 'roi_start': nan", NULL);
	msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.resize(img, size=[4, 4], "
					       "max_size=float('nan'))"));
	hs_expect_mentions(msg, "argument 'max_size': nan", NULL);
}

Test(hostile_args, resize_source_window_far_outside_is_an_error)
{
	const char *msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.resize(img, size=[4, 4], "
							   "roi_start=[0, 0], roi_end=[1e12, 1],"
							   " subpixel_scale=False)"));
	hs_expect_mentions(msg, "__Resize_", "sample 0", "out of range", NULL);
}

/* DALI: "Assert on new_size >= 0 failed"; the canvas of a NaN angle has no size. */
Test(hostile_args, rotate_angle_nan_is_an_error)
{
	const char *msg =
	    hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.rotate(img, angle=float('nan'))"));
	hs_expect_mentions(msg, "__Rotate_", "sample 0", "argument 'angle': nan", NULL);
}

Test(hostile_args, rotate_of_an_empty_image_needs_a_fill_value)
{
	const char *msg = hs_script_fails(
	    HS_PIPE("    img = fn.random.uniform(range=[0, 255], shape=[0, 6, 3], "
		    "dtype=types.UINT8)\n"
		    "    return fn.rotate(img, angle=30, size=[4, 4])"));
	hs_expect_mentions(msg, "__Rotate_", "empty image", "fill_value", NULL);
	cr_expect_eq(hs_script_run(HS_PIPE("    img = fn.random.uniform(range=[0, 255], "
					   "shape=[0, 6, 3], dtype=types.UINT8)\n"
					   "    return fn.rotate(img, angle=30, size=[4, 4], "
					   "fill_value=9)"),
				   1),
		     DALIC_OK, "%s", hs_msg);
}

/* DALI: "Anchor for dimension 1 (nan) is out of range [0.0, 1.0]". */
Test(hostile_args, crop_nan_window_and_anchor_are_errors)
{
	const char *msg =
	    hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.crop(img, crop=[float('nan'), 4])"));
	hs_expect_mentions(msg, "__Crop_", "sample 0", "argument 'crop': nan", NULL);
	msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.crop(img, crop=[4, 4], "
					       "crop_pos_x=float('nan'))"));
	hs_expect_mentions(msg, "__Crop_", "Anchor for dimension 1 (nan)", "out of range", NULL);
	msg = hs_script_fails(HS_PIPE(HS_IMAGE "    return fn.crop(img, crop_w=1e300, crop_h=2)"));
	hs_expect_mentions(msg, "argument 'crop_w'", NULL);
}

/* DALI: "Assert on area[0] <= area[1] failed: Provided empty range". */
Test(hostile_args, random_resized_crop_nan_ranges_are_empty)
{
	const char *msg = hs_script_fails(HS_PIPE(
	    HS_IMAGE "    return fn.random_resized_crop(img, size=[4, 4], "
		     "random_area=[float('nan'), 1])"));
	hs_expect_mentions(msg, "__RandomResizedCrop_", "random_area", "empty range", NULL);
	/* DALI 2.4 accepts an infinite ratio (the windows come out one pixel wide) */
	cr_expect_eq(hs_script_run(HS_PIPE(HS_IMAGE "    return fn.random_resized_crop(img, "
						    "size=[4, 4], random_aspect_ratio=[0.5, "
						    "float('inf')])"),
				   2),
		     DALIC_OK, "%s", hs_msg);
	msg = hs_script_fails(
	    HS_PIPE(HS_IMAGE "    return fn.random_resized_crop(img, size=[float('nan'), 4])"));
	hs_expect_mentions(msg, "__RandomResizedCrop_", "argument 'size'", NULL); /* an int list */
}

/* Huge but finite ratios and areas keep windows inside the image (no undefined casts). */
Test(hostile_args, random_resized_crop_huge_ranges_stay_inside)
{
	cr_expect_eq(hs_script_run(HS_PIPE(HS_IMAGE "    return fn.random_resized_crop(img, "
						    "size=[4, 4], random_area=[1e30, 1e38], "
						    "random_aspect_ratio=[1e-30, 1e30])"),
				   3),
		     DALIC_OK, "%s", hs_msg);
}

/* DALI: "Input and output samples must occupy the same size in bytes" (its shape came out
 * as -2147483648). */
Test(hostile_args, reshape_rel_shape_nan_is_an_error)
{
	const char *msg = hs_script_fails(
	    HS_PIPE(HS_IMAGE "    return fn.reshape(img, rel_shape=[float('nan'), 1, 1])"));
	hs_expect_mentions(msg, "__Reshape_", "sample 0", "argument 'rel_shape': nan", NULL);
}

Test(hostile_args, reshape_to_an_overflowing_shape_is_an_error)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "reshape");
	tl_input(op, "a");
	cr_assert_eq(dalic_op_set_ints(op, "shape", 3, (const int64_t[]){-1, 1LL << 40, 1LL << 40}),
		     DALIC_OK);
	tl_output(p, op);
	const int64_t shape[1] = {0};
	tl_feed(p, "a", DALIC_UINT8, 1, 1, shape, "", NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	hs_expect_mentions(msg, "__Reshape_", "cannot reshape (0)", "overflows", NULL);
	dalic_pipeline_destroy(p);
}

/* ---- labels ---------------------------------------------------------------------------- */

/* Builds readers.file over a one-line list "<file> <label>"; returns the build's status. */
static int hostile_list(const char *label, char *list, size_t n)
{
	const char *img = hs_temp("x", 1, ".jpg");
	char text[512];
	int len = snprintf(text, sizeof text, "%s %s\n", img, label);
	snprintf(list, n, "%s", hs_temp(text, (size_t)len, ".txt"));
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	cr_assert_eq(dalic_op_set_string(rd, "file_list", list), DALIC_OK);
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(rd, 1), NULL), DALIC_OK);
	int rc = dalic_pipeline_build(p);
	if (!rc) {
		const dalic_batch_t *b = tl_run(p, 0);
		snprintf(hs_msg, sizeof hs_msg, "%d", *(const int32_t *)dalic_batch_data(b, 0));
	} else {
		snprintf(hs_msg, sizeof hs_msg, "%s", dalic_last_error());
	}
	dalic_pipeline_destroy(p);
	unlink(img);
	unlink(list);
	return rc;
}

/* They wrapped: 4294967297 -> 1, 99999999999999999999 -> -1, 2147483648 -> -2147483648. */
Test(hostile_args, file_list_labels_past_int32_name_file_and_line)
{
	static const char *const labels[] = {"4294967297", "99999999999999999999", "2147483648"};
	for (int k = 0; k < 3; k++) {
		char list[128], where[160];
		cr_expect_neq(hostile_list(labels[k], list, sizeof list), DALIC_OK, "label %s read "
			      "as %s", labels[k], hs_msg);
		snprintf(where, sizeof where, "\"%s\":1", list);
		hs_expect_mentions(hs_msg, "readers__File", where, labels[k], "out of range",
				   NULL);
	}
}

Test(hostile_args, file_list_label_int32_max_is_read_exactly)
{
	char list[128];
	cr_assert_eq(hostile_list("2147483647", list, sizeof list), DALIC_OK, "%s", hs_msg);
	cr_expect_str_eq(hs_msg, "2147483647");
	cr_assert_eq(hostile_list("0000000000000000000000000007", list, sizeof list), DALIC_OK,
		     "%s", hs_msg);
	cr_expect_str_eq(hs_msg, "7", "leading zeros are not a large label");
}

Test(hostile_args, labels_argument_past_int32_is_an_error)
{
	const char *img = hs_temp("x", 1, ".jpg");
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	cr_assert_eq(dalic_op_set_strings(rd, "files", 1, &img), DALIC_OK);
	cr_assert_eq(dalic_op_set_ints(rd, "labels", 1, (const int64_t[]){4294967297}), DALIC_OK);
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(rd, 1), NULL), DALIC_OK);
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	hs_expect_mentions(dalic_last_error(), "readers__File", "4294967297", img,
			   "out of range", NULL);
	dalic_pipeline_destroy(p);
	unlink(img);
}
