/* random_bbox_crop: a fixed window and its boxes remapped by hand, the same windows in every
 * bbox_layout, labels and indices of the kept boxes, DALI 2.4's values for seed 1234, the
 * search that cannot end, and argument and input errors. */
#include "tests/testlib.h"

TestSuite(ops_random_bbox_crop, .timeout = 30);

/* Three boxes, xyXY. */
static const float ops_random_bbox_crop_boxes[12] = {0.1f, 0.2f, 0.4f, 0.5f,  0.5f, 0.1f,
						     0.9f, 0.6f,  0.3f, 0.6f, 0.7f, 0.95f};
static const int32_t ops_random_bbox_crop_labels[3] = {7, 8, 9};

/* random_bbox_crop(boxes[, labels]) with every output a pipeline output, seed 1234. */
static dalic_op_t *ops_random_bbox_crop_op(dalic_pipeline_t *p, bool labels)
{
	tl_source(p, "boxes");
	if (labels)
		tl_source(p, "labels");
	dalic_op_t *op = tl_op(p, "random_bbox_crop");
	ASSERT_OK(dalic_op_set_name(op, "rbc"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	tl_input(op, "boxes");
	if (labels)
		tl_input(op, "labels");
	return op;
}

static void ops_random_bbox_crop_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
}

static void ops_random_bbox_crop_feed(dalic_pipeline_t *p, int batch, bool labels)
{
	float b[2][12];
	int32_t l[2][3];
	for (int i = 0; i < batch; i++) {
		memcpy(b[i], ops_random_bbox_crop_boxes, sizeof b[i]);
		memcpy(l[i], ops_random_bbox_crop_labels, sizeof l[i]);
	}
	tl_feed(p, "boxes", DALIC_FLOAT, 2, batch, (int64_t[]){3, 4, 3, 4}, b, NULL);
	if (labels)
		tl_feed(p, "labels", DALIC_INT32, 1, batch, (int64_t[]){3, 3}, l, NULL);
}

/* Output k of the iteration tl_run just ran. */
static const dalic_batch_t *ops_random_bbox_crop_out(dalic_pipeline_t *p, int k)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, k);
	cr_assert_not_null(b);
	return b;
}

static float ops_random_bbox_crop_clamp01(float v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

Test(ops_random_bbox_crop, fixed_window_boxes_remapped)
{
	/* a 50 x 50 window in 100 x 100: absolute anchor in 0..50, boxes relative to it */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_bbox_crop_op(p, true);
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 2, (int64_t[]){50, 50}));
	ASSERT_OK(dalic_op_set_ints(op, "input_shape", 2, (int64_t[]){100, 100}));
	ASSERT_OK(dalic_op_set_bool(op, "output_bbox_indices", true));
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){0.0}));
	cr_assert_eq(dalic_op_num_outputs(op), 5);
	ops_random_bbox_crop_outputs(p, op);
	for (int it = 0; it < 20; it++) {
		ops_random_bbox_crop_feed(p, 1, true);
		const dalic_batch_t *anchor = tl_run(p, 0);
		double ax = tl_at(anchor, 0, 0), ay = tl_at(anchor, 0, 1);
		cr_assert(ax == (int)ax && ax >= 0 && ax <= 50 && ay == (int)ay && ay >= 0 && ay <= 50,
			  "anchor (%g, %g)", ax, ay);
		tl_expect_values(ops_random_bbox_crop_out(p, 1), 0, 2, (double[]){50, 50});
		const dalic_batch_t *boxes = ops_random_bbox_crop_out(p, 2);
		const dalic_batch_t *labels = ops_random_bbox_crop_out(p, 3);
		const dalic_batch_t *idx = ops_random_bbox_crop_out(p, 4);
		float x0 = (float)ax / 100, y0 = (float)ay / 100;
		int64_t k = 0;
		for (int b = 0; b < 3; b++) {
			const float *c = ops_random_bbox_crop_boxes + 4 * b;
			float cx = (c[0] + c[2]) * 0.5f, cy = (c[1] + c[3]) * 0.5f;
			if (!(cx >= x0 && cx < x0 + 0.5f && cy >= y0 && cy < y0 + 0.5f))
				continue;
			double want[4];
			for (int d = 0; d < 2; d++) {
				float lo = d ? y0 : x0, hi = lo + 0.5f;
				float s = c[d] > lo ? c[d] : lo, e = c[d + 2] < hi ? c[d + 2] : hi;
				want[d] = ops_random_bbox_crop_clamp01((s - lo) / 0.5f);
				want[d + 2] = ops_random_bbox_crop_clamp01((e - lo) / 0.5f);
			}
			for (int d = 0; d < 4; d++)
				cr_expect_float_eq(tl_at(boxes, 0, 4 * k + d), want[d], 1e-6,
						   "box %d coordinate %d", b, d);
			cr_expect_eq(tl_at(labels, 0, k), ops_random_bbox_crop_labels[b]);
			cr_expect_eq(tl_at(idx, 0, k), b);
			k++;
		}
		tl_expect_shape(boxes, 0, 2, (int64_t[]){k, 4});
		tl_expect_shape(labels, 0, 1, (int64_t[]){k});
		cr_assert(k > 0, "an accepted window keeps a box");
	}
	dalic_pipeline_destroy(p);
}

