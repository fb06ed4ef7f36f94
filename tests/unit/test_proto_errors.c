/*
 * Malformed serialized pipelines give the right status and a message that names what is
 * wrong (operator instance, argument, data node, byte offset) — never a crash. Each case
 * starts from a valid file and breaks one thing, through the protobuf-c structures or by
 * hand-made bytes where protobuf-c could not write the damage.
 */
#include "frontend/proto/proto.h"
#include "tests/testlib/proto.h"

#include <stdlib.h>
#include <string.h>

TestSuite(proto_errors, .timeout = 20);

static void proto_errors_expect_error(void (*edit)(DaliProto__PipelineDef *), int status,
                                      const char *a, const char *b)
{
	dalic_graphdef_t *g = tl_proto_coin_cast(), *out = NULL;
	int rc = tl_proto_edit_and_read(g, edit, &out);
	EXPECT_STATUS(rc, status);
	EXPECT_ERROR_HAS(a);
	if (b)
		EXPECT_ERROR_HAS(b);
	if (!rc)
		dalic_graphdef_free(out);
	dalic_graphdef_free(g);
}

static void proto_errors_unknown_op(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->op[1]->name, "NoSuchOperator");
}

Test(proto_errors, unknown_operator)
{
	proto_errors_expect_error(proto_errors_unknown_op, DALIC_EUNKNOWN_OP, "NoSuchOperator",
	                          "to_float");
}

static void proto_errors_unknown_arg(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&tl_proto_arg(m, 1, "dtype")->name, "frobnicate");
}

Test(proto_errors, unknown_argument)
{
	proto_errors_expect_error(proto_errors_unknown_arg, DALIC_EUNKNOWN_ARG, "frobnicate",
	                          "to_float");
}

static void proto_errors_string_for_float(DaliProto__PipelineDef *m)
{
	DaliProto__Argument *a = tl_proto_arg(m, 0, "probability");
	tl_proto_set_str(&a->type, "string");
	a->n_floats = 0;
	a->n_strings = 1;
	a->strings = calloc(1, sizeof *a->strings);
	a->strings[0] = strdup("half");
}

Test(proto_errors, wrong_argument_type)
{
	proto_errors_expect_error(proto_errors_string_for_float, DALIC_EARG_TYPE, "probability",
	                          "__CoinFlip_0");
}

static void proto_errors_list_for_scalar(DaliProto__PipelineDef *m)
{
	/* shape's element encoding under the name of a scalar argument */
	DaliProto__Argument *a = tl_proto_arg(m, 1, "dtype");
	DaliProto__Argument *shape = tl_proto_arg(m, 0, "shape");
	a->is_vector = true;
	a->n_ints = 0;
	a->extra_args = shape->extra_args;
	a->n_extra_args = shape->n_extra_args;
	shape->extra_args = NULL;
	shape->n_extra_args = 0;
}

Test(proto_errors, list_given_for_a_scalar)
{
	proto_errors_expect_error(proto_errors_list_for_scalar, DALIC_EARG_TYPE, "dtype",
	                          "got a list");
}

static void proto_errors_bad_type_tag(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&tl_proto_arg(m, 0, "probability")->type, "double");
}

Test(proto_errors, invalid_type_tag)
{
	proto_errors_expect_error(proto_errors_bad_type_tag, DALIC_EPARSE,
	                          "Invalid argument \"type\"", "probability");
}

static void proto_errors_scalar_without_value(DaliProto__PipelineDef *m)
{
	tl_proto_arg(m, 0, "probability")->n_floats = 0;
}

Test(proto_errors, proto_errors_scalar_without_value)
{
	proto_errors_expect_error(proto_errors_scalar_without_value, DALIC_EPARSE, "probability",
	                          "exactly one value");
}

static void proto_errors_mixed_list(DaliProto__PipelineDef *m)
{
	DaliProto__Argument *e = tl_proto_arg(m, 0, "shape")->extra_args[1];
	tl_proto_set_str(&e->type, "float");
	e->n_ints = 0;
	e->n_floats = 1;
	e->floats = calloc(1, sizeof *e->floats);
}

Test(proto_errors, list_element_of_another_type)
{
	proto_errors_expect_error(proto_errors_mixed_list, DALIC_EPARSE, "shape", "list element 1");
}

static void proto_errors_dangling(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->op[1]->input[0]->name, "nowhere");
}

Test(proto_errors, dangling_input)
{
	proto_errors_expect_error(proto_errors_dangling, DALIC_EGRAPH, "\"nowhere\"", "to_float");
}

static void proto_errors_dangling_output(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->pipe_outputs[1]->name, "not_there");
}

Test(proto_errors, unknown_pipeline_output)
{
	proto_errors_expect_error(proto_errors_dangling_output, DALIC_EGRAPH, "not_there",
	                          "not known");
}

static void proto_errors_consumer_first(DaliProto__PipelineDef *m)
{
	DaliProto__OpDef *t = m->op[0];
	m->op[0] = m->op[1];
	m->op[1] = t;
}

