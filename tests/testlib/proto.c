/* Shared helpers of the protobuf tests (see tests/testlib/proto.h). */
#include "tests/testlib/proto.h"

#include "frontend/proto/proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dalic_graphdef_t *tl_proto_coin_cast(void)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = 4;
	p.num_threads = 2;
	p.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	p.seed = 42;
	dalic_graphdef_t *g = dalic_graphdef_new(&p);
	cr_assert(g);
	dalic_opdef_t *coin, *cast;
	dalic_value_t v;
	ASSERT_OK(dalic_graphdef_add_op(g, "random.coin_flip", "cpu", &coin));
	ASSERT_OK(dalic_value_float(&v, 0.25));
	ASSERT_OK(dalic_graphdef_op_set_arg(coin, "probability", &v));
	dalic_value_free(&v);
	int64_t shape[] = {2, 3};
	ASSERT_OK(dalic_value_list(&v, DALIC_V_INT, 2, shape));
	ASSERT_OK(dalic_graphdef_op_set_arg(coin, "shape", &v));
	dalic_value_free(&v);
	ASSERT_OK(dalic_graphdef_add_op(g, "cast", "cpu", &cast));
	ASSERT_OK(dalic_graphdef_op_set_name(cast, "to_float"));
	ASSERT_OK(dalic_graphdef_op_add_input(cast, coin->outputs[0], "cpu"));
	ASSERT_OK(dalic_value_int(&v, DALIC_FLOAT));
	ASSERT_OK(dalic_graphdef_op_set_arg(cast, "dtype", &v));
	dalic_value_free(&v);
	ASSERT_OK(dalic_graphdef_add_output(g, coin->outputs[0], "cpu"));
	ASSERT_OK(dalic_graphdef_add_output(g, "to_float", "cpu"));
	ASSERT_OK(dalic_graphdef_set_output_desc(g, 1, DALIC_FLOAT, 2, NULL));
	return g;
}

static bool tl_str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

#define TL_S(x) ((x) ? (x) : "(null)")

static void tl_expect_same_io(const char *what, int i, const dalic_io_t *a, const dalic_io_t *b)
{
	cr_expect(tl_str_same(a->name, b->name), "%s %d name: %s vs %s", what, i, TL_S(a->name),
	          TL_S(b->name));
	cr_expect(tl_str_same(a->device, b->device), "%s %d device: %s vs %s", what, i,
	          TL_S(a->device), TL_S(b->device));
	cr_expect_eq(a->is_arg, b->is_arg, "%s %d is_arg", what, i);
	cr_expect(tl_str_same(a->arg_name, b->arg_name), "%s %d arg_name: %s vs %s", what, i,
	          TL_S(a->arg_name), TL_S(b->arg_name));
	cr_expect_eq(a->dtype, b->dtype, "%s %d dtype: %d vs %d", what, i, a->dtype, b->dtype);
	cr_expect_eq(a->ndim, b->ndim, "%s %d ndim: %d vs %d", what, i, a->ndim, b->ndim);
	cr_expect(tl_str_same(a->layout, b->layout), "%s %d layout: %s vs %s", what, i,
	          TL_S(a->layout), TL_S(b->layout));
}

static void tl_expect_same_op(const dalic_opdef_t *a, const dalic_opdef_t *b)
{
	const char *n = a->inst;
	cr_expect_eq(a->schema, b->schema, "%s: schema %s vs %s", n, a->schema->name,
	             b->schema->name);
	cr_expect_str_eq(a->inst, b->inst);
	cr_expect(tl_str_same(a->device, b->device), "%s device: %s vs %s", n, TL_S(a->device),
	          TL_S(b->device));
	cr_expect_eq(a->id, b->id, "%s id: %d vs %d", n, a->id, b->id);
	cr_expect_eq(a->logical_id, b->logical_id, "%s logical_id: %d vs %d", n, a->logical_id,
	             b->logical_id);
	cr_expect_eq(a->name_given, b->name_given, "%s name_given", n);
	cr_assert_eq(a->num_inputs, b->num_inputs, "%s inputs: %d vs %d", n, a->num_inputs,
	             b->num_inputs);
	cr_expect_eq(a->num_regular_inputs, b->num_regular_inputs, "%s regular inputs", n);
	for (int i = 0; i < a->num_inputs; i++)
		tl_expect_same_io(n, i, &a->inputs[i], &b->inputs[i]);
	cr_assert_eq(a->num_args, b->num_args, "%s args: %d vs %d", n, a->num_args, b->num_args);
	for (int i = 0; i < a->num_args; i++) {
		const dalic_value_t *vb = dalic_graphdef_op_arg(b, a->args[i].name);
		char fa[256], fb[256] = "(missing)";
		dalic_value_format(&a->args[i].value, fa, sizeof fa);
		if (vb)
			dalic_value_format(vb, fb, sizeof fb);
		cr_expect(vb && dalic_value_equal(&a->args[i].value, vb), "%s arg %s: %s vs %s", n,
		          a->args[i].name, fa, fb);
	}
	cr_assert_eq(a->num_outputs, b->num_outputs, "%s outputs", n);
	for (int i = 0; i < a->num_outputs; i++)
		cr_expect_str_eq(a->outputs[i], b->outputs[i]);
}

