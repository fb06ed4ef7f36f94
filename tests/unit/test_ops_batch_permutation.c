/* batch_permutation: permutations, derangements, draws with repetitions, batches of one, the
 * values DALI 2.4 gives for seed 1234, and a new permutation per iteration. */
#include "tests/testlib.h"

TestSuite(ops_batch_permutation, .timeout = 20);

/* A pipeline of `batch` samples with one batch_permutation (seed 1234) as its output. */
static dalic_pipeline_t *ops_batch_permutation_pipe(int batch, bool rep, bool no_fixed)
{
	dalic_pipeline_t *p = tl_pipeline(batch);
	dalic_op_t *op = tl_op(p, "batch_permutation");
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	ASSERT_OK(dalic_op_set_bool(op, "allow_repetitions", rep));
	ASSERT_OK(dalic_op_set_bool(op, "no_fixed_points", no_fixed));
	tl_output(p, op);
	return p;
}

static void ops_batch_permutation_values(const dalic_batch_t *b, int n, int *out)
{
	cr_assert_eq(dalic_batch_num_samples(b), n);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT32);
	cr_assert_eq(dalic_batch_ndim(b), 0);
	for (int i = 0; i < n; i++)
		out[i] = (int)tl_at(b, i, 0);
}

Test(ops_batch_permutation, permutations_and_derangements_are_valid)
{
	for (int no_fixed = 0; no_fixed < 2; no_fixed++) {
		dalic_pipeline_t *p = ops_batch_permutation_pipe(13, false, no_fixed);
		for (int it = 0; it < 20; it++) {
			int v[13], seen[13] = {0};
			ops_batch_permutation_values(tl_run(p, 0), 13, v);
			for (int i = 0; i < 13; i++) {
				cr_assert(v[i] >= 0 && v[i] < 13, "value %d", v[i]);
				cr_assert_eq(seen[v[i]]++, 0, "%d twice", v[i]);
				if (no_fixed)
					cr_assert_neq(v[i], i, "fixed point at %d", i);
			}
		}
		dalic_pipeline_destroy(p);
	}
}

Test(ops_batch_permutation, repetitions_stay_in_range)
{
	for (int no_fixed = 0; no_fixed < 2; no_fixed++) {
		dalic_pipeline_t *p = ops_batch_permutation_pipe(6, true, no_fixed);
		int hits[6] = {0};
		bool repeated = false;
		for (int it = 0; it < 50; it++) {
			int v[6], seen[6] = {0};
			ops_batch_permutation_values(tl_run(p, 0), 6, v);
			for (int i = 0; i < 6; i++) {
				cr_assert(v[i] >= 0 && v[i] < 6, "value %d", v[i]);
				if (no_fixed)
					cr_assert_neq(v[i], i);
				repeated |= seen[v[i]]++ > 0;
				hits[v[i]]++;
			}
		}
		cr_expect(repeated, "300 draws of 6 values repeat some");
		for (int k = 0; k < 6; k++)
			cr_expect(hits[k] > 20, "value %d drawn %d times", k, hits[k]);
		dalic_pipeline_destroy(p);
	}
}

/* Recorded from DALI 2.4 (batch 8, seed 1234): iterations 0 and 1. */
Test(ops_batch_permutation, dali_values_for_seed_1234)
{
	static const int want[2][4][8] = {
	    {{1, 5, 3, 2, 7, 6, 4, 0},
	     {1, 7, 4, 0, 6, 2, 3, 5},
	     {1, 6, 2, 6, 4, 0, 7, 0},
	     {1, 6, 1, 6, 5, 0, 7, 0}},
	    {{0, 6, 1, 4, 7, 3, 2, 5},
	     {4, 5, 6, 0, 7, 2, 3, 1},
	     {4, 4, 6, 1, 6, 2, 2, 0},
	     {4, 5, 6, 1, 6, 2, 1, 0}},
	};
	for (int mode = 0; mode < 4; mode++) {
		dalic_pipeline_t *p = ops_batch_permutation_pipe(8, mode >= 2, mode % 2);
		for (int it = 0; it < 2; it++) {
			int v[8];
			ops_batch_permutation_values(tl_run(p, 0), 8, v);
			for (int i = 0; i < 8; i++)
				cr_expect_eq(v[i], want[it][mode][i], "mode %d iteration %d sample %d",
					     mode, it, i);
		}
		dalic_pipeline_destroy(p);
	}
}

Test(ops_batch_permutation, batch_of_one_ignores_no_fixed_points)
{
	for (int rep = 0; rep < 2; rep++) {
		dalic_pipeline_t *p = ops_batch_permutation_pipe(1, rep, true);
		for (int it = 0; it < 3; it++) {
			int v;
			ops_batch_permutation_values(tl_run(p, 0), 1, &v);
			cr_expect_eq(v, 0);
		}
		dalic_pipeline_destroy(p);
	}
}