Test(proto_errors, consumer_before_producer)
{
	proto_errors_expect_error(proto_errors_consumer_first, DALIC_EGRAPH, "__CoinFlip_0",
	                          "to_float");
}

static void proto_errors_duplicate_name(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->op[1]->inst_name, "__CoinFlip_0");
}

Test(proto_errors, duplicate_instance_name)
{
	proto_errors_expect_error(proto_errors_duplicate_name, DALIC_EGRAPH,
	                          "Duplicate operator instance name", "__CoinFlip_0");
}

static void proto_errors_duplicate_arg(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&tl_proto_arg(m, 0, "shape")->name, "probability");
}

Test(proto_errors, argument_given_twice)
{
	proto_errors_expect_error(proto_errors_duplicate_arg, DALIC_EPARSE, "probability",
	                          "given twice");
}

static void proto_errors_extra_output(DaliProto__PipelineDef *m)
{
	DaliProto__OpDef *op = m->op[0];
	op->output = realloc(op->output, 2 * sizeof *op->output);
	op->output[1] = calloc(1, sizeof **op->output);
	dali_proto__input_output__init(op->output[1]);
	op->output[1]->name = strdup("second");
	op->output[1]->device = strdup("cpu");
	op->n_output = 2;
}

Test(proto_errors, output_count_differs_from_schema)
{
	proto_errors_expect_error(proto_errors_extra_output, DALIC_EGRAPH, "__CoinFlip_0",
	                          "2 outputs");
}

static void proto_errors_gpu_output_of_cpu_op(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->op[0]->output[0]->device, "gpu");
}

Test(proto_errors, output_on_the_wrong_device)
{
	proto_errors_expect_error(proto_errors_gpu_output_of_cpu_op, DALIC_EPARSE, "__CoinFlip_0",
	                          "gpu");
}

static void proto_errors_bad_input_device(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&m->op[1]->input[0]->device, "tpu");
}

Test(proto_errors, invalid_input_device)
{
	proto_errors_expect_error(proto_errors_bad_input_device, DALIC_EPARSE, "tpu", "to_float");
}

static void proto_errors_bad_op_device(DaliProto__PipelineDef *m)
{
	tl_proto_set_str(&tl_proto_arg(m, 1, "device")->strings[0], "mixed");
}

Test(proto_errors, device_the_operator_lacks)
{
	proto_errors_expect_error(proto_errors_bad_op_device, DALIC_EINVAL, "mixed", "Cast");
}

static void proto_errors_gpu_argument_input(DaliProto__PipelineDef *m)
{
	/* cast's input becomes the coin's probability argument input, on gpu */
	DaliProto__InputOutput *in = m->op[1]->input[0];
	in->is_argument_input = true;
	in->arg_name = strdup("probability");
	tl_proto_set_str(&m->op[1]->name, "random__CoinFlip");
	tl_proto_set_str(&in->device, "gpu");
	for (size_t i = 0; i < m->op[1]->n_args; i++)
		if (!strcmp(m->op[1]->args[i]->name, "dtype"))
			m->op[1]->args[i]->ints[0] = DALIC_FLOAT; /* still valid for CoinFlip */
}

Test(proto_errors, argument_input_on_gpu)
{
	proto_errors_expect_error(proto_errors_gpu_argument_input, DALIC_EGRAPH, "probability",
	                          "must be CPU");
}

static void proto_errors_argument_input_unnamed(DaliProto__PipelineDef *m)
{
	m->op[1]->input[0]->is_argument_input = true;
}

Test(proto_errors, argument_input_without_name)
{
	proto_errors_expect_error(proto_errors_argument_input_unnamed, DALIC_EPARSE, "arg_name",
	                          "to_float");
}

static void proto_errors_mixed_logical_id(DaliProto__PipelineDef *m)
{
	m->op[1]->logical_id = m->op[0]->logical_id;
}

Test(proto_errors, logical_id_shared_by_different_operators)
{
	proto_errors_expect_error(proto_errors_mixed_logical_id, DALIC_EGRAPH, "logical id",
	                          "to_float");
}

static void proto_errors_bad_output_ndim(DaliProto__PipelineDef *m)
{
	m->pipe_outputs[0]->ndim = -7;
}

Test(proto_errors, invalid_output_ndim)
{
	proto_errors_expect_error(proto_errors_bad_output_ndim, DALIC_EPARSE, "ndim",
	                          "__CoinFlip_0");
}

static void proto_errors_bad_output_dtype(DaliProto__PipelineDef *m)
{
	m->pipe_outputs[1]->dtype = 999;
}

Test(proto_errors, invalid_output_dtype)
{
	proto_errors_expect_error(proto_errors_bad_output_dtype, DALIC_EPARSE, "999", "to_float");
}

static uint8_t *proto_errors_coin_cast_bytes(size_t *len)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	uint8_t *buf;
	ASSERT_OK(dalic_proto_write(g, &buf, len));
	dalic_graphdef_free(g);
	return buf;
}

