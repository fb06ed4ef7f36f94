/* The argument setups of the registry-walk test's operator cases (see registry_run.h): each
 * sets what an operator needs to run on the generated inputs of test_registry_run.c. */
#include "tests/unit/registry_run.h"

void registry_run_arith(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "expression_desc", "add(&0 mul(&1 $0:float32))"));
	ASSERT_OK(dalic_op_set_floats(op, "real_constants", 1, (const double[]){0.5}));
}

void registry_run_cast(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
}

void registry_run_brightness(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "brightness", 1.7));
	ASSERT_OK(dalic_op_set_float(op, "brightness_shift", -0.1));
}

void registry_run_contrast(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "contrast", 1.4));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
}

void registry_run_color_twist(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "hue", 30));
	ASSERT_OK(dalic_op_set_float(op, "saturation", 1.5));
	ASSERT_OK(dalic_op_set_float(op, "contrast", 0.8));
}

void registry_run_csc(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "image_type", DALIC_RGB));
	ASSERT_OK(dalic_op_set_int(op, "output_type", DALIC_YCbCr));
}

void registry_run_constant(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "fdata", 3, (const double[]){1.5, 2.5, 3.5}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (const int64_t[]){3}));
}

void registry_run_crop(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){4, 4}));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 0.25));
}

void registry_run_cmn(dalic_op_t *op)
{
	registry_run_crop(op);
	ASSERT_OK(dalic_op_set_floats(op, "mean", 3, (const double[]){10, 20, 30}));
	ASSERT_OK(dalic_op_set_floats(op, "std", 3, (const double[]){2, 4, 8}));
	ASSERT_OK(dalic_op_set_int(op, "mirror", 1));
}

void registry_run_erase(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 4, (const double[]){1, 1, 5, 3}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 4, (const double[]){2, 3, 9, 9}));
	ASSERT_OK(dalic_op_set_floats(op, "fill_value", 3, (const double[]){7, 8, 9}));
}

void registry_run_expand_dims(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (const int64_t[]){0}));
}

void registry_run_rrc(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (const double[]){4, 5}));
}

void registry_run_gaussian_blur(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "sigma", 2, (const double[]){1.5, 0.7}));
}

void registry_run_laplacian(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "window_size", 2, (const int64_t[]){5, 3}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
}

void registry_run_hsv(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "hue", 100));
	ASSERT_OK(dalic_op_set_float(op, "value", 0.7));
}

void registry_run_hue(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "hue", -45));
}

void registry_run_saturation(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "saturation", 0.4));
}

void registry_run_normalize(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "HW"));
	ASSERT_OK(dalic_op_set_bool(op, "batch", true));
}

void registry_run_reduce_rows(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (const int64_t[]){0}));
}

void registry_run_water(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "ampl_x", 2.5));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_LINEAR));
}

void registry_run_reshape(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){3, 2}));
}

void registry_run_resize(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 4));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 5));
}

void registry_run_rcm(dalic_op_t *op)
{
	registry_run_resize(op);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){3, 2}));
	ASSERT_OK(dalic_op_set_int(op, "mirror", 1));
}

void registry_run_rotate(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "angle", 30));
}

void registry_run_dim_check(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "num_subscripts", 1));
}

void registry_run_subscript(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "at_0", 1));
}

void registry_run_transpose(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "perm", 2, (const int64_t[]){1, 0}));
}

void registry_run_validate(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "expression_name", "or"));
	ASSERT_OK(dalic_op_set_string(op, "expression_side", "left"));
}

void registry_run_shape(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (const int64_t[]){2}));
}

void registry_run_xform_angle(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "angle", 30));
}

void registry_run_xform_scale(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "scale", 1, (const double[]){2}));
}

void registry_run_xform_shear(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "shear", 2, (const double[]){0.5, 0.25}));
}

void registry_run_xform_offset(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "offset", 2, (const double[]){1, 2}));
}

void registry_run_ratio(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "ratio", 2));
}

void registry_run_anchors(dalic_op_t *op)
{
	const double anchors[12] = {0, 0, 0.5, 0.5, 0.5, 0.5, 1, 1, 0.2, 0.1, 0.9, 0.6};
	ASSERT_OK(dalic_op_set_floats(op, "anchors", 12, anchors));
}

void registry_run_warp(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "matrix", 6, (const double[]){0.9, 0.2, 1, -0.3, 1.1, 2}));
}

void registry_run_element_extract(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "element_map", 2, (const int64_t[]){1, 0}));
}

void registry_run_get_property(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "key", "layout"));
}

void registry_run_slice(dalic_op_t *op)
{
	/* [W, H] past the right edge, padded */
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (const int64_t[]){3, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){5, 4}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
}

void registry_run_lookup_table(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "keys", 3, (const int64_t[]){0, 101, 202}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 3, (const double[]){1.5, 2.5, 3.5}));
}

void registry_run_one_hot(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "num_classes", 4));
}

void registry_run_paste(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "ratio", 1.5));
	ASSERT_OK(dalic_op_set_ints(op, "fill_value", 3, (const int64_t[]){10, 20, 30}));
}

void registry_run_squeeze(dalic_op_t *op)
{
	/* the generated data has no extent-1 dim: an index past its dims removes nothing */
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (const int64_t[]){4}));
}

void registry_run_image_crop(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){64, 48}));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 0.3));
}

void registry_run_image_slice(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "rel_start", 2, (const double[]){0.1, 0.2}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_shape", 2, (const double[]){0.5, 0.6}));
}

/* _conditional__Merge is run after the _conditional__Split of the same predicate, as the
 * script front end builds it. */
void registry_run_reinterpret(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
}
