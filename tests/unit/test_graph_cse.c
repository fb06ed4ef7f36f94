/* Common-subgraph elimination (engine/graph_cse.c) through the public API: what folds, which
 * operator survives (DALI's: the first in its walk from the outputs), and that the folded
 * graph still runs its operators after their producers. */
#include "tests/testlib/script.h"

#include "engine/pipeline.h"
#include "tests/testlib.h"

#include <stdlib.h>

TestSuite(graph_cse, .timeout = 20);

/* `x[0]` twice: once for the `if` (defined first), once for the first output. DALI keeps the
 * second (its walk starts at the outputs), so the `if`'s split, defined before it, reads an
 * operator defined after it. */
static const char *const graph_cse_script =
    "from nvidia.dali import pipeline_def, fn, types\n"
    "@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=1,\n"
    "              enable_conditionals=True, exec_pipelined=False, exec_async=False)\n"
    "def pipe():\n"
    "    x = fn.external_source(name='x', dtype=types.INT32)\n"
    "    if x[0] > 2:\n"
    "        y = x + 10\n"
    "    else:\n"
    "        y = x - 10\n"
    "    z = x[0] * 2\n"
    "    return z, y\n"
    "p = pipe()\n";

static dalic_pipeline_t *graph_cse_build(void)
{
	dalic_graphdef_t *g = tl_script_load(graph_cse_script, NULL);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	return p;
}

/* Instance names of the built graph's operators of `schema`, space separated. */
static const char *graph_cse_names(const dalic_pipeline_t *p, const char *schema)
{
	static char buf[512];
	buf[0] = 0;
	for (int i = 0; i < dalic_pipeline_graph_size(p); i++) {
		dalic_graph_op_t op;
		ASSERT_OK(dalic_pipeline_graph_op(p, i, &op));
		if (!strcmp(op.schema, schema))
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? " " : "",
			         op.name);
	}
	return buf;
}

static void graph_cse_run_and_check(dalic_pipeline_t *p)
{
	const int64_t shapes[4] = {1, 1, 1, 1};
	const int32_t x[4] = {1, 3, 5, 0};
	tl_feed(p, "x", DALIC_INT32, 1, 4, shapes, x, NULL);
	const dalic_batch_t *z = tl_run(p, 0);
	const double want_z[4] = {2, 6, 10, 0};
	for (int i = 0; i < 4; i++)
		tl_expect_values(z, i, 1, &want_z[i]);
	const dalic_batch_t *y = dalic_pipeline_output(p, 1);
	cr_assert_not_null(y);
	const double want_y[4] = {-9, 13, 15, -10};
	for (int i = 0; i < 4; i++)
		tl_expect_values(y, i, 1, &want_y[i]);
}

Test(graph_cse, the_survivor_is_the_first_from_the_outputs_and_runs_before_its_readers)
{
	dalic_pipeline_t *p = graph_cse_build();
	/* ___TensorSubscript_0 (the `if`'s) folded into the output's, as in DALI 2.4 */
	cr_expect_str_eq(graph_cse_names(p, "_TensorSubscript"), "___TensorSubscript_6");
	/* every operator comes after the producers of its inputs */
	for (int i = 0; i < dalic_pipeline_graph_size(p); i++) {
		dalic_graph_op_t op;
		ASSERT_OK(dalic_pipeline_graph_op(p, i, &op));
		for (int k = 0; k < op.num_inputs; k++) {
			dalic_graph_input_t in;
			ASSERT_OK(dalic_pipeline_graph_input(p, i, k, &in));
			cr_expect_lt(in.producer, i, "%s reads %s from operator %d", op.name, in.node,
			             in.producer);
		}
	}
	graph_cse_run_and_check(p);
	dalic_pipeline_destroy(p);
}

Test(graph_cse, dali_enable_cse_0_keeps_both)
{
	setenv("DALI_ENABLE_CSE", "0", 1);
	dalic_pipeline_t *p = graph_cse_build();
	cr_expect_str_eq(graph_cse_names(p, "_TensorSubscript"),
	                 "___TensorSubscript_0 ___TensorSubscript_6");
	graph_cse_run_and_check(p);
	dalic_pipeline_destroy(p);
}

Test(graph_cse, random_operators_fold_only_with_the_same_seed)
{
	dalic_graphdef_t *g = tl_script_load(
	    "from nvidia.dali import pipeline_def, fn\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)\n"
	    "def pipe():\n"
	    "    return (fn.random.uniform(seed=5), fn.random.uniform(seed=5),\n"
	    "            fn.random.uniform(), fn.random.uniform())\n"
	    "p = pipe()\n",
	    NULL);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	cr_expect_str_eq(graph_cse_names(p, "random__Uniform"), "__Uniform_0 __Uniform_2 __Uniform_3");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *a = dalic_pipeline_output(p, 0), *b = dalic_pipeline_output(p, 1);
	const dalic_batch_t *c = dalic_pipeline_output(p, 2), *d = dalic_pipeline_output(p, 3);
	cr_assert(a && b && c && d);
	cr_expect_eq(a, b, "both outputs read the one folded operator");
	cr_expect_neq(tl_at(c, 0, 0), tl_at(d, 0, 0), "different seeds, different values");
	dalic_pipeline_destroy(p);
}
