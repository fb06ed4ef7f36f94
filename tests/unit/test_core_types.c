/* Unit tests: dtypes, argument values and their parsing, seed derivation. */
#include "tests/testlib.h"

#include "engine/dtype.h"
#include "engine/rng.h"
#include "engine/schema.h"
#include "engine/value.h"

#include <math.h>
#include <string.h>

TestSuite(core_types, .timeout = 10);

Test(core_types, dtype_numbering_is_dali)
{
	cr_expect_eq(DALIC_UINT8, 0);
	cr_expect_eq(DALIC_INT32, 6);
	cr_expect_eq(DALIC_FLOAT, 9);
	cr_expect_eq(DALIC_BOOL, 11);
	cr_expect_eq(DALIC_STRING, 12);
	cr_expect_eq(dalic_dtype_size(DALIC_FLOAT16), 2);
	cr_expect_eq(dalic_dtype_size(DALIC_INT64), 8);
	cr_expect_str_eq(dalic_dtype_name(DALIC_FLOAT64), "FLOAT64");
}

Test(core_types, dtype_parse_accepts_dali_and_numpy_spellings)
{
	cr_expect_eq(dalic_dtype_parse("types.FLOAT"), DALIC_FLOAT);
	cr_expect_eq(dalic_dtype_parse("DALIDataType.UINT8"), DALIC_UINT8);
	cr_expect_eq(dalic_dtype_parse("float32"), DALIC_FLOAT);
	cr_expect_eq(dalic_dtype_parse("np.int16"), DALIC_INT16);
	cr_expect_eq(dalic_dtype_parse("nonsense"), DALIC_NO_TYPE);
}

Test(core_types, convert_sat_rounds_half_away_and_clamps)
{
	uint8_t u8[4];
	dalic_dtype_store_sat(DALIC_UINT8, u8, 0, 300.0);
	dalic_dtype_store_sat(DALIC_UINT8, u8, 1, -5.0);
	dalic_dtype_store_sat(DALIC_UINT8, u8, 2, 2.5);
	dalic_dtype_store_sat(DALIC_UINT8, u8, 3, NAN);
	cr_expect_eq(u8[0], 255);
	cr_expect_eq(u8[1], 0);
	cr_expect_eq(u8[2], 3);
	cr_expect_eq(u8[3], 0);
	int32_t i32;
	dalic_dtype_store_sat(DALIC_INT32, &i32, 0, -2.5);
	cr_expect_eq(i32, -3);
	dalic_dtype_store_sat(DALIC_INT32, &i32, 0, 1e12);
	cr_expect_eq(i32, INT32_MAX);
}

Test(core_types, half_float_round_trip)
{
	const float v[] = {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f, 1.0f / 3.0f};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		float back = dalic_dtype_half_to_float(dalic_dtype_float_to_half(v[i]));
		cr_expect(fabsf(back - v[i]) <= fabsf(v[i]) * 0.001f, "%g -> %g", v[i], back);
	}
	cr_expect_eq(dalic_dtype_float_to_half(1.0f), 0x3c00);
	cr_expect(isinf(dalic_dtype_half_to_float(dalic_dtype_float_to_half(1e6f))));
}

Test(core_types, value_parse_python_literals)
{
	dalic_value_t v;
	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_FLOAT_LIST, "[-1.0, 1]", &v));
	cr_expect(v.is_list);
	cr_expect_eq(v.n, 2);
	cr_expect_float_eq(v.f[0], -1.0, 1e-12);
	cr_expect_float_eq(v.f[1], 1.0, 1e-12);
	dalic_value_free(&v);

	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_INT_LIST, "5", &v));
	cr_expect(v.is_list, "a scalar given for a list is broadcast");
	cr_expect_eq(v.n, 1);
	cr_expect_eq(v.i[0], 5);
	dalic_value_free(&v);

	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_DTYPE, "types.INT32", &v));
	cr_expect_eq(v.i[0], DALIC_INT32);
	dalic_value_free(&v);

	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_INTERP_TYPE, "INTERP_LANCZOS3", &v));
	cr_expect_eq(v.i[0], DALIC_INTERP_LANCZOS3);
	dalic_value_free(&v);

	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_STRING, "'not_smaller'", &v));
	cr_expect_str_eq(v.s[0], "not_smaller");
	char buf[64];
	dalic_value_format(&v, buf, sizeof buf);
	cr_expect_str_eq(buf, "'not_smaller'");
	dalic_value_free(&v);

	ASSERT_OK(dalic_schema_value_parse(DALIC_ARG_FLOAT, "None", &v));
	cr_expect_eq(v.kind, DALIC_V_NONE);
}

Test(core_types, value_parse_rejects_wrong_types)
{
	dalic_value_t v;
	EXPECT_STATUS(dalic_schema_value_parse(DALIC_ARG_INT, "'abc'", &v), DALIC_EARG_TYPE);
	EXPECT_STATUS(dalic_schema_value_parse(DALIC_ARG_FLOAT, "[1, 2]", &v), DALIC_EARG_TYPE);
	EXPECT_STATUS(dalic_schema_value_parse(DALIC_ARG_INT, "1.5", &v), DALIC_EARG_TYPE);
	EXPECT_STATUS(dalic_schema_value_parse(DALIC_ARG_DTYPE, "NOT_A_TYPE", &v), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("NOT_A_TYPE");
}

Test(core_types, seed_seq_matches_libstdcxx)
{
	/* values printed by std::seed_seq{seed}.generate() with GCC 12's libstdc++ */
	uint32_t v[1024];
	dalic_seed_seq_generate(42, v, 1024);
	cr_expect_eq(v[0], 1153314634u);
	cr_expect_eq(v[1], 1765093571u);
	cr_expect_eq(v[511], 1758295614u);
	cr_expect_eq(v[1023], 3283465835u);
	dalic_seed_seq_generate(5000000000LL, v, 1024);
	cr_expect_eq(v[0], 582164665u);
	cr_expect_eq(v[1023], 2777118241u);
}
