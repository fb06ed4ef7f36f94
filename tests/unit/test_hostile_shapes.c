/*
 * Hostile shapes (issue 24): volumes, strides and byte sizes that overflow 64 bits are errors
 * naming the operator and the shape, never a short buffer that claims a large shape (a heap
 * over-read that --dump would write out), a SIGSEGV, or a tensor backed by 0 bytes.
 */
#include "tests/testlib/hostile.h"

#include "engine/checked.h"
#include "tests/testlib.h"

#include <sys/stat.h>

TestSuite(hostile_shapes, .timeout = 30);

Test(hostile_shapes, checked_shape_bytes_follow_numpys_rule)
{
	size_t b;
	cr_expect(dalic_ck_shape_bytes((const int64_t[]){2, 3, 4}, 3, 4, &b));
	cr_expect_eq(b, 96);
	cr_expect(dalic_ck_shape_bytes(NULL, 0, 8, &b), "a scalar");
	cr_expect_eq(b, 8);
	cr_expect(dalic_ck_shape_bytes((const int64_t[]){0, 5}, 2, 4, &b));
	cr_expect_eq(b, 0);
	/* 274177 * 67280421310721 = 2**64 + 1 wraps to 1 */
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){274177, 67280421310721}, 2, 4, &b));
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){4294967296, 4294967296}, 2, 1, &b));
	/* 65536**4 = 2**64 wraps to 0 */
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){65536, 65536, 65536, 65536}, 4, 4, &b));
	/* an empty tensor whose strides overflow: numpy refuses it too */
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){0, 1LL << 40, 1LL << 40}, 3, 1, &b));
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){-1, 2}, 2, 1, &b));
	/* 2**61 elements fit int64; times 4 bytes they do not */
	cr_expect(dalic_ck_shape_bytes((const int64_t[]){1LL << 61}, 1, 2, &b));
	cr_expect_eq(b, (size_t)1 << 62);
	cr_expect_not(dalic_ck_shape_bytes((const int64_t[]){1LL << 61}, 1, 4, &b));
}

Test(hostile_shapes, double_to_i64_refuses_nan_inf_and_huge)
{
	int64_t v;
	cr_expect(dalic_ck_double_to_i64(-7.9, &v));
	cr_expect_eq(v, -7, "truncates toward zero like static_cast");
	cr_expect(dalic_ck_double_to_i64(67280421310721.0, &v));
	cr_expect_eq(v, 67280421310721);
	cr_expect_not(dalic_ck_double_to_i64(NAN, &v));
	cr_expect_not(dalic_ck_double_to_i64(INFINITY, &v));
	cr_expect_not(dalic_ck_double_to_i64(1e30, &v));
	cr_expect_not(dalic_ck_double_to_i64(-4611686018427387904.0, &v), "-2**62 is outside");
}

/* The reproducer: the shape wrapped to a 1-element buffer and slicing copied heap
 * bytes out. */
Test(hostile_shapes, wrapping_volume_is_an_error_naming_operator_and_shape)
{
	const char *msg = hs_script_fails(
	    HS_PIPE("    x = fn.random.uniform(range=[0, 1], shape=[274177, 67280421310721])\n"
		    "    return x[0:1, 0:4]"));
	hs_expect_mentions(msg, "__Uniform_0", "random__Uniform", "sample 0",
	                   "[274177, 67280421310721]", "FLOAT", "overflows", NULL);
}

#define HS_SQUARE "    x = fn.random.uniform(range=[0, 1], shape=[2**32, 2**32])\n"

Test(hostile_shapes, index_into_a_2_32_square_fails_instead_of_crashing)
{
	const char *msg = hs_script_fails(HS_PIPE(HS_SQUARE "    return x[5, 7]"));
	hs_expect_mentions(msg, "__Uniform_0", "[4294967296, 4294967296]", NULL);
}

Test(hostile_shapes, slice_of_a_2_32_square_fails_instead_of_crashing)
{
	const char *msg =
	    hs_script_fails(HS_PIPE(HS_SQUARE "    return x[1:3, 1:3]"));
	hs_expect_mentions(msg, "__Uniform_0", "[4294967296, 4294967296]", NULL);
}

Test(hostile_shapes, crop_of_a_2_32_square_fails_instead_of_crashing)
{
	const char *msg = hs_script_fails(
	    HS_PIPE("    x = fn.random.uniform(range=[0, 1], shape=[2**32, 2**32, 3])\n"
		    "    return fn.crop(x, crop=[2, 2])"));
	hs_expect_mentions(msg, "__Uniform_0", "[4294967296, 4294967296, 3]", NULL);
}

Test(hostile_shapes, constant_of_a_2_32_square_is_refused_at_build)
{
	const char *msg =
	    hs_script_fails(HS_PIPE("    return types.Constant(1.5, shape=[2**32, 2**32])"));
	hs_expect_mentions(msg, "__Constant_0", "shape", "[4294967296, 4294967296]", "overflows",
			   NULL);
}

