/*
 * Debug mode's `mark` / `since` (dalic_debug_mark, dalic_debug_since, the `mark` and `since`
 * commands): what the operators' output buffers grew and allocated after a mark. An
 * external source feeds int32 batches through `a + 1`; batches of the same shapes after the
 * mark allocate nothing (the buffers are reused), a larger sample makes the operator's buffer
 * grow once; without a mark, since is refused.
 */
#include "tests/testlib.h"

#include <string.h>

TestSuite(debug_mark, .timeout = 60);

static dalic_debug_t *dbm_open(dalic_pipeline_t **p)
{
	*p = tl_pipeline(2);
	tl_source(*p, "a");
	dalic_op_t *add = tl_op(*p, "ArithmeticGenericOp");
	tl_input(add, "a");
	ASSERT_OK(dalic_op_set_string(add, "expression_desc", "add(&0 $0:int32)"));
	ASSERT_OK(dalic_op_set_ints(add, "integer_constants", 1, (const int64_t[]){1}));
	tl_output(*p, add);
	return tl_debug_open(*p);
}

/* Two samples of `n` int32 values. */
static void dbm_feed(dalic_debug_t *s, int64_t n)
{
	int32_t v[64] = {0};
	int64_t shapes[2] = {n, n};
	ASSERT_OK(dalic_debug_feed_input(s, "a", DALIC_INT32, 1, 2, shapes, v, NULL));
}

static const dalic_debug_growth_t *dbm_row(const dalic_debug_growth_t *rows, int n,
                                           const char *prefix)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(rows[i].op, prefix, strlen(prefix)))
			return &rows[i];
	cr_assert_fail("no operator %s", prefix);
	return NULL;
}

Test(debug_mark, steady_shapes_allocate_nothing_a_larger_sample_grows)
{
	dalic_pipeline_t *p;
	dalic_debug_t *s = dbm_open(&p);
	int64_t its;
	const dalic_debug_growth_t *rows;
	int n;
	ASSERT_STATUS(dalic_debug_since(s, &its, &rows, &n), DALIC_ESTATE);
	EXPECT_DEBUG_ERROR_HAS(s, "no mark yet");
	for (int i = 0; i < 4; i++)
		dbm_feed(s, 4);
	dbm_feed(s, 32);
	ASSERT_DEBUG_OK(s, dalic_debug_mark(s));
	/* the first iteration allocates: the buffers did not exist at the mark */
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	ASSERT_DEBUG_OK(s, dalic_debug_since(s, &its, &rows, &n));
	cr_expect_eq(its, 1);
	const dalic_debug_growth_t *g = dbm_row(rows, n, "___ArithmeticGenericOp");
	cr_expect_geq(g->allocations, 1);
	cr_expect_geq(g->bytes_live, 2 * 4 * 4, "two samples of four int32 at least");
	/* mark again: three more iterations of the same shapes reuse the buffers */
	ASSERT_DEBUG_OK(s, dalic_debug_mark(s));
	for (int i = 0; i < 3; i++)
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	ASSERT_DEBUG_OK(s, dalic_debug_since(s, &its, &rows, &n));
	cr_expect_eq(its, 3);
	for (int i = 0; i < n; i++) {
		cr_expect_eq(rows[i].allocations, 0, "%s allocated", rows[i].op);
		cr_expect_eq(rows[i].growth_events, 0, "%s grew", rows[i].op);
		cr_expect_eq(rows[i].bytes_live, 0, "%s bytes live", rows[i].op);
	}
	/* samples of 32 values: the arithmetic's output buffer grows, once */
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	ASSERT_DEBUG_OK(s, dalic_debug_since(s, &its, &rows, &n));
	g = dbm_row(rows, n, "___ArithmeticGenericOp");
	cr_expect_eq(g->growth_events, 1);
	cr_expect_geq(g->allocations, 1);
	cr_expect_gt(g->bytes_live, 0);
	cr_expect_geq(g->allocated_bytes, 2 * 32 * 4, "two samples of 32 int32 at least");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* The commands in `dalic debug`. */
Test(debug_mark, commands)
{
	tl_cmd_t c = tl_dalic("since\nmark\nnext\nsince\nquit\n",
	                      "debug samples/scripts/getting_started.py");
	EXPECT_HAS(c.out, "since: no mark yet");
	EXPECT_HAS(c.out, "marked the memory counters at iteration 0");
	EXPECT_HAS(c.out, "since the mark (1 iterations):");
	EXPECT_HAS(c.out, "__Image_1");
	/* the labels' MakeContiguous passes the reader's packed buffer through: it holds and
	 * allocates nothing of its own */
	EXPECT_HAS(c.out, "5 of 6 operators changed");
	tl_cmd_free(&c);
}