Test(proto_errors, truncated_inside_an_operator)
{
	size_t len;
	uint8_t *buf = proto_errors_coin_cast_bytes(&len);
	dalic_graphdef_t *g;
	/* bytes 0..3 are num_threads and batch_size; op[0] starts at byte 4 */
	EXPECT_STATUS(dalic_proto_read(buf, 40, &g), DALIC_EPARSE);
	EXPECT_ERROR_HAS("Error parsing serialized pipeline");
	EXPECT_ERROR_HAS("op[0]");
	EXPECT_ERROR_HAS("runs past the end");
	free(buf);
}

Test(proto_errors, every_truncation_fails_cleanly_or_loads)
{
	size_t len;
	uint8_t *buf = proto_errors_coin_cast_bytes(&len);
	int failures = 0;
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n + 1); /* exact size, so ASan sees any overread */
		memcpy(copy, buf, n);
		dalic_graphdef_t *g = NULL;
		int rc = dalic_proto_read(copy, n, &g);
		if (rc) {
			failures++;
			cr_expect(*dalic_last_error(), "cut at %zu: no message", n);
		} else {
			/* cut at a field boundary after the outputs: parameters fall back */
			dalic_graphdef_free(g);
		}
		free(copy);
	}
	cr_expect_gt(failures, (int)len / 2);
	free(buf);
}

Test(proto_errors, missing_required_field)
{
	/* PipelineDef{batch_size=1, op{name="Cast" args{name="dtype" type="int64" ints=9}}}:
	 * the Argument lacks is_vector, which protobuf-c never omits when writing */
	static const uint8_t bytes[] = {0x10, 0x01, 0x2a, 0x1b, 0x0a, 0x04, 'C', 'a',
	                                's',  't',  0x22, 0x10, 0x0a, 0x05, 'd', 't',
	                                'y',  'p',  'e',  0x12, 0x05, 'i',  'n', 't',
	                                '6',  '4',  0x20, 0x09, 0x2a, 0x01, 'x'};
	dalic_graphdef_t *g;
	int rc = dalic_proto_read(bytes, sizeof bytes, &g);
	EXPECT_STATUS(rc, DALIC_EPARSE);
	EXPECT_ERROR_HAS("op[0].args[0]");
	EXPECT_ERROR_HAS("'is_vector'");
}

Test(proto_errors, batch_size_missing)
{
	static const uint8_t bytes[] = {0x08, 0x04}; /* num_threads only */
	dalic_graphdef_t *g;
	EXPECT_STATUS(dalic_proto_read(bytes, sizeof bytes, &g), DALIC_EPARSE);
	EXPECT_ERROR_HAS("'batch_size'");
}

Test(proto_errors, wrong_wire_type)
{
	static const uint8_t bytes[] = {0x12, 0x01, 0x04}; /* batch_size as a string */
	dalic_graphdef_t *g;
	EXPECT_STATUS(dalic_proto_read(bytes, sizeof bytes, &g), DALIC_EPARSE);
	EXPECT_ERROR_HAS("batch_size: wire type 2");
}

Test(proto_errors, nesting_too_deep)
{
	/* op{args{extra_args{extra_args{...}}}} 2000 levels deep: protobuf-c alone would
	 * recurse once per level */
	enum { DEPTH = 2000 };
	size_t cap = DEPTH * 8 + 64, n = 0;
	uint8_t *inner = malloc(cap), *outer = malloc(cap);
	for (int d = 0; d < DEPTH; d++) {
		/* wrap: 0x3a (extra_args, field 7) + length, around the previous level */
		size_t m = 0;
		outer[m++] = d + 1 == DEPTH ? 0x22 : 0x3a; /* outermost is OpDef.args */
		size_t l = n;
		do {
			outer[m++] = (uint8_t)((l & 0x7f) | (l > 0x7f ? 0x80 : 0));
			l >>= 7;
		} while (l);
		memcpy(outer + m, inner, n);
		n += m;
		uint8_t *t = inner;
		inner = outer;
		outer = t;
	}
	/* PipelineDef{batch_size=1, op{...}} */
	uint8_t *msg = malloc(n + 16);
	size_t k = 0, l = n;
	msg[k++] = 0x10;
	msg[k++] = 0x01;
	msg[k++] = 0x2a;
	do {
		msg[k++] = (uint8_t)((l & 0x7f) | (l > 0x7f ? 0x80 : 0));
		l >>= 7;
	} while (l);
	memcpy(msg + k, inner, n);
	dalic_graphdef_t *g;
	EXPECT_STATUS(dalic_proto_read(msg, k + n, &g), DALIC_EPARSE);
	EXPECT_ERROR_HAS("nested more than");
	free(inner);
	free(outer);
	free(msg);
}

Test(proto_errors, garbage_and_null)
{
	dalic_graphdef_t *g;
	static const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	                               0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	EXPECT_STATUS(dalic_proto_read(junk, sizeof junk, &g), DALIC_EPARSE);
	EXPECT_STATUS(dalic_proto_read(NULL, 0, &g), DALIC_EPARSE, "empty: batch_size missing");
	EXPECT_STATUS(dalic_proto_read(NULL, 5, &g), DALIC_EINVAL);
}
