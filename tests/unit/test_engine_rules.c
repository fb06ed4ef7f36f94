/* Executor rules that cut across operators: operators whose inputs are all empty are skipped
 * (conditional branches no sample took), and data borrowed by pass-through operators stays
 * valid while a later stage reads it. */
#include "tests/testlib.h"

#include "engine/graphdef.h"
#include "engine/pipeline.h"
#include "frontend/script.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

TestSuite(engine_rules, .timeout = 30);

Test(engine_rules, empty_branch_operators_are_skipped)
{
	/* the true branch never runs: reshape [4] -> [2, 2] then a 2-d transpose would fail on
	 * the 1-d input if the executor ran them on the empty batch */
	const char *path =
	    tl_write_temp("empty_branch", ".py",
	                  "from nvidia.dali import pipeline_def\nimport nvidia.dali.fn as fn\n"
	                  "import nvidia.dali.types as types\n"
	                  "@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=3,\n"
	                  "              enable_conditionals=True)\n"
	                  "def p():\n"
	                  "    x = fn.random.uniform(range=[0.0, 1.0], shape=[4])\n"
	                  "    never = fn.random.coin_flip(probability=0.0, dtype=types.BOOL)\n"
	                  "    if never:\n"
	                  "        y = fn.transpose(fn.reshape(x, shape=[2, 2]), perm=[1, 0])\n"
	                  "        y = fn.reshape(y, shape=[4])\n"
	                  "    else:\n"
	                  "        y = x + 1.0\n"
	                  "    return y\n"
	                  "pipe = p()\n");
	dalic_graphdef_t *def;
	int rc = dalic_script_load(path, NULL, &def);
	unlink(path);
	ASSERT_OK(rc, "dalic_script_load");
	dalic_pipeline_t *pipe;
	ASSERT_OK(dalic_pipeline_from_graphdef(def, &pipe));
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(pipe));
		const dalic_batch_t *b = dalic_pipeline_output(pipe, 0);
		cr_assert_eq(dalic_batch_num_samples(b), 4);
		for (int i = 0; i < 4; i++) {
			const float *v = dalic_batch_data(b, i);
			cr_expect(v[0] >= 1.0f && v[0] < 2.0f, "else branch: x + 1");
		}
	}
	dalic_pipeline_destroy(pipe);
}

Test(engine_rules, borrowed_samples_survive_until_a_later_stage_reads_them)
{
	/* reshape borrows its cpu input; the gpu stage reads the reshaped data through a
	 * transfer. With async stages the cpu stage runs ahead, so the borrowed input needs one
	 * buffer per slot or the gpu stage would read the next iteration's data. */
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 2;
	params.device_id = 0; /* devices emulated on this machine */
	params.prefetch_cpu = params.prefetch_gpu = 3;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	dalic_op_t *src, *rs, *neg;
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &src));
	ASSERT_OK(dalic_op_set_name(src, "in"));
	ASSERT_OK(dalic_pipeline_add_op(p, "reshape", NULL, &rs));
	ASSERT_OK(dalic_op_add_input(rs, "in", NULL));
	ASSERT_OK(dalic_op_set_ints(rs, "shape", 2, (const int64_t[]){2, 2}));
	ASSERT_OK(dalic_pipeline_add_op(p, "ArithmeticGenericOp", "gpu", &neg));
	ASSERT_OK(dalic_op_add_input(neg, dalic_op_output(rs, 0), "gpu"));
	ASSERT_OK(dalic_op_set_string(neg, "expression_desc", "minus(&0)"));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(neg, 0), NULL));
	const int iters = 40;
	for (int it = 0; it < iters + 3; it++) { /* run() keeps the prefetch queue full */
		int32_t data[8];
		for (int k = 0; k < 8; k++)
			data[k] = it * 100 + k;
		const int64_t shapes[2] = {4, 4};
		ASSERT_OK(
		    dalic_pipeline_feed_input(p, "in", DALIC_INT32, 1, 2, shapes, data, NULL));
	}
	for (int it = 0; it < iters; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		const int32_t *v = dalic_batch_data(b, 1);
		cr_expect_eq(v[3], -(it * 100 + 7), "iteration %d", it);
	}
	dalic_pipeline_destroy(p);
}
