/*
 * Definitions from elsewhere that used to hurt (issue 24): chains and output lists of tens of
 * thousands of operators (graph build and the protobuf reader and writer were quadratic),
 * one output listed thousands of times (each copy cost a batch of memory), and protobuf
 * enum values that are no value of the enum (a dtype of 2^40 became UINT8). Every graph is
 * generated here, through the public API, and goes through serialize -> deserialize so the
 * protobuf reader and writer see it too.
 */
#include <criterion/criterion.h>

#include "dali.pb-c.h"
#include "dalic.h"

#include <stdlib.h>
#include <string.h>

/* Quadratic code took minutes on these sizes; linear code takes about a second. */
TestSuite(hostile_graphs, .timeout = 120);

#define HOSTILE_OK(call) cr_assert_eq((call), DALIC_OK, "%s: %s", #call, dalic_last_error())

static dalic_pipeline_t *hostile_pipeline(void)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 1;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 7;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p = NULL;
	HOSTILE_OK(dalic_pipeline_create(&params, &p));
	return p;
}

static dalic_op_t *hostile_int_constant(dalic_pipeline_t *p, int64_t value)
{
	dalic_op_t *c;
	HOSTILE_OK(dalic_pipeline_add_op(p, "constant", NULL, &c));
	HOSTILE_OK(dalic_op_set_ints(c, "idata", 1, &value));
	return c;
}

/* p serialized and read back (p is destroyed). */
static dalic_pipeline_t *hostile_round_trip(dalic_pipeline_t *p)
{
	void *buf;
	size_t len;
	HOSTILE_OK(dalic_pipeline_serialize(p, &buf, &len));
	dalic_pipeline_destroy(p);
	dalic_pipeline_t *q = NULL;
	HOSTILE_OK(dalic_pipeline_deserialize(buf, len, NULL, &q));
	free(buf);
	return q;
}

static int32_t hostile_value(dalic_pipeline_t *p, int output)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, output);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT32);
	return *(const int32_t *)dalic_batch_data(b, 0);
}

/* x = 123456789, then cast to INT64 and back, 50,000 casts in all: the value survives. */
Test(hostile_graphs, a_50k_operator_chain_builds_and_runs)
{
	enum { N = 50000 };
	dalic_pipeline_t *p = hostile_pipeline();
	const char *prev = dalic_op_output(hostile_int_constant(p, 123456789), 0);
	for (int k = 0; k < N; k++) {
		dalic_op_t *cast;
		HOSTILE_OK(dalic_pipeline_add_op(p, "cast", NULL, &cast));
		HOSTILE_OK(dalic_op_add_input(cast, prev, NULL));
		HOSTILE_OK(dalic_op_set_int(cast, "dtype", k % 2 ? DALIC_INT32 : DALIC_INT64));
		prev = dalic_op_output(cast, 0);
	}
	HOSTILE_OK(dalic_pipeline_add_output(p, prev, NULL));
	p = hostile_round_trip(p);
	cr_assert_eq(dalic_pipeline_num_ops(p), N + 1);
	HOSTILE_OK(dalic_pipeline_run(p));
	cr_expect_eq(hostile_value(p, 0), 123456789);
	cr_expect_eq(dalic_pipeline_graph_size(p), N + 2); /* + the output's MakeContiguous */
	dalic_pipeline_destroy(p);
}

/* 20,000 constants, each its own output i holding i. */
Test(hostile_graphs, twenty_thousand_outputs_build_and_run)
{
	enum { N = 20000 };
	dalic_pipeline_t *p = hostile_pipeline();
	for (int i = 0; i < N; i++)
		HOSTILE_OK(dalic_pipeline_add_output(
		    p, dalic_op_output(hostile_int_constant(p, i), 0), NULL));
	p = hostile_round_trip(p);
	cr_assert_eq(dalic_pipeline_num_outputs(p), N);
	HOSTILE_OK(dalic_pipeline_run(p));
	for (int i = 0; i < N; i += 997)
		cr_expect_eq(hostile_value(p, i), i);
	cr_expect_eq(hostile_value(p, N - 1), N - 1);
	dalic_pipeline_destroy(p);
}

/* DALI accepts a data node returned several times and copies it once; each duplicate used to
 * hold its own copy of the batch (here 1 MiB each: 5 GiB for 5,001). */
