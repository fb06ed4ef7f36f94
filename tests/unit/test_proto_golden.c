/*
 * Golden files encoded by hand from the reference field tables (tests/data/proto/
 * make_golden.py, no protobuf library involved): coin_cast.pb is what DALI's serialize()
 * writes for a coin_flip + cast pipeline; legacy.pb uses the legacy spellings (external_inputs,
 * `_ExternalSource`, the `CoinFlip` alias, no instance names, C++-style output names).
 * Both are parsed and compared field by field; the writer's bytes for the same pipeline are
 * compared with the golden ones message by message (argument order is not meaningful).
 */
#include "frontend/proto/proto.h"
#include "tests/testlib/proto.h"

#include <stdlib.h>
#include <string.h>

TestSuite(proto_golden, .timeout = 20);

#define GOLDEN "tests/data/proto/coin_cast.pb"
#define LEGACY "tests/data/proto/legacy.pb"

Test(proto_golden, parses_to_the_api_built_definition)
{
	dalic_graphdef_t *g;
	ASSERT_OK(dalic_proto_load_file(GOLDEN, &g));
	dalic_graphdef_t *want = tl_proto_coin_cast();
	tl_expect_same_def(want, g);
	/* and the values the reference tables give, spelled out */
	cr_expect_eq(g->params.batch_size, 4);
	cr_expect_eq(g->params.num_threads, 2);
	cr_expect_eq(g->params.device_id, DALIC_CPU_ONLY_DEVICE_ID);
	cr_expect_eq(g->params.seed, 42);
	cr_expect(g->params.exec_pipelined && g->params.exec_async && !g->params.separated_queues);
	cr_assert_eq(g->num_ops, 2);
	cr_expect_str_eq(g->ops[0]->schema->name, "random__CoinFlip");
	cr_expect_str_eq(g->ops[0]->inst, "__CoinFlip_0");
	cr_expect(!g->ops[0]->name_given);
	cr_expect_float_eq(dalic_value_get_f(dalic_graphdef_op_arg(g->ops[0], "probability"), 0),
	                   0.25, 0);
	const dalic_value_t *shape = dalic_graphdef_op_arg(g->ops[0], "shape");
	cr_assert(shape && shape->is_list && shape->n == 2);
	cr_expect(shape->i[0] == 2 && shape->i[1] == 3);
	cr_expect_str_eq(g->ops[1]->inst, "to_float");
	cr_expect(g->ops[1]->name_given);
	cr_expect_eq(dalic_value_get_i(dalic_graphdef_op_arg(g->ops[1], "dtype"), 0), DALIC_FLOAT);
	cr_expect_str_eq(g->ops[1]->inputs[0].name, "__CoinFlip_0");
	cr_expect_eq(g->outputs[1].dtype, DALIC_FLOAT);
	cr_expect_eq(g->outputs[1].ndim, 2);
	cr_expect_eq(g->outputs[0].dtype, DALIC_NO_TYPE);
	cr_expect_str_eq(g->source, GOLDEN);
	dalic_graphdef_free(g);
	dalic_graphdef_free(want);
}

static void proto_golden_expect_same_io(const char *what, const DaliProto__InputOutput *a,
                                        const DaliProto__InputOutput *b)
{
	cr_expect_str_eq(a->name, b->name, "%s name", what);
	cr_expect_str_eq(a->device, b->device, "%s device", what);
	cr_expect_eq(a->is_argument_input, b->is_argument_input, "%s is_argument_input", what);
	cr_expect((!a->arg_name && !b->arg_name) ||
	              (a->arg_name && b->arg_name && !strcmp(a->arg_name, b->arg_name)),
	          "%s arg_name", what);
	cr_expect_eq(a->has_dtype, b->has_dtype, "%s has_dtype", what);
	cr_expect_eq(a->dtype, b->dtype, "%s dtype", what);
	cr_expect_eq(a->has_ndim, b->has_ndim, "%s has_ndim", what);
	cr_expect_eq(a->ndim, b->ndim, "%s ndim", what);
}