/* 65536**4 elements wrapped to 0: the run reported a 4-D tensor backed by 0 bytes. */
Test(hostile_shapes, volume_wrapping_to_zero_is_an_error)
{
	const char *msg =
	    hs_script_fails(HS_PIPE("    return fn.random.uniform(range=[0, 1], shape=[65536]*4)"));
	hs_expect_mentions(msg, "__Uniform_0", "[65536, 65536, 65536, 65536]", NULL);
}

Test(hostile_shapes, empty_tensor_with_overflowing_strides_is_refused)
{
	const char *msg = hs_script_fails(
	    HS_PIPE("    return fn.random.uniform(range=[0, 1], shape=[0, 2**40, 2**40])"));
	hs_expect_mentions(msg, "__Uniform_0", "[0, 1099511627776, 1099511627776]", NULL);
}

Test(hostile_shapes, overflowing_shape_fed_through_the_api_is_refused)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "cast");
	tl_input(op, "a");
	cr_assert_eq(dalic_op_set_int(op, "dtype", DALIC_INT32), DALIC_OK);
	tl_output(p, op);
	const int64_t shape[2] = {4294967296, 4294967296};
	uint8_t data[1] = {0};
	int rc = dalic_pipeline_feed_input(p, "a", DALIC_UINT8, 2, 1, shape, data, NULL);
	cr_expect_neq(rc, DALIC_OK, "a 16 EiB sample cannot be fed from a 1-byte buffer");
	hs_expect_mentions(dalic_last_error(), "[4294967296, 4294967296]", NULL);
	dalic_pipeline_destroy(p);
}

/* Slice steps near INT64_MAX / INT64_MIN: counts are computed without overflow. */
Test(hostile_shapes, huge_slice_steps_select_one_element)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "tensor_subscript");
	tl_input(op, "a");
	cr_assert_eq(dalic_op_set_int(op, "lo_0", 1), DALIC_OK);
	cr_assert_eq(dalic_op_set_int(op, "hi_0", 4), DALIC_OK);
	cr_assert_eq(dalic_op_set_int(op, "step_0", INT64_MAX), DALIC_OK);
	cr_assert_eq(dalic_op_set_int(op, "step_1", INT64_MIN), DALIC_OK);
	tl_output(p, op);
	const int64_t shape[2] = {4, 3};
	const int32_t data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	tl_feed(p, "a", DALIC_INT32, 2, 1, shape, data, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	/* rows 1:4:huge -> row 1; columns ::-huge -> the last column only */
	tl_expect_shape(b, 0, 2, (const int64_t[]){1, 1});
	tl_expect_values(b, 0, 1, (const double[]){5});
	dalic_pipeline_destroy(p);
}

/* A selection of nothing, starting before the data (lo clamps to -1 with a negative step),
 * borrows no pointer outside the input. */
Test(hostile_shapes, empty_negative_step_slice_is_empty)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "tensor_subscript");
	tl_input(op, "a");
	cr_assert_eq(dalic_op_set_int(op, "lo_0", -20), DALIC_OK);
	cr_assert_eq(dalic_op_set_int(op, "hi_0", 5), DALIC_OK);
	cr_assert_eq(dalic_op_set_int(op, "step_0", -1), DALIC_OK);
	tl_output(p, op);
	const int64_t shape[1] = {10};
	const uint8_t data[10] = {0};
	tl_feed(p, "a", DALIC_UINT8, 1, 1, shape, data, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 1, (const int64_t[]){0});
	cr_expect_eq(dalic_batch_sample_bytes(b, 0), 0);
	dalic_pipeline_destroy(p);
}

/* UBSan: an empty constant used to reach memcpy(NULL, ..., 0); empty samples now always
 * point at valid (unwritten) storage. */
Test(hostile_shapes, empty_constant_runs_and_its_samples_are_not_null)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = tl_op(p, "constant");
	cr_assert_eq(dalic_op_set_ints(op, "idata", 1, (const int64_t[]){9}), DALIC_OK);
	cr_assert_eq(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){0, 4}), DALIC_OK);
	tl_output(p, op);
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		for (int i = 0; i < 3; i++) {
			tl_expect_shape(b, i, 2, (const int64_t[]){0, 4});
			cr_expect_not_null(dalic_batch_data(b, i));
		}
	}
	dalic_pipeline_destroy(p);
}

/* Through the binary: the overflowing script exits non-zero, and --dump writes no sample. */
Test(hostile_shapes, dump_of_an_overflowing_shape_writes_nothing)
{
	const char *script = HS_PIPE("    x = fn.random.uniform(range=[0, 1], "
				     "shape=[274177, 67280421310721])\n"
				     "    return x[0:1, 0:4]");
	const char *path = hs_temp(script, strlen(script), ".py");
	char dir[] = "/tmp/dalic_hostile_dump_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	int st = hs_dalic(NULL, "run %s -n 1 --dump %s", path, dir);
	cr_expect_eq(st, 1, "exit status %d: %s", st, hs_msg);
	hs_expect_mentions(hs_msg, "__Uniform_0", "[274177, 67280421310721]", NULL);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "ls -A %s | grep -c . || true", dir);
	FILE *f = popen(cmd, "r");
	int files = -1;
	cr_assert_eq(fscanf(f, "%d", &files), 1);
	pclose(f);
	cr_expect_eq(files, 0, "--dump wrote %d entries", files);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	unlink(path);
}