Test(hostile_graphs, one_output_listed_5001_times_is_copied_once)
{
	enum { N = 5001, FLOATS = 1 << 18 };
	dalic_pipeline_t *p = hostile_pipeline();
	dalic_op_t *u;
	HOSTILE_OK(dalic_pipeline_add_op(p, "random.uniform", NULL, &u));
	HOSTILE_OK(dalic_op_set_ints(u, "shape", 1, (const int64_t[]){FLOATS}));
	for (int i = 0; i < N; i++)
		HOSTILE_OK(dalic_pipeline_add_output(p, dalic_op_output(u, 0), NULL));
	p = hostile_round_trip(p);
	dalic_mem_totals_t before, after;
	dalic_mem_totals(DALIC_MEM_HOST, &before);
	HOSTILE_OK(dalic_pipeline_run(p));
	dalic_mem_totals(DALIC_MEM_HOST, &after);
	cr_expect_eq(dalic_pipeline_graph_size(p), 2, "uniform and one MakeContiguous");
	cr_expect_lt(after.bytes_peak - before.bytes_live, 16 << 20, "peak grew by %lld bytes",
	             (long long)(after.bytes_peak - before.bytes_live));
	const dalic_batch_t *first = dalic_pipeline_output(p, 0);
	cr_assert_eq(dalic_batch_sample_bytes(first, 0), FLOATS * sizeof(float));
	for (int i = 1; i < N; i += 500) {
		cr_expect_eq(dalic_pipeline_output(p, i), first, "output %d", i);
		cr_expect_str_eq(dalic_pipeline_output_name(p, i),
		                 dalic_op_output(dalic_pipeline_find_op(p, "__Uniform_0"), 0));
	}
	dalic_pipeline_destroy(p);
}

/* ---- enum values a protobuf may not hold ------------------------------------------------- */

/* A serialized pipeline with one argument (of op `schema`) or field changed. */
typedef void (*hostile_edit_fn)(DaliProto__PipelineDef *m);

static int hostile_read_edited(dalic_pipeline_t *p, hostile_edit_fn edit)
{
	void *buf;
	size_t len;
	HOSTILE_OK(dalic_pipeline_serialize(p, &buf, &len));
	DaliProto__PipelineDef *m = dali_proto__pipeline_def__unpack(NULL, len, buf);
	cr_assert_not_null(m);
	free(buf);
	edit(m);
	len = dali_proto__pipeline_def__get_packed_size(m);
	buf = malloc(len);
	cr_assert_not_null(buf);
	dali_proto__pipeline_def__pack(m, buf);
	dali_proto__pipeline_def__free_unpacked(m, NULL);
	dalic_pipeline_t *q = NULL;
	int rc = dalic_pipeline_deserialize(buf, len, NULL, &q);
	free(buf);
	dalic_pipeline_destroy(q);
	return rc;
}

static DaliProto__Argument *hostile_arg(DaliProto__PipelineDef *m, const char *schema,
                                        const char *name)
{
	for (size_t i = 0; i < m->n_op; i++)
		for (size_t k = 0; strcmp(m->op[i]->name, schema) == 0 && k < m->op[i]->n_args; k++)
			if (!strcmp(m->op[i]->args[k]->name, name))
				return m->op[i]->args[k];
	cr_assert_fail("no argument %s of %s in the serialized pipeline", name, schema);
	return NULL;
}

static void hostile_dtype_2_40(DaliProto__PipelineDef *m)
{
	DaliProto__Argument *a = hostile_arg(m, "Cast", "dtype");
	cr_assert_eq(a->n_ints, 1);
	a->ints[0] = (int64_t)1 << 40;
}

static void hostile_dtype_13(DaliProto__PipelineDef *m)
{
	hostile_arg(m, "Cast", "dtype")->ints[0] = 13; /* BOOL_VEC: a DALI type, not a data type
	                                                 dalic stores */
}

static void hostile_interp_99(DaliProto__PipelineDef *m)
{
	hostile_arg(m, "Rotate", "interp_type")->ints[0] = 99;
}

static void hostile_image_type_neg(DaliProto__PipelineDef *m)
{
	hostile_arg(m, "Crop", "image_type")->ints[0] = -3;
}

static void hostile_device_tpu(DaliProto__PipelineDef *m)
{
	DaliProto__Argument *a = hostile_arg(m, "Cast", "device");
	free(a->strings[0]);
	a->strings[0] = strdup("tpu");
}

static void hostile_executor_type(DaliProto__PipelineDef *m)
{
	m->has_executor_type = 1;
	m->executor_type = 1 << 20;
}

static void hostile_executor_flags(DaliProto__PipelineDef *m)
{
	m->has_executor_flags = 1;
	m->executor_flags = 8; /* concurrency mask value 8 is not one of 0, 2, 4, 6 */
}

/* Rotate's input is a constant: give the constant a shape of 2^32 x 2^32 x 3. */
static void hostile_shape_overflow(DaliProto__PipelineDef *m)
{
	DaliProto__Argument *a = hostile_arg(m, "Constant", "shape");
	cr_assert_eq(a->n_extra_args, 3);
	a->extra_args[0]->ints[0] = a->extra_args[1]->ints[0] = (int64_t)1 << 32;
}

static void hostile_nothing(DaliProto__PipelineDef *m)
{
	(void)m;
}