static void proto_golden_expect_same_value(const char *op, const DaliProto__Argument *a,
                                           const DaliProto__Argument *b)
{
	cr_expect_str_eq(a->type, b->type, "%s.%s type", op, a->name);
	cr_expect_eq(a->is_vector, b->is_vector, "%s.%s is_vector", op, a->name);
	cr_assert_eq(a->n_ints, b->n_ints, "%s.%s ints", op, a->name);
	cr_assert_eq(a->n_floats, b->n_floats, "%s.%s floats", op, a->name);
	cr_assert_eq(a->n_bools, b->n_bools, "%s.%s bools", op, a->name);
	cr_assert_eq(a->n_strings, b->n_strings, "%s.%s strings", op, a->name);
	for (size_t i = 0; i < a->n_ints; i++)
		cr_expect_eq(a->ints[i], b->ints[i]);
	for (size_t i = 0; i < a->n_floats; i++)
		cr_expect_eq(a->floats[i], b->floats[i]);
	for (size_t i = 0; i < a->n_bools; i++)
		cr_expect_eq(!!a->bools[i], !!b->bools[i], "%s.%s value", op, a->name);
	for (size_t i = 0; i < a->n_strings; i++)
		cr_expect_str_eq(a->strings[i], b->strings[i]);
	cr_assert_eq(a->n_extra_args, b->n_extra_args, "%s.%s elements", op, a->name);
	for (size_t i = 0; i < a->n_extra_args; i++) {
		cr_expect_str_eq(a->extra_args[i]->name, b->extra_args[i]->name);
		proto_golden_expect_same_value(op, a->extra_args[i], b->extra_args[i]);
	}
}

static void proto_golden_expect_same_op(const DaliProto__OpDef *a, const DaliProto__OpDef *b)
{
	cr_expect_str_eq(a->name, b->name);
	cr_expect_str_eq(a->inst_name, b->inst_name);
	cr_expect_eq(a->has_logical_id, b->has_logical_id);
	cr_expect_eq(a->logical_id, b->logical_id);
	cr_assert_eq(a->n_input, b->n_input);
	for (size_t i = 0; i < a->n_input; i++)
		proto_golden_expect_same_io("input", a->input[i], b->input[i]);
	cr_assert_eq(a->n_output, b->n_output);
	for (size_t i = 0; i < a->n_output; i++)
		proto_golden_expect_same_io("output", a->output[i], b->output[i]);
	cr_assert_eq(a->n_args, b->n_args, "%s: %zu args written, %zu in the golden file",
	             a->inst_name, a->n_args, b->n_args);
	for (size_t i = 0; i < a->n_args; i++) {
		const DaliProto__Argument *match = NULL;
		for (size_t k = 0; k < b->n_args; k++)
			if (!strcmp(a->args[i]->name, b->args[k]->name))
				match = b->args[k];
		cr_assert(match, "%s: argument %s is not in the golden file", a->inst_name,
		          a->args[i]->name);
		proto_golden_expect_same_value(a->inst_name, a->args[i], match);
	}
}

Test(proto_golden, writer_matches_the_golden_message)
{
	size_t glen, wlen;
	uint8_t *gbuf = tl_read_file(GOLDEN, &glen), *wbuf;
	dalic_graphdef_t *g = tl_proto_coin_cast();
	ASSERT_OK(dalic_proto_write(g, &wbuf, &wlen));
	DaliProto__PipelineDef *want = dali_proto__pipeline_def__unpack(NULL, glen, gbuf);
	DaliProto__PipelineDef *got = dali_proto__pipeline_def__unpack(NULL, wlen, wbuf);
	cr_assert(want && got);
#define FIELD(f)                                                                                   \
	cr_expect_eq(got->f, want->f, #f ": %lld written, %lld golden", (long long)got->f,         \
	             (long long)want->f)
	FIELD(has_num_threads);
	FIELD(num_threads);
	FIELD(batch_size);
	FIELD(has__unused_use_async);
	FIELD(has__unused_pipeline);
	FIELD(n_external_inputs);
	FIELD(has_device_id);
	FIELD(device_id);
	FIELD(has_seed);
	FIELD(seed);
	FIELD(has_enable_checkpointing);
	FIELD(enable_checkpointing);
	FIELD(has_executor_type);
	FIELD(executor_type);
	FIELD(has_executor_flags);
	FIELD(executor_flags);
	FIELD(has_prefetch_queue_depth_cpu);
	FIELD(prefetch_queue_depth_cpu);
	FIELD(has_prefetch_queue_depth_gpu);
	FIELD(prefetch_queue_depth_gpu);
	FIELD(has_bytes_per_sample_hint);
	FIELD(bytes_per_sample_hint);
#undef FIELD
	cr_assert_eq(got->n_op, want->n_op);
	for (size_t i = 0; i < got->n_op; i++)
		proto_golden_expect_same_op(got->op[i], want->op[i]);
	cr_assert_eq(got->n_pipe_outputs, want->n_pipe_outputs);
	for (size_t i = 0; i < got->n_pipe_outputs; i++)
		proto_golden_expect_same_io("pipe_output", got->pipe_outputs[i],
		                            want->pipe_outputs[i]);
	/* with one argument order fixed the bytes are the same size: no stray fields */
	cr_expect_eq(wlen, glen, "%zu bytes written, golden file has %zu", wlen, glen);
	dali_proto__pipeline_def__free_unpacked(want, NULL);
	dali_proto__pipeline_def__free_unpacked(got, NULL);
	free(gbuf);
	free(wbuf);
	dalic_graphdef_free(g);
}