/* The same seed gives the same windows whatever the layout; the boxes come back in it. */
Test(ops_random_bbox_crop, layouts_give_the_same_windows)
{
	static const char *layouts[] = {"xyXY", "yxYX", "xyWH", "HWyx"};
	double ref[2][3][4] = {{{0}}};
	int64_t ref_n = -1;
	for (int l = 0; l < 4; l++) {
		const char *lay = layouts[l];
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_random_bbox_crop_op(p, false);
		ASSERT_OK(dalic_op_set_string(op, "bbox_layout", lay));
		ASSERT_OK(dalic_op_set_floats(op, "scaling", 2, (double[]){0.3, 0.9}));
		ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
		ops_random_bbox_crop_outputs(p, op);
		/* the boxes in this layout */
		float b[12];
		for (int k = 0; k < 3; k++) {
			const float *c = ops_random_bbox_crop_boxes + 4 * k;
			float v[128] = {0};
			v['x'] = c[0], v['y'] = c[1], v['X'] = c[2], v['Y'] = c[3];
			v['W'] = c[2] - c[0], v['H'] = c[3] - c[1];
			for (int d = 0; d < 4; d++)
				b[4 * k + d] = v[(int)lay[d]];
		}
		tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){3, 4}, b, NULL);
		const dalic_batch_t *anchor = tl_run(p, 0);
		double a[2] = {tl_at(anchor, 0, 0), tl_at(anchor, 0, 1)};
		const dalic_batch_t *shape = ops_random_bbox_crop_out(p, 1);
		const dalic_batch_t *boxes = ops_random_bbox_crop_out(p, 2);
		double s[2] = {tl_at(shape, 0, 0), tl_at(shape, 0, 1)};
		int64_t n = dalic_batch_shape(boxes, 0)[0];
		if (l == 0) {
			memcpy(ref[0][0], a, sizeof a);
			memcpy(ref[0][1], s, sizeof s);
			ref_n = n;
			for (int64_t k = 0; k < n; k++)
				for (int d = 0; d < 4; d++)
					ref[1][k][d] = tl_at(boxes, 0, 4 * k + d);
		} else {
			tl_expect_values(anchor, 0, 2, ref[0][0]);
			tl_expect_values(shape, 0, 2, ref[0][1]);
			cr_assert_eq(n, ref_n, "%s: %lld boxes", lay, (long long)n);
			for (int64_t k = 0; k < n; k++) {
				const double *r = ref[1][k];
				double v[128] = {0};
				v['x'] = r[0], v['y'] = r[1], v['X'] = r[2], v['Y'] = r[3];
				v['W'] = r[2] - r[0], v['H'] = r[3] - r[1];
				for (int d = 0; d < 4; d++)
					cr_expect_float_eq(tl_at(boxes, 0, 4 * k + d), v[(int)lay[d]],
							   1e-6, "%s box %lld", lay, (long long)k);
			}
		}
		dalic_pipeline_destroy(p);
	}
	cr_expect(ref_n > 0);
}