/* constant image -> cast, rotate, crop: every enum-typed argument kind. */
static dalic_pipeline_t *hostile_enum_pipeline(void)
{
	dalic_pipeline_t *p = hostile_pipeline();
	dalic_op_t *img, *cast, *rot, *crop;
	HOSTILE_OK(dalic_pipeline_add_op(p, "constant", NULL, &img));
	HOSTILE_OK(dalic_op_set_ints(img, "idata", 1, (const int64_t[]){7}));
	HOSTILE_OK(dalic_op_set_ints(img, "shape", 3, (const int64_t[]){4, 4, 3}));
	HOSTILE_OK(dalic_op_set_int(img, "dtype", DALIC_UINT8));
	HOSTILE_OK(dalic_op_set_string(img, "layout", "HWC"));
	HOSTILE_OK(dalic_pipeline_add_op(p, "cast", NULL, &cast));
	HOSTILE_OK(dalic_op_set_name(cast, "to_float"));
	HOSTILE_OK(dalic_op_add_input(cast, dalic_op_output(img, 0), NULL));
	HOSTILE_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT));
	HOSTILE_OK(dalic_pipeline_add_op(p, "rotate", NULL, &rot));
	HOSTILE_OK(dalic_op_add_input(rot, dalic_op_output(img, 0), NULL));
	HOSTILE_OK(dalic_op_set_float(rot, "angle", 10));
	HOSTILE_OK(dalic_op_set_int(rot, "interp_type", DALIC_INTERP_NN));
	HOSTILE_OK(dalic_pipeline_add_op(p, "crop", NULL, &crop));
	HOSTILE_OK(dalic_op_add_input(crop, dalic_op_output(img, 0), NULL));
	HOSTILE_OK(dalic_op_set_floats(crop, "crop", 2, (const double[]){2, 2}));
	HOSTILE_OK(dalic_op_set_int(crop, "image_type", DALIC_BGR));
	HOSTILE_OK(dalic_pipeline_add_output(p, dalic_op_output(cast, 0), NULL));
	HOSTILE_OK(dalic_pipeline_add_output(p, dalic_op_output(rot, 0), NULL));
	HOSTILE_OK(dalic_pipeline_add_output(p, dalic_op_output(crop, 0), NULL));
	return p;
}

static void hostile_expect_refused(hostile_edit_fn edit, int status, const char *a, const char *b)
{
	dalic_pipeline_t *p = hostile_enum_pipeline();
	cr_expect_eq(hostile_read_edited(p, edit), status, "%s", dalic_last_error());
	cr_expect(strstr(dalic_last_error(), a), "'%s' missing in: %s", a, dalic_last_error());
	cr_expect(!b || strstr(dalic_last_error(), b), "'%s' missing in: %s", b,
	          dalic_last_error());
	dalic_pipeline_destroy(p);
}

Test(hostile_graphs, protobuf_enum_values_outside_the_enum_are_errors)
{
	dalic_pipeline_t *p = hostile_enum_pipeline();
	HOSTILE_OK(hostile_read_edited(p, hostile_nothing));
	dalic_pipeline_destroy(p);
	hostile_expect_refused(hostile_dtype_2_40, DALIC_EARG_TYPE, "to_float", "dtype");
	hostile_expect_refused(hostile_dtype_2_40, DALIC_EARG_TYPE, "1099511627776", NULL);
	hostile_expect_refused(hostile_dtype_13, DALIC_EARG_TYPE, "to_float", "dtype");
	hostile_expect_refused(hostile_interp_99, DALIC_EARG_TYPE, "__Rotate_2", "interp_type");
	hostile_expect_refused(hostile_image_type_neg, DALIC_EARG_TYPE, "__Crop_3", "image_type");
	hostile_expect_refused(hostile_device_tpu, DALIC_EINVAL, "to_float", "tpu");
	hostile_expect_refused(hostile_executor_type, DALIC_EPARSE, "executor_type", NULL);
	hostile_expect_refused(hostile_executor_flags, DALIC_EPARSE, "executor_flags", NULL);
	hostile_expect_refused(hostile_shape_overflow, DALIC_EPARSE, "__Constant_0", "'shape'");
}

/* The same rule for values given through the API: a dtype that is no DALIDataType is an
 * error, not a truncated int that happens to name UINT8. */
Test(hostile_graphs, api_enum_values_outside_the_enum_are_errors)
{
	dalic_pipeline_t *p = hostile_pipeline();
	dalic_op_t *cast;
	HOSTILE_OK(dalic_pipeline_add_op(p, "cast", NULL, &cast));
	cr_expect_eq(dalic_op_set_int(cast, "dtype", (int64_t)1 << 40), DALIC_EARG_TYPE);
	cr_expect_eq(dalic_op_set_int(cast, "dtype", -2), DALIC_EARG_TYPE);
	HOSTILE_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT16));
	dalic_pipeline_destroy(p);
}