Test(proto_golden, legacy_names_load)
{
	dalic_graphdef_t *g;
	ASSERT_OK(dalic_proto_load_file(LEGACY, &g));
	cr_expect_eq(g->params.batch_size, 8);
	cr_expect_eq(g->params.num_threads, 4, "absent: DALI's default");
	cr_expect_eq(g->params.device_id, DALIC_CPU_ONLY_DEVICE_ID, "negative device_id: unset");
	cr_expect_eq(g->params.seed, -1);
	cr_expect_eq(g->params.prefetch_cpu, 3);
	cr_expect_eq(g->params.prefetch_gpu, 3, "one depth given: used for both");
	cr_assert_eq(g->num_ops, 4);
	/* external_inputs come first, as ExternalSource ops named after the input */
	cr_expect_str_eq(g->ops[0]->schema->name, "ExternalSource");
	cr_expect_str_eq(g->ops[0]->inst, "ext_data");
	cr_expect(g->ops[0]->name_given);
	cr_expect_str_eq(g->ops[0]->device, "cpu");
	/* no inst_name: C++'s "__<Schema>_<logical id>", ids counted from the external input */
	cr_expect_str_eq(g->ops[1]->schema->name, "Cast");
	cr_expect_str_eq(g->ops[1]->inst, "__Cast_1");
	cr_expect_str_eq(g->ops[1]->inputs[0].name, "ext_data");
	cr_expect_str_eq(g->ops[2]->schema->name, "random__CoinFlip", "alias CoinFlip");
	cr_expect_str_eq(g->ops[2]->inst, "__random__CoinFlip_2");
	cr_expect_str_eq(g->ops[3]->schema->name, "ExternalSource", "legacy _ExternalSource");
	cr_expect_str_eq(g->ops[3]->inst, "src");
	for (int i = 0; i < 4; i++)
		cr_expect_eq(g->ops[i]->logical_id, -1, "op %d: logical id = call-order id", i);
	/* C++-style output names map onto dalic's derived names */
	cr_assert_eq(g->num_outputs, 3);
	cr_expect_str_eq(g->outputs[0].name, "__Cast_1");
	cr_expect_str_eq(g->outputs[1].name, "__random__CoinFlip_2");
	cr_expect_str_eq(g->outputs[2].name, "src");
	dalic_graphdef_free(g);
}

Test(proto_golden, sniff_tells_pipelines_from_other_bytes)
{
	size_t len;
	uint8_t *buf = tl_read_file(GOLDEN, &len);
	cr_expect(dalic_proto_sniff(buf, len));
	cr_expect(!dalic_proto_sniff(buf, len - 3), "truncated");
	cr_expect(!dalic_proto_sniff(buf, 0), "empty: batch_size is required");
	const char script[] = "from nvidia.dali import pipeline_def\n";
	cr_expect(!dalic_proto_sniff((const uint8_t *)script, sizeof script - 1));
	free(buf);
}
