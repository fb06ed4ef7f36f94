/* Graph build rules (docs/dali-behaviour.md §4) through the public API: names, devices, stage order,
 * argument inputs, pruning, seeds, errors that name the operator and argument. */
#include "tests/testlib.h"

#include "engine/graph.h"
#include "engine/pipeline.h"
#include "engine/rng.h"

#include <string.h>

TestSuite(graph_build, .timeout = 10);

static dalic_pipeline_t *graph_build_new_pipe(int device_id, int64_t seed)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = 4;
	p.device_id = device_id;
	p.seed = seed;
	dalic_pipeline_t *pipe;
	ASSERT_OK(dalic_pipeline_create(&p, &pipe));
	return pipe;
}

Test(graph_build, instance_names_follow_call_order)
{
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	dalic_op_t *a, *b;
	ASSERT_OK(dalic_pipeline_add_op(p, "fn.random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "CoinFlip", NULL, &b));
	cr_expect_str_eq(dalic_op_name(a), "__CoinFlip_0");
	cr_expect_str_eq(dalic_op_output(b, 0), "__CoinFlip_1");
	ASSERT_OK(dalic_op_set_name(b, "flip"));
	cr_expect_str_eq(dalic_op_output(b, 0), "flip");
	dalic_pipeline_destroy(p);
}

Test(graph_build, schema_errors_name_operator_and_argument)
{
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	dalic_op_t *a;
	EXPECT_STATUS(dalic_pipeline_add_op(p, "random.coin_toss", NULL, &a), DALIC_EUNKNOWN_OP);
	EXPECT_ERROR_HAS("random.coin_toss");
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	EXPECT_STATUS(dalic_op_set_float(a, "probabilty", 0.5), DALIC_EUNKNOWN_ARG);
	EXPECT_ERROR_HAS("probabilty");
	EXPECT_ERROR_HAS("__CoinFlip_0");
	EXPECT_STATUS(dalic_op_set_string(a, "probability", "high"), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("probability");
	EXPECT_STATUS(dalic_op_set_ints(a, "probability", 2, (const int64_t[]){1, 2}),
	              DALIC_EARG_TYPE);
	EXPECT_OK(dalic_op_set_int(a, "probability", 1), "ints convert to float");
	EXPECT_STATUS(dalic_pipeline_add_op(p, "random.coin_flip", "mixed", &a), DALIC_EINVAL);
	dalic_pipeline_destroy(p);
}

Test(graph_build, duplicate_names_and_unknown_nodes)
{
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	dalic_op_t *a, *b;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &b));
	ASSERT_OK(dalic_op_set_name(a, "x"));
	ASSERT_OK(dalic_op_set_name(b, "x"));
	ASSERT_OK(dalic_pipeline_add_output(p, "x", NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("Duplicate operator instance name: \"x\"");
	dalic_pipeline_destroy(p);

	p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_op_add_input(a, "nowhere", NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(a, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("\"nowhere\" requested as input to operator \"__CoinFlip_0\"");
	dalic_pipeline_destroy(p);

	p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	ASSERT_OK(dalic_pipeline_add_output(p, "ghost", NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("Requested output name 'ghost'");
	dalic_pipeline_destroy(p);
}

Test(graph_build, cpu_only_pipelines_refuse_gpu)
{
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	dalic_op_t *a;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", "gpu", &a));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(a, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("Cannot add a GPU operator");
	dalic_pipeline_destroy(p);

	p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(a, 0), "gpu"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("CPU-only pipeline");
	dalic_pipeline_destroy(p);
}

Test(graph_build, devices_transfers_and_stage_order)
{
	/* cpu coin -> consumer asks for it on gpu: automatic gpu device + inserted transfer */
	dalic_pipeline_t *p = graph_build_new_pipe(0, 1);
	dalic_op_t *a, *b;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &b));
	ASSERT_OK(dalic_op_add_input(b, dalic_op_output(a, 0), "gpu"));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(b, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_graph_t *g = dalic_pipeline_graph(p);
	dalic_node_t *copy = dalic_graph_find_node(g, "__Copy_CpuToGpu___CoinFlip_0");
	cr_assert(copy);
	cr_expect_eq(copy->stage, DALIC_STAGE_MIXED);
	dalic_node_t *nb = dalic_graph_find_node(g, "__CoinFlip_1");
	cr_expect_eq(nb->device, DALIC_DEV_GPU);
	cr_expect(nb->inputs[0]->gpu);
	cr_expect(dalic_graph_find_node(g, "__MakeContiguous_GpuToGpu___CoinFlip_1"));
	cr_expect_lt(copy->index, nb->index, "producers run first");
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(dalic_batch_device(dalic_pipeline_output(p, 0)), "gpu");
	dalic_pipeline_destroy(p);

	/* gpu data into a cpu operator: DALI's stage-order error */
	p = graph_build_new_pipe(0, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", "gpu", &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", "cpu", &b));
	ASSERT_OK(dalic_op_add_input(b, dalic_op_output(a, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(b, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("incompatible type: gpu");
	dalic_pipeline_destroy(p);
}

Test(graph_build, argument_inputs_must_be_cpu)
{
	dalic_pipeline_t *p = graph_build_new_pipe(0, 1);
	dalic_op_t *a, *b;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", "gpu", &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &b));
	ASSERT_OK(dalic_op_set_arg_input(b, "probability", dalic_op_output(a, 0)));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(b, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("Named arguments must be on CPU");
	dalic_pipeline_destroy(p);

	p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	EXPECT_STATUS(dalic_op_set_arg_input(a, "dtype", "x"), DALIC_EARG_TYPE,
	              "dtype is not a tensor argument");
	EXPECT_ERROR_HAS("should not be a 'DataNode'");
	EXPECT_OK(dalic_op_set_float(a, "probability", 0.5));
	EXPECT_STATUS(dalic_op_set_arg_input(a, "probability", "x"), DALIC_EGRAPH,
	              "an argument cannot be both a value and an input");
	dalic_pipeline_destroy(p);
}

Test(graph_build, pruning_and_preserve)
{
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 1);
	dalic_op_t *used, *unused, *kept;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &used));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &unused));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &kept));
	ASSERT_OK(dalic_op_set_bool(kept, "preserve", true));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(used, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_graph_t *g = dalic_pipeline_graph(p);
	cr_expect(dalic_graph_find_node(g, "__CoinFlip_0"));
	cr_expect_null(dalic_graph_find_node(g, "__CoinFlip_1"));
	cr_expect(dalic_graph_find_node(g, "__CoinFlip_2"));
	cr_expect_eq(g->num_nodes, 3, "2 coin flips + MakeContiguous");
	dalic_pipeline_destroy(p);
}

Test(graph_build, seeds_derive_from_pipeline_seed)
{
	uint32_t expect[1024]; /* DALI generates MAX_SEEDS = 1024 values */
	dalic_seed_seq_generate(42, expect, 1024);
	dalic_pipeline_t *p = graph_build_new_pipe(DALIC_CPU_ONLY_DEVICE_ID, 42);
	dalic_op_t *a, *b, *c;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &a));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &b));
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_op_set_int(c, "seed", 7));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(a, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(b, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_graph_t *g = dalic_pipeline_graph(p);
	cr_expect_eq(dalic_graph_find_node(g, "__CoinFlip_0")->seed, expect[0]);
	cr_expect_eq(dalic_graph_find_node(g, "__CoinFlip_1")->seed, expect[1]);
	cr_expect_eq(dalic_graph_find_node(g, "__CoinFlip_2")->seed, 7);
	dalic_pipeline_destroy(p);
}