/* Recorded from DALI 2.4: batch 2, operator seed 1234, thresholds [0.2] (any box), scaling
 * [0.3, 0.6], aspect ratio [0.5, 2], 5 attempts, no "no crop"; iterations 0 and 1. */
Test(ops_random_bbox_crop, dali_values_for_seed_1234)
{
	static const double anchors[2][2][2] = {
	    {{0.4139758050441742, 0.5419501066207886}, {0.10159975290298462, 0.04289441183209419}},
	    {{0.40325090289115906, 0.23643730580806732},
	     {0.4483456015586853, 0.14147722721099854}}};
	static const double shapes[2][2][2] = {
	    {{0.575403094291687, 0.3137180209159851}, {0.4013481140136719, 0.35103511810302734}},
	    {{0.5662776231765747, 0.5391870141029358}, {0.5048301815986633, 0.4728739857673645}}};
	static const double boxes[2][2][8] = {
	    {{0.0, 0.1850385218858719, 0.4970848858356476, 1.0},
	     {0.0, 0.4475495219230652, 0.7434948682785034, 1.0}},
	    {{0.1708509922027588, 0.0, 0.8772182464599609, 0.6742793917655945, 0.0,
	      0.6742793917655945, 0.5240346193313599, 1.0},
	     {0.1023203432559967, 0.0, 0.8946659564971924, 0.9696511626243591}}};
	static const double labels[2][2][2] = {{{9}, {7}}, {{8, 9}, {8}}};
	static const double idx[2][2][2] = {{{2}, {0}}, {{1, 2}, {1}}};
	static const int64_t kept[2][2] = {{1, 1}, {2, 1}};
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_random_bbox_crop_op(p, true);
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){0.2}));
	ASSERT_OK(dalic_op_set_floats(op, "scaling", 2, (double[]){0.3, 0.6}));
	ASSERT_OK(dalic_op_set_floats(op, "aspect_ratio", 2, (double[]){0.5, 2.0}));
	ASSERT_OK(dalic_op_set_int(op, "num_attempts", 5));
	ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
	ASSERT_OK(dalic_op_set_bool(op, "all_boxes_above_threshold", false));
	ASSERT_OK(dalic_op_set_bool(op, "output_bbox_indices", true));
	ops_random_bbox_crop_outputs(p, op);
	for (int it = 0; it < 2; it++) {
		ops_random_bbox_crop_feed(p, 2, true);
		tl_run(p, 0);
		for (int i = 0; i < 2; i++) {
			tl_expect_values(ops_random_bbox_crop_out(p, 0), i, 2, anchors[it][i]);
			tl_expect_values(ops_random_bbox_crop_out(p, 1), i, 2, shapes[it][i]);
			tl_expect_shape(ops_random_bbox_crop_out(p, 2), i, 2, (int64_t[]){kept[it][i], 4});
			tl_expect_values(ops_random_bbox_crop_out(p, 2), i, (int)(4 * kept[it][i]), boxes[it][i]);
			tl_expect_values(ops_random_bbox_crop_out(p, 3), i, (int)kept[it][i], labels[it][i]);
			tl_expect_values(ops_random_bbox_crop_out(p, 4), i, (int)kept[it][i], idx[it][i]);
		}
	}
	dalic_pipeline_destroy(p);
}