void tl_expect_same_def(const dalic_graphdef_t *a, const dalic_graphdef_t *b)
{
	const dalic_pipeline_params_t *p = &a->params, *q = &b->params;
	cr_expect_eq(p->batch_size, q->batch_size);
	cr_expect_eq(p->num_threads, q->num_threads);
	cr_expect_eq(p->device_id, q->device_id);
	cr_expect_eq(p->seed, q->seed, "seed %lld vs %lld", (long long)p->seed, (long long)q->seed);
	cr_expect_eq(p->exec_pipelined, q->exec_pipelined);
	cr_expect_eq(p->exec_async, q->exec_async);
	cr_expect_eq(p->separated_queues, q->separated_queues);
	cr_expect_eq(p->prefetch_cpu, q->prefetch_cpu);
	cr_expect_eq(p->prefetch_gpu, q->prefetch_gpu);
	cr_expect_eq(p->bytes_per_sample, q->bytes_per_sample);
	cr_expect_eq(p->set_affinity, q->set_affinity);
	cr_expect_eq(p->enable_memory_stats, q->enable_memory_stats);
	cr_expect_eq(p->output_dtype, q->output_dtype);
	cr_expect_eq(p->output_ndim, q->output_ndim);
	cr_assert_eq(a->num_ops, b->num_ops, "ops: %d vs %d", a->num_ops, b->num_ops);
	for (int i = 0; i < a->num_ops; i++)
		tl_expect_same_op(a->ops[i], b->ops[i]);
	cr_assert_eq(a->num_outputs, b->num_outputs, "outputs: %d vs %d", a->num_outputs,
	             b->num_outputs);
	for (int i = 0; i < a->num_outputs; i++)
		tl_expect_same_io("output", i, &a->outputs[i], &b->outputs[i]);
	cr_expect_eq(a->next_id, b->next_id);
	cr_expect_eq(a->debug, b->debug);
}

int tl_proto_edit_and_read(const dalic_graphdef_t *g, void (*edit)(DaliProto__PipelineDef *),
                           dalic_graphdef_t **out)
{
	uint8_t *buf;
	size_t len;
	ASSERT_OK(dalic_proto_write(g, &buf, &len));
	DaliProto__PipelineDef *m = dali_proto__pipeline_def__unpack(NULL, len, buf);
	cr_assert(m);
	edit(m);
	size_t n = dali_proto__pipeline_def__get_packed_size(m);
	uint8_t *edited = malloc(n + 1);
	dali_proto__pipeline_def__pack(m, edited);
	dali_proto__pipeline_def__free_unpacked(m, NULL);
	int rc = dalic_proto_read(edited, n, out);
	free(edited);
	free(buf);
	return rc;
}

DaliProto__Argument *tl_proto_arg(DaliProto__PipelineDef *m, size_t op, const char *name)
{
	cr_assert_lt(op, m->n_op);
	for (size_t i = 0; i < m->op[op]->n_args; i++)
		if (!strcmp(m->op[op]->args[i]->name, name))
			return m->op[op]->args[i];
	cr_assert_fail("op %zu has no argument %s", op, name);
	return NULL;
}

void tl_proto_set_str(char **field, const char *s)
{
	free(*field);
	*field = strdup(s);
}
