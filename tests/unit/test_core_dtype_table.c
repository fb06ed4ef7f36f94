/*
 * The dtype table (engine/dtype.h): every dtype's number, names, size, class and numpy
 * descr, and the conversions generated from it — loads, saturating stores, and the Cast
 * operator at the edges of the 64-bit types — against values worked out by hand.
 */
#include "tests/testlib.h"

#include "engine/dtype.h"

#include <float.h>

TestSuite(core_dtype_table, .timeout = 20);

typedef struct dt_row {
	dalic_dtype_t t;
	int num;
	const char *name, *short_name, *npy, *cname;
	size_t size;
	bool numeric, is_float, is_signed;
} dt_row_t;

/* DALI's DALIDataType and numpy's names, written out by hand. */
static const dt_row_t dt_rows[] = {
    {DALIC_UINT8, 0, "UINT8", "uint8", "|u1", "uint8", 1, true, false, false},
    {DALIC_UINT16, 1, "UINT16", "uint16", "<u2", "uint16", 2, true, false, false},
    {DALIC_UINT32, 2, "UINT32", "uint32", "<u4", "uint32", 4, true, false, false},
    {DALIC_UINT64, 3, "UINT64", "uint64", "<u8", "uint64", 8, true, false, false},
    {DALIC_INT8, 4, "INT8", "int8", "|i1", "int8", 1, true, false, true},
    {DALIC_INT16, 5, "INT16", "int16", "<i2", "int16", 2, true, false, true},
    {DALIC_INT32, 6, "INT32", "int32", "<i4", "int32", 4, true, false, true},
    {DALIC_INT64, 7, "INT64", "int64", "<i8", "int64", 8, true, false, true},
    {DALIC_FLOAT16, 8, "FLOAT16", "float16", "<f2", "float16", 2, true, true, true},
    {DALIC_FLOAT, 9, "FLOAT", "float32", "<f4", "float", 4, true, true, true},
    {DALIC_FLOAT64, 10, "FLOAT64", "float64", "<f8", "double", 8, true, true, true},
    {DALIC_BOOL, 11, "BOOL", "bool", "|b1", "bool", 1, true, false, false},
    {DALIC_STRING, 12, "STRING", "string", NULL, "string", 0, false, false, false},
    {DALIC_IMAGE_TYPE, 20, "IMAGE_TYPE", "image_type", NULL, "IMAGE_TYPE", 4, false, false,
     false},
    {DALIC_DATA_TYPE, 21, "DATA_TYPE", "data_type", NULL, "DATA_TYPE", 4, false, false, false},
    {DALIC_INTERP_TYPE, 22, "INTERP_TYPE", "interp_type", NULL, "INTERP_TYPE", 4, false, false,
     false},
    {DALIC_TENSOR_LAYOUT, 23, "TENSOR_LAYOUT", "tensor_layout", NULL, "TENSOR_LAYOUT", 0, false,
     false, false},
};

Test(core_dtype_table, every_dtype_row)
{
	for (size_t i = 0; i < sizeof dt_rows / sizeof dt_rows[0]; i++) {
		const dt_row_t *r = &dt_rows[i];
		cr_expect_eq((int)r->t, r->num, "%s", r->name);
		cr_expect_str_eq(dalic_dtype_name(r->t), r->name);
		cr_expect_str_eq(dalic_dtype_short(r->t), r->short_name);
		cr_expect_str_eq(dalic_dtype_cname(r->t), r->cname);
		cr_expect_eq(dalic_dtype_size(r->t), r->size, "%s", r->name);
		if (r->npy)
			cr_expect_str_eq(dalic_dtype_npy_descr(r->t), r->npy);
		else
			cr_expect_null(dalic_dtype_npy_descr(r->t), "%s", r->name);
		cr_expect_eq(dalic_dtype_is_numeric(r->t), r->numeric, "%s", r->name);
		cr_expect_eq(dalic_dtype_is_float(r->t), r->is_float, "%s", r->name);
		cr_expect_eq(dalic_dtype_is_signed(r->t), r->is_signed, "%s", r->name);
		cr_expect_eq(dalic_dtype_is_integral(r->t), r->numeric && !r->is_float, "%s",
		             r->name);
		cr_expect_eq(dalic_dtype_parse(r->name), r->t, "%s", r->name);
		cr_expect_eq(dalic_dtype_parse(r->short_name), r->t, "%s", r->short_name);
	}
	cr_expect_str_eq(dalic_dtype_name(DALIC_NO_TYPE), "NO_TYPE");
	cr_expect_str_eq(dalic_dtype_name((dalic_dtype_t)13), "UNKNOWN");
	cr_expect_eq(dalic_dtype_size((dalic_dtype_t)13), 0);
	cr_expect_null(dalic_dtype_npy_descr(DALIC_NO_TYPE));
}

