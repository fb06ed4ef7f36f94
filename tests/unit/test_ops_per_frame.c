/* per_frame: the layout gets a leading 'F' (kept, replaced, or made up as "F**"); data and
 * shapes pass through untouched; other layouts and scalars are refused. */
#include "tests/testlib.h"

TestSuite(ops_per_frame, .timeout = 20);

static const dalic_batch_t *ops_per_frame_run(dalic_pipeline_t *p, bool replace, int ndim,
                                              const int64_t *shape, const char *layout)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "per_frame");
	ASSERT_OK(dalic_op_set_name(op, "pf"));
	if (replace)
		ASSERT_OK(dalic_op_set_bool(op, "replace", true));
	tl_input(op, "in");
	tl_output(p, op);
	static const uint8_t data[64] = {9, 8, 7, 6, 5, 4};
	tl_feed(p, "in", DALIC_UINT8, ndim, 1, shape, data, layout);
	return dalic_pipeline_run(p) == DALIC_OK ? dalic_pipeline_output(p, 0) : NULL;
}

Test(ops_per_frame, layouts)
{
	struct {
		bool replace;
		const char *in, *want;
	} cases[] = {
	    {false, "FHW", "FHW"}, {true, "FHW", "FHW"}, {true, "HWC", "FWC"},
	    {false, NULL, "F**"},  {true, NULL, "F**"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		const dalic_batch_t *out =
		    ops_per_frame_run(p, cases[k].replace, 3, (int64_t[]){1, 2, 3}, cases[k].in);
		cr_assert_not_null(out, "case %zu: %s", k, dalic_last_error());
		cr_expect_str_eq(dalic_batch_layout(out), cases[k].want, "case %zu", k);
		tl_expect_shape(out, 0, 3, (int64_t[]){1, 2, 3});
		tl_expect_values(out, 0, 6, (double[]){9, 8, 7, 6, 5, 4});
		dalic_pipeline_destroy(p);
	}
}

Test(ops_per_frame, one_dim_without_layout_is_F)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	const dalic_batch_t *out = ops_per_frame_run(p, false, 1, (int64_t[]){4}, NULL);
	cr_assert_not_null(out, "%s", dalic_last_error());
	cr_expect_str_eq(dalic_batch_layout(out), "F");
	dalic_pipeline_destroy(p);
}

Test(ops_per_frame, refuses_non_sequences_and_scalars)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	cr_expect_null(ops_per_frame_run(p, false, 2, (int64_t[]){2, 3}, "HW"));
	EXPECT_ERROR_HAS("'pf'");
	EXPECT_ERROR_HAS("should start with 'F', got: HW");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	cr_expect_null(ops_per_frame_run(p, true, 0, NULL, NULL));
	EXPECT_ERROR_HAS("Cannot mark zero-dimensional input as a sequence");
	dalic_pipeline_destroy(p);
}
