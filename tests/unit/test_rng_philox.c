/*
 * engine/rng: Philox4x32-10 against the Random123 known answers, DALI's stepping and state
 * string, and DALI's distributions on chosen 32-bit draws (values worked out by hand).
 */
#include "tests/testlib.h"

#include "engine/rng.h"

#include <math.h>
#include <string.h>

TestSuite(rng_philox, .timeout = 20);

/* A generator whose next four draws are a, b, c, d (then the real sequence resumes). */
static dalic_philox_t rng_philox_fixed(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	dalic_philox_t g;
	dalic_philox_init(&g, 0, 0, 0, 0);
	g.out[0] = a;
	g.out[1] = b;
	g.out[2] = c;
	g.out[3] = d;
	g.ready = true;
	return g;
}

static void rng_philox_expect_block(uint64_t key, uint64_t hi, uint64_t lo, const uint32_t want[4])
{
	dalic_philox_t g;
	dalic_philox_init(&g, key, hi, lo, 0);
	for (int k = 0; k < 4; k++)
		cr_expect_eq(dalic_philox_next(&g), want[k], "output %d: key %016llx", k,
		             (unsigned long long)key);
}

Test(rng_philox, random123_known_answers)
{
	/* kat_vectors: philox4x32 10, counter words x y z w, key words, outputs */
	rng_philox_expect_block(0, 0, 0,
	                        (const uint32_t[]){0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
	rng_philox_expect_block(~0ull, ~0ull, ~0ull,
	                        (const uint32_t[]){0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
	rng_philox_expect_block(0x299f31d0a4093822ull, 0x0370734413198a2eull, 0x85a308d3243f6a88ull,
	                        (const uint32_t[]){0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

Test(rng_philox, next_steps_phase_then_counter_with_carry)
{
	dalic_philox_t g;
	dalic_philox_init(&g, 5, 7, ~0ull, 2);
	dalic_philox_next(&g);
	cr_expect_eq(g.phase, 3);
	dalic_philox_next(&g);
	cr_expect_eq(g.phase, 0);
	cr_expect_eq(g.ctr[0], 0, "the low word wraps");
	cr_expect_eq(g.ctr[1], 8, "and carries into the high word");
}

Test(rng_philox, skipahead_equals_drawing)
{
	const uint64_t steps[] = {0, 1, 3, 4, 5, 257, 1000, 65537 * 3 + 2};
	for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
		dalic_philox_t a, b;
		dalic_philox_init(&a, 0x1234, 9, ~0ull - 10, 1);
		b = a;
		for (uint64_t k = 0; k < steps[s]; k++)
			dalic_philox_next(&a);
		dalic_philox_skipahead(&b, steps[s]);
		cr_expect_eq(a.ctr[0], b.ctr[0], "skip %llu", (unsigned long long)steps[s]);
		cr_expect_eq(a.ctr[1], b.ctr[1], "skip %llu", (unsigned long long)steps[s]);
		cr_expect_eq(a.phase, b.phase, "skip %llu", (unsigned long long)steps[s]);
		cr_expect_eq(dalic_philox_next(&a), dalic_philox_next(&b));
	}
}

Test(rng_philox, streams_of_samples_and_elements)
{
	dalic_philox_t m;
	dalic_philox_init(&m, 42, 10, 0, 0); /* the master after 10 samples */
	dalic_philox_t s = dalic_rng_for_sample(&m, 3);
	cr_expect_eq(s.ctr[1], 10 + 3 * 65537);
	cr_expect_eq(s.ctr[0], 0);
	dalic_philox_t e = dalic_rng_for_element(&s, 5); /* 5 * 257 = 1285 = 321 * 4 + 1 */
	cr_expect_eq(e.ctr[0], 321);
	cr_expect_eq(e.phase, 1);
	cr_expect_eq(e.ctr[1], s.ctr[1]);
	dalic_philox_skipahead_sequence(&m, 4);
	cr_expect_eq(m.ctr[1], 14);
}

Test(rng_philox, state_string_as_dali_writes_it)
{
	dalic_philox_t g;
	char s[DALIC_PHILOX_STRING_LEN + 1];
	dalic_philox_init(&g, 0x34BE6725, 0, 0, 0);
	dalic_philox_format(&g, s);
	cr_expect_str_eq(s, "Philox_0000000034BE6725_0000000000000000:0000000000000000_0");
	dalic_philox_init(&g, 0xFFFFFFFFFFFFFFFFull, 15, 0xABCDEF, 3);
	dalic_philox_format(&g, s);
	cr_expect_str_eq(s, "Philox_FFFFFFFFFFFFFFFF_000000000000000F:0000000000ABCDEF_3");
	cr_expect_eq(strlen(s), 59);

	dalic_philox_t r;
	ASSERT_OK(
	    dalic_philox_parse(&r, "Philox_ffffffffffffffff_000000000000000f:0000000000abcdef_3"));
	cr_expect_eq(r.key, g.key);
	cr_expect_eq(r.ctr[1], 15);
	cr_expect_eq(r.ctr[0], 0xABCDEF);
	cr_expect_eq(r.phase, 3);
	cr_expect_eq(dalic_philox_next(&r), dalic_philox_next(&g), "the parsed state draws alike");
}

Test(rng_philox, state_string_errors_are_dalis)
{
	dalic_philox_t g;
	dalic_philox_init(&g, 1, 2, 3, 0);
	EXPECT_STATUS(dalic_philox_parse(&g, "Philox_00"), DALIC_EINVAL);
	EXPECT_ERROR_HAS("Invalid Philox state string length: 9");
	EXPECT_STATUS(
	    dalic_philox_parse(&g, "Philax_0000000034BE6725_0000000000000000:0000000000000000_0"),
	    DALIC_EINVAL);
	EXPECT_ERROR_HAS("Missing Philox_ prefix");
	EXPECT_STATUS(
	    dalic_philox_parse(&g, "Philox_0000000034BE6725:0000000000000000:0000000000000000_0"),
	    DALIC_EINVAL);
	EXPECT_ERROR_HAS("Malformed Philox state string");
	EXPECT_STATUS(
	    dalic_philox_parse(&g, "Philox_0000000034BE67G5_0000000000000000:0000000000000000_0"),
	    DALIC_EINVAL);
	EXPECT_ERROR_HAS("'G' is not a hexadecimal digit");
	EXPECT_STATUS(
	    dalic_philox_parse(&g, "Philox_0000000034BE6725_0000000000000000:0000000000000000_4"),
	    DALIC_EINVAL);
	EXPECT_ERROR_HAS("Invalid Philox state string phase: 4 expected: 0..3");
	cr_expect_eq(g.key, 1, "a failed parse leaves the state");
	cr_expect_eq(g.ctr[1], 2);
}

Test(rng_philox, uniform_real_bounds_and_swap)
{
	dalic_rng_uniform_f32_t d;
	dalic_rng_uniform_f32_init(&d, 2.0f, 3.0f);
	dalic_philox_t g = rng_philox_fixed(0, 0xffffffffu, 0x80000000u, 0);
	cr_expect_eq(dalic_rng_uniform_f32(&d, &g), 2.0f, "u = 0: the start");
	cr_expect_eq(dalic_rng_uniform_f32(&d, &g), nextafterf(3.0f, 2.0f),
	             "u = 2^32 - 1 (2^32 as a float): clamped below the end");
	/* 2^31 * (1 - 2^-22) * 2^-32 + 2 = 2.5 - 2^-23: halfway, rounds to the even 2.5 */
	cr_expect_eq(dalic_rng_uniform_f32(&d, &g), 2.5f);
	dalic_rng_uniform_f32_init(&d, 3.0f, 2.0f); /* reversed: [nextafter(2, 3), 3] */
	g = rng_philox_fixed(0, 0, 0, 0);
	cr_expect_eq(dalic_rng_uniform_f32(&d, &g), nextafterf(2.0f, 3.0f));

	dalic_rng_uniform_f64_t d64;
	dalic_rng_uniform_f64_init(&d64, -1.0, 1.0);
	/* one 64-bit draw, 2^63; the span (1 - 2^-53) + 1 rounds to 2, so 2^63 * 2^-63 - 1 = 0 */
	g = rng_philox_fixed(0, 0x80000000u, 0, 0);
	cr_expect_eq(dalic_rng_uniform_f64(&d64, &g), 0.0);
}

Test(rng_philox, unit_draws_can_reach_one)
{
	dalic_philox_t g = rng_philox_fixed(0x80000000u, 0xffffffffu, 0, 1);
	cr_expect_eq(dalic_rng_unit_f32(&g), 0.5f);
	cr_expect_eq(dalic_rng_unit_f32(&g), 1.0f, "float(2^32 - 1) rounds to 2^32, as in DALI");
	cr_expect_eq(dalic_rng_unit_f64(&g), 0x1p-32, "low word 0, high word 1");
}

Test(rng_philox, box_muller_and_zero_draws)
{
	float x, y;
	dalic_philox_t g = rng_philox_fixed(0x80000000u, 0, 0, 0);
	dalic_rng_box_muller_f32(&g, &x, &y);
	cr_expect_eq(x, sqrtf(-2 * logf(0.5f)), "theta 0: x = r");
	cr_expect_eq(y, 0.0f);
	g = rng_philox_fixed(0, 0x80000000u, 0, 0); /* u1 = 0: the draws swap */
	dalic_rng_box_muller_f32(&g, &x, &y);
	cr_expect_eq(x, sqrtf(-2 * logf(0.5f)));
	g = rng_philox_fixed(0, 0, 0, 0); /* both 0: u1 = 1e-30 */
	dalic_rng_box_muller_f32(&g, &x, &y);
	cr_expect_eq(x, sqrtf(-2 * logf(1e-30f)));
	g = rng_philox_fixed(0x80000000u, 0x40000000u, 0, 0); /* theta = pi / 2 */
	cr_expect_eq(dalic_rng_normal_f32(&g, 10.0f, 2.0f),
	             fmaf(sqrtf(-2 * logf(0.5f)) * cosf((float)(M_PI * 2) * 0.25f), 2.0f, 10.0f));
}

Test(rng_philox, bernoulli_thresholds_as_dalis_build)
{
	cr_expect_eq(dalic_rng_bernoulli_threshold(0.5f), 0x80000000u);
	cr_expect_eq(dalic_rng_bernoulli_threshold(0.25f), 0x40000000u);
	cr_expect_eq(dalic_rng_bernoulli_threshold(0.0f), 0u);
	cr_expect_eq(dalic_rng_bernoulli_threshold(1.0f), 0xffffffffu);
	cr_expect_eq(dalic_rng_bernoulli_threshold(1.5f), 0xffffffffu);
	cr_expect_eq(dalic_rng_bernoulli_threshold(INFINITY), 0xffffffffu);
	/* -0.5 * 2^32 = -2^31 truncates to 0xFFFFFFFF80000000: the low word */
	cr_expect_eq(dalic_rng_bernoulli_threshold(-0.5f), 0x80000000u);
	cr_expect_eq(dalic_rng_bernoulli_threshold(NAN), 0u);
	cr_expect_eq(dalic_rng_bernoulli_threshold(-INFINITY), 0u);
	dalic_philox_t g = rng_philox_fixed(0x80000000u, 0x80000001u, 0, 0);
	cr_expect(dalic_rng_bernoulli(0x80000000u, &g), "u <= threshold");
	cr_expect_not(dalic_rng_bernoulli(0x80000000u, &g));
}

Test(rng_philox, integer_draws)
{
	dalic_rng_uniform_int_t d;
	dalic_philox_t g = rng_philox_fixed(0x6627e8d5u, 0x6627e8d5u, 0x6627e8d5u, 0xffffffffu);
	dalic_rng_uniform_int_init(&d, 10, 17, false); /* 8 values: a mask */
	cr_expect_eq(dalic_rng_uniform_int(&d, &g), 10 + 5);
	dalic_rng_uniform_int_init(&d, 0, 10, true); /* 10 values: (u * 10) >> 32 */
	cr_expect_eq(dalic_rng_uniform_int(&d, &g), 3, "1714939093 * 10 / 2^32 = 3.99");
	cr_expect_eq(dalic_rng_pick(&g, 3), 1, "1714939093 * 3 / 2^32 = 1.198");
	dalic_rng_uniform_int_init(&d, INT32_MIN, INT32_MAX, false); /* all 2^32 values */
	cr_expect_eq(d.range, 0);
	cr_expect_eq(dalic_rng_uniform_int(&d, &g), (int64_t)INT32_MIN + 0xffffffffu);
}

Test(rng_philox, libstdcxx_distributions)
{
	dalic_philox_t g = rng_philox_fixed(0xffffffffu, 0x80000000u, 0x80000000u, 0);
	cr_expect_eq(dalic_rng_std_canonical_f32(&g), nextafterf(1.0f, 0.0f),
	             "a canonical 1.0 becomes the float below");
	cr_expect_eq(dalic_rng_std_canonical_f32(&g), 0.5f);
	float a = 0.08f, b = 1.0f;
	cr_expect_eq(dalic_rng_std_uniform_real_f32(&g, a, b), 0.5f * (b - a) + a);
	/* Lemire: range 3 rejects a product whose low word is below 2^32 % 3 = 1 */
	g = rng_philox_fixed(0, 0x80000000u, 0, 0);
	cr_expect_eq(dalic_rng_std_uniform_int(&g, 0, 2), 1, "0 rejected, then 2^31 * 3 >> 32");
	g = rng_philox_fixed(0x6627e8d5u, 0, 0, 0);
	cr_expect_eq(dalic_rng_std_uniform_int(&g, 5, 14), 5 + 3);
}

Test(rng_philox, float_conversions_as_x86)
{
	cr_expect_eq(dalic_rng_cvt_i32(3.9f), 3);
	cr_expect_eq(dalic_rng_cvt_i32(-3.9f), -3);
	cr_expect_eq(dalic_rng_cvt_i32(-2147483648.0f), INT32_MIN);
	cr_expect_eq(dalic_rng_cvt_i32(2147483520.0f), 2147483520);
	cr_expect_eq(dalic_rng_cvt_i32(3e9f), INT32_MIN, "out of range");
	cr_expect_eq(dalic_rng_cvt_i32(NAN), INT32_MIN);
	cr_expect_eq(dalic_rng_cvt_i64(-1e10f), -10000000000LL);
	cr_expect_eq(dalic_rng_cvt_i64(1e19f), INT64_MIN);
}