Test(core_dtype_table, loads_read_each_storage)
{
	const uint16_t half[] = {0x3c00, 0xc000, 0x7c00}; /* 1, -2, +inf */
	cr_expect_eq(dalic_dtype_load_f64(DALIC_FLOAT16, half, 0), 1.0);
	cr_expect_eq(dalic_dtype_load_f64(DALIC_FLOAT16, half, 1), -2.0);
	cr_expect(isinf(dalic_dtype_load_f64(DALIC_FLOAT16, half, 2)));
	const uint8_t flags[] = {0, 2, 255};
	cr_expect_eq(dalic_dtype_load_f64(DALIC_BOOL, flags, 0), 0.0);
	cr_expect_eq(dalic_dtype_load_f64(DALIC_BOOL, flags, 1), 1.0, "any non-zero byte is true");
	cr_expect_eq(dalic_dtype_load_i64(DALIC_BOOL, flags, 2), 1);
	const int8_t s8[] = {-128, 127};
	cr_expect_eq(dalic_dtype_load_i64(DALIC_INT8, s8, 0), -128);
	cr_expect_eq(dalic_dtype_load_f64(DALIC_UINT8, s8, 0), 128.0, "the same byte unsigned");
	/* 2^63 - 1 and 2^53 + 1 have no double: the integer load is exact */
	const int64_t big[] = {INT64_MAX, 9007199254740993LL};
	cr_expect_eq(dalic_dtype_load_i64(DALIC_INT64, big, 0), INT64_MAX);
	cr_expect_eq(dalic_dtype_load_i64(DALIC_INT64, big, 1), 9007199254740993LL);
	const double d[] = {-7.75};
	cr_expect_eq(dalic_dtype_load_i64(DALIC_FLOAT64, d, 0), -7, "C conversion truncates");
	cr_expect_eq(dalic_dtype_load_f64(DALIC_STRING, d, 0), 0.0, "not numeric: 0");
}