Test(ops_random_bbox_crop, search_without_end_fails)
{
	/* the window is always the whole image: IoU with the first box is 0.09, never 1 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_bbox_crop_op(p, false);
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){1.0}));
	ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
	tl_output(p, op);
	ops_random_bbox_crop_feed(p, 1, false);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "no crop window satisfies the thresholds");
	EXPECT_HAS(msg, "'rbc'");
	dalic_pipeline_destroy(p);
}

Test(ops_random_bbox_crop, total_num_attempts_takes_the_best_window)
{
	/* same, with 4 attempts: the whole image is the best (and only) window */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_bbox_crop_op(p, false);
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){1.0}));
	ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
	ASSERT_OK(dalic_op_set_int(op, "total_num_attempts", 4));
	ops_random_bbox_crop_outputs(p, op);
	ops_random_bbox_crop_feed(p, 1, false);
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){0, 0});
	tl_expect_values(ops_random_bbox_crop_out(p, 1), 0, 2, (double[]){1, 1});
	tl_expect_shape(ops_random_bbox_crop_out(p, 2), 0, 2, (int64_t[]){3, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_random_bbox_crop, input_shape_without_crop_shape_is_ignored)
{
	/* DALI reads input_shape only with crop_shape: three values for 2-D boxes pass */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_bbox_crop_op(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "input_shape", 3, (int64_t[]){10, 20, 30}));
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){0.0}));
	ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
	ops_random_bbox_crop_outputs(p, op);
	ops_random_bbox_crop_feed(p, 1, false);
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){0, 0}); /* scaling [1, 1]: whole image */
	tl_expect_values(ops_random_bbox_crop_out(p, 1), 0, 2, (double[]){1, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_random_bbox_crop, input_errors)
{
	/* a box past the image */
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_output(p, ops_random_bbox_crop_op(p, false));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){1, 4},
		(float[]){0.1f, 0.1f, 1.5f, 0.5f}, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "box {(0.1, 0.1), (1.5, 0.5)} is out of bounds {(0, 0), (1, 1)}");
	dalic_pipeline_destroy(p);
	/* fewer labels than boxes (DALI reads past them) */
	p = tl_pipeline(1);
	tl_output(p, ops_random_bbox_crop_op(p, true));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){3, 4}, ops_random_bbox_crop_boxes, NULL);
	tl_feed(p, "labels", DALIC_INT32, 1, 1, (int64_t[]){2}, ops_random_bbox_crop_labels, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "3 boxes but 2 labels");
	dalic_pipeline_destroy(p);
	/* 5 coordinates */
	p = tl_pipeline(1);
	tl_output(p, ops_random_bbox_crop_op(p, false));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){1, 5}, (float[]){0, 0, 0, 1, 1}, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Unexpected number of coordinates for bounding boxes: 5");
	dalic_pipeline_destroy(p);
}

/* Argument errors come from the build (the operator's init). */
static int ops_random_bbox_crop_build_run(dalic_pipeline_t *p)
{
	int rc = dalic_pipeline_build(p);
	if (rc != DALIC_OK)
		return rc;
	ops_random_bbox_crop_feed(p, 1, false);
	return dalic_pipeline_run(p);
}

Test(ops_random_bbox_crop, argument_errors)
{
	static const struct {
		const char *arg;
		double v[2];
		int n;
		const char *msg;
	} cases[] = {
	    {"thresholds", {1.5}, 1, "Threshold value must be within the range [0.0, 1.0]"},
	    {"scaling", {0.9, 0.5}, 2, "`scaling` range must be positive and min <= max"},
	    {"aspect_ratio", {1, 2}, 1, "`aspect_ratio` range argument should have 2 elements"},
	    {"bbox_prune_threshold", {1.5}, 1, "`bbox_prune_threshold` must be in range"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_random_bbox_crop_op(p, false);
		if (!strcmp(cases[c].arg, "bbox_prune_threshold"))
			ASSERT_OK(dalic_op_set_float(op, cases[c].arg, cases[c].v[0]));
		else
			ASSERT_OK(dalic_op_set_floats(op, cases[c].arg, cases[c].n, cases[c].v));
		tl_output(p, op);
		cr_expect_neq(ops_random_bbox_crop_build_run(p), DALIC_OK, "%s", cases[c].arg);
		EXPECT_ERROR_HAS(cases[c].msg);
		dalic_pipeline_destroy(p);
	}
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_bbox_crop_op(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 2, (int64_t[]){5, 5}));
	tl_output(p, op);
	cr_expect_neq(ops_random_bbox_crop_build_run(p), DALIC_OK);
	EXPECT_ERROR_HAS("``input_shape`` must be provided when providing ``crop_shape``");
	dalic_pipeline_destroy(p);
}