Test(core_dtype_table, saturating_stores_at_every_range)
{
	uint64_t u64;
	int64_t i64;
	uint32_t u32;
	int16_t i16;
	uint8_t b;
	float f;
	dalic_dtype_store_sat(DALIC_UINT64, &u64, 0, 1e30);
	cr_expect_eq(u64, UINT64_MAX);
	dalic_dtype_store_sat(DALIC_UINT64, &u64, 0, -3.0);
	cr_expect_eq(u64, 0);
	dalic_dtype_store_sat(DALIC_INT64, &i64, 0, -1e30);
	cr_expect_eq(i64, INT64_MIN);
	dalic_dtype_store_sat(DALIC_INT64, &i64, 0, 9223372036854775807.0); /* 2^63 */
	cr_expect_eq(i64, INT64_MAX);
	dalic_dtype_store_sat(DALIC_UINT32, &u32, 0, 4294967295.4);
	cr_expect_eq(u32, UINT32_MAX);
	dalic_dtype_store_sat(DALIC_INT16, &i16, 0, -32768.6);
	cr_expect_eq(i16, -32768);
	dalic_dtype_store_sat(DALIC_INT16, &i16, 0, -0.5);
	cr_expect_eq(i16, -1, "half away from zero");
	dalic_dtype_store_sat(DALIC_BOOL, &b, 0, NAN);
	cr_expect_eq(b, 1, "static_cast<bool>(NaN) is true");
	dalic_dtype_store_sat(DALIC_FLOAT, &f, 0, 0.1);
	cr_expect_eq(f, 0.1f);

	/* from int64: exact, without a trip through double */
	dalic_dtype_store_i64_sat(DALIC_UINT64, &u64, 0, -1);
	cr_expect_eq(u64, 0);
	dalic_dtype_store_i64_sat(DALIC_INT64, &i64, 0, 9007199254740993LL);
	cr_expect_eq(i64, 9007199254740993LL);
	dalic_dtype_store_i64_sat(DALIC_UINT32, &u32, 0, 5000000000LL);
	cr_expect_eq(u32, UINT32_MAX);
	dalic_dtype_store_i64_sat(DALIC_INT16, &i16, 0, INT64_MIN);
	cr_expect_eq(i16, -32768);
	dalic_dtype_store_i64_sat(DALIC_INT16, &i16, 0, -7);
	cr_expect_eq(i16, -7);
	dalic_dtype_store_i64_sat(DALIC_BOOL, &b, 0, -7);
	cr_expect_eq(b, 1);
	dalic_dtype_store_i64_sat(DALIC_FLOAT, &f, 0, 16777217); /* 2^24 + 1 rounds to even */
	cr_expect_eq(f, 16777216.0f);
}

/* Cast: uint64 above INT64_MAX, int64 extremes, NaN and rounding into 64-bit targets. */
Test(core_dtype_table, cast_at_the_64_bit_edges)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "a");
	tl_source(p, "b");
	tl_source(p, "c");
	const char *names[] = {"a", "b", "c"};
	const dalic_dtype_t to[] = {DALIC_INT64, DALIC_UINT64, DALIC_INT8};
	for (int k = 0; k < 3; k++) {
		dalic_op_t *op = tl_op(p, "cast");
		cr_assert_eq(dalic_op_set_int(op, "dtype", to[k]), DALIC_OK, "%s", dalic_last_error());
		tl_input(op, names[k]);
		tl_output(p, op);
	}
	int64_t shapes[3] = {2, 2, 2};
	const uint64_t a[6] = {9223372036854775809ull, 5, UINT64_MAX, 0, 1, 2};
	const int64_t b[6] = {-1, INT64_MAX, INT64_MIN, 7, 0, 1};
	const double c[6] = {NAN, -0.5, 127.5, -128.5, 1e300, -2.4};
	tl_feed(p, "a", DALIC_UINT64, 1, 3, shapes, a, NULL);
	tl_feed(p, "b", DALIC_INT64, 1, 3, shapes, b, NULL);
	tl_feed(p, "c", DALIC_FLOAT64, 1, 3, shapes, c, NULL);
	cr_assert_eq(dalic_pipeline_run(p), DALIC_OK, "%s", dalic_last_error());
	const dalic_batch_t *oa = dalic_pipeline_output(p, 0), *ob = dalic_pipeline_output(p, 1),
	                    *oc = dalic_pipeline_output(p, 2);
	const int64_t *ia = dalic_batch_data(oa, 0), *ia1 = dalic_batch_data(oa, 1);
	cr_expect_eq(ia[0], INT64_MAX);
	cr_expect_eq(ia[1], 5);
	cr_expect_eq(ia1[0], INT64_MAX);
	cr_expect_eq(ia1[1], 0);
	const uint64_t *ub = dalic_batch_data(ob, 0), *ub1 = dalic_batch_data(ob, 1);
	cr_expect_eq(ub[0], 0);
	cr_expect_eq(ub[1], (uint64_t)INT64_MAX);
	cr_expect_eq(ub1[0], 0);
	cr_expect_eq(ub1[1], 7);
	const double want_c[3][2] = {{0, -1}, {127, -128}, {127, -2}};
	for (int i = 0; i < 3; i++)
		tl_expect_values(oc, i, 2, want_c[i]);
	dalic_pipeline_destroy(p);
}
