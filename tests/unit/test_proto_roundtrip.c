/*
 * Graph definition -> DALI protobuf -> graph definition gives back the same definition,
 * field by field: parameters, operators (schema, instance name, device, ids, inputs with
 * devices and argument-input flags, typed arguments), outputs with their declarations.
 * Also what the writer deliberately changes: automatic devices become explicit, floats
 * become 32-bit, unused operators are left out, the seed becomes concrete.
 */
#include "engine/pipeline.h"
#include "frontend/proto/proto.h"
#include "tests/testlib/proto.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(proto_roundtrip, .timeout = 20, .fini = tl_tmpdir_remove);

static dalic_graphdef_t *proto_roundtrip_round_trip(const dalic_graphdef_t *g)
{
	uint8_t *buf;
	size_t len;
	ASSERT_OK(dalic_proto_write(g, &buf, &len));
	dalic_graphdef_t *back;
	ASSERT_OK(dalic_proto_read(buf, len, &back));
	free(buf);
	return back;
}

static void proto_roundtrip_set(dalic_opdef_t *op, const char *arg, dalic_value_t v)
{
	ASSERT_OK(dalic_graphdef_op_set_arg(op, arg, &v));
	dalic_value_free(&v);
}

static dalic_value_t proto_roundtrip_ival(int64_t x)
{
	dalic_value_t v;
	ASSERT_OK(dalic_value_int(&v, x));
	return v;
}

static dalic_value_t proto_roundtrip_fval(double x)
{
	dalic_value_t v;
	ASSERT_OK(dalic_value_float(&v, x));
	return v;
}

static dalic_value_t proto_roundtrip_bval(bool x)
{
	dalic_value_t v;
	ASSERT_OK(dalic_value_bool(&v, x));
	return v;
}

static dalic_value_t proto_roundtrip_sval(const char *x)
{
	dalic_value_t v;
	ASSERT_OK(dalic_value_string(&v, x));
	return v;
}

static dalic_opdef_t *proto_roundtrip_add(dalic_graphdef_t *g, const char *name, const char *device)
{
	dalic_opdef_t *op;
	ASSERT_OK(dalic_graphdef_add_op(g, name, device, &op));
	return op;
}

Test(proto_roundtrip, coin_cast_is_identical)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	tl_expect_same_def(g, back);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

/* Every kind of argument, argument inputs, explicit logical ids, named ops, an external
 * source, and parameters away from their defaults. */
static dalic_graphdef_t *proto_roundtrip_rich(bool separated)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = 3;
	p.num_threads = 5;
	p.device_id = 0;
	p.seed = 7;
	p.exec_async = separated;
	p.exec_pipelined = true;
	p.separated_queues = separated;
	p.prefetch_cpu = separated ? 2 : 3;
	p.prefetch_gpu = separated ? 4 : 3;
	p.bytes_per_sample = 4096;
	p.set_affinity = true;
	dalic_graphdef_t *g = dalic_graphdef_new(&p);
	dalic_opdef_t *src = proto_roundtrip_add(g, "external_source", "cpu");
	ASSERT_OK(dalic_graphdef_op_set_name(src, "src"));
	proto_roundtrip_set(src, "blocking", proto_roundtrip_bval(false));
	proto_roundtrip_set(src, "layout", proto_roundtrip_sval("HWC"));
	proto_roundtrip_set(src, "dtype", proto_roundtrip_ival(DALIC_UINT8));
	proto_roundtrip_set(src, "ndim", proto_roundtrip_ival(3));
	dalic_opdef_t *cast = proto_roundtrip_add(g, "Cast", "cpu");
	proto_roundtrip_set(cast, "dtype", proto_roundtrip_ival(DALIC_FLOAT));
	ASSERT_OK(dalic_graphdef_op_add_input(cast, "src", NULL));
	dalic_opdef_t *coin = proto_roundtrip_add(g, "CoinFlip", "cpu");
	ASSERT_OK(dalic_graphdef_op_add_arg_input(coin, "probability", cast->outputs[0]));
	proto_roundtrip_set(coin, "seed", proto_roundtrip_ival(1234));
	coin->logical_id = 10;
	dalic_opdef_t *ar = proto_roundtrip_add(g, "ArithmeticGenericOp", "cpu");
	ASSERT_OK(dalic_graphdef_op_set_name(ar, "sum"));
	ASSERT_OK(dalic_graphdef_op_add_input(ar, cast->outputs[0], "cpu"));
	ASSERT_OK(dalic_graphdef_op_add_input(ar, coin->outputs[0], NULL));
	proto_roundtrip_set(ar, "expression_desc",
	                    proto_roundtrip_sval("add(&0 mul(&1 $0:float32))"));
	dalic_value_t v;
	double reals[] = {1.5, -2.25};
	ASSERT_OK(dalic_value_list(&v, DALIC_V_FLOAT, 2, reals));
	proto_roundtrip_set(ar, "real_constants", v);
	ASSERT_OK(dalic_value_list(&v, DALIC_V_INT, 0, NULL));
	proto_roundtrip_set(ar, "integer_constants", v);
	proto_roundtrip_set(ar, "preserve", proto_roundtrip_bval(true));
	/* after an explicit id DALI hands out the next one */
	ar->logical_id = 11;
	/* the writer lists operators in DALI's order (from the outputs, producers first): the
	 * definition is built in that order so that it reads back the same */
	dalic_opdef_t *coin2 = proto_roundtrip_add(g, "random__CoinFlip", NULL);
	proto_roundtrip_set(coin2, "probability", proto_roundtrip_fval(0.75));
	proto_roundtrip_set(coin2, "dtype", proto_roundtrip_ival(DALIC_UINT8));
	coin2->logical_id = 10;
	ASSERT_OK(dalic_graphdef_add_output(g, "sum", "cpu"));
	ASSERT_OK(dalic_graphdef_add_output(g, coin2->outputs[0], "cpu"));
	ASSERT_OK(dalic_graphdef_add_output(g, "src", "cpu"));
	ASSERT_OK(dalic_graphdef_set_output_desc(g, 0, DALIC_FLOAT, 3, NULL));
	ASSERT_OK(dalic_graphdef_set_output_desc(g, 2, DALIC_UINT8, -1, NULL));
	/* devices the writer must resolve are made explicit here so the round trip is exact;
	 * resolution has its own test below */
	cast->inputs[0].device = strdup("cpu");
	ar->inputs[1].device = strdup("cpu");
	coin2->device = strdup("cpu");
	return g;
}

Test(proto_roundtrip, every_argument_kind_is_identical)
{
	for (int separated = 0; separated < 2; separated++) {
		dalic_graphdef_t *g = proto_roundtrip_rich(separated);
		dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
		tl_expect_same_def(g, back);
		dalic_graphdef_free(g);
		dalic_graphdef_free(back);
	}
}

Test(proto_roundtrip, writing_twice_gives_the_same_bytes)
{
	dalic_graphdef_t *g = proto_roundtrip_rich(true);
	uint8_t *a, *b, *c;
	size_t la, lb, lc;
	ASSERT_OK(dalic_proto_write(g, &a, &la));
	ASSERT_OK(dalic_proto_write(g, &b, &lb));
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	ASSERT_OK(dalic_proto_write(back, &c, &lc));
	cr_assert_eq(la, lb);
	cr_assert_eq(la, lc);
	cr_assert_eq(memcmp(a, b, la), 0);
	cr_assert_eq(memcmp(a, c, la), 0, "write(read(write(g))) differs from write(g)");
	free(a);
	free(b);
	free(c);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, automatic_devices_are_written_resolved)
{
	dalic_graphdef_t *g = proto_roundtrip_rich(false);
	free(g->ops[1]->inputs[0].device);
	g->ops[1]->inputs[0].device = NULL; /* cast reads src where it is produced */
	free(g->ops[4]->device);
	g->ops[4]->device = NULL; /* coin2: no positional input on gpu -> cpu */
	free(g->outputs[1].device);
	g->outputs[1].device = NULL;
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	cr_expect_str_eq(back->ops[1]->inputs[0].device, "cpu");
	cr_expect_str_eq(back->ops[4]->device, "cpu");
	cr_expect_str_eq(back->outputs[1].device, "cpu");
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, gpu_input_makes_an_automatic_op_gpu)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = 2;
	dalic_graphdef_t *g = dalic_graphdef_new(&p);
	dalic_opdef_t *coin = proto_roundtrip_add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *cast = proto_roundtrip_add(g, "cast", NULL);
	proto_roundtrip_set(cast, "dtype", proto_roundtrip_ival(DALIC_FLOAT));
	ASSERT_OK(dalic_graphdef_op_add_input(cast, coin->outputs[0], "gpu"));
	dalic_opdef_t *cast2 = proto_roundtrip_add(g, "cast", NULL);
	proto_roundtrip_set(cast2, "dtype", proto_roundtrip_ival(DALIC_INT32));
	ASSERT_OK(dalic_graphdef_op_add_input(cast2, cast->outputs[0], NULL));
	ASSERT_OK(dalic_graphdef_add_output(g, cast2->outputs[0], NULL));
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	cr_expect_str_eq(back->ops[1]->device, "gpu");
	cr_expect_str_eq(back->ops[2]->inputs[0].device, "gpu", "produced on gpu by cast");
	cr_expect_str_eq(back->ops[2]->device, "gpu");
	cr_expect_str_eq(back->outputs[0].device, "gpu");
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, floats_are_stored_in_32_bits)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	proto_roundtrip_set(g->ops[0], "probability", proto_roundtrip_fval(0.3));
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	const dalic_value_t *v = dalic_graphdef_op_arg(back->ops[0], "probability");
	cr_assert(v);
	cr_expect_eq(v->f[0], (double)0.3f, "DALI keeps float arguments as 32-bit floats");
	cr_expect_neq(v->f[0], 0.3);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, unused_ops_are_left_out_preserved_ones_kept)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	dalic_opdef_t *unused = proto_roundtrip_add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *feeds_kept = proto_roundtrip_add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *kept = proto_roundtrip_add(g, "random.coin_flip", "cpu");
	proto_roundtrip_set(kept, "preserve", proto_roundtrip_bval(true));
	ASSERT_OK(dalic_graphdef_op_add_input(kept, feeds_kept->outputs[0], "cpu"));
	(void)unused;
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	cr_assert_eq(back->num_ops, 4, "coin, cast, preserved coin and its producer");
	cr_expect_str_eq(back->ops[2]->inst, feeds_kept->inst);
	cr_expect_str_eq(back->ops[3]->inst, kept->inst);
	cr_expect(!dalic_graphdef_find_op(back, unused->inst));
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, unset_seed_becomes_concrete)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	g->params.seed = -1;
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	cr_expect_geq(back->params.seed, 0, "DALI stores the seed it actually used");
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, load_file_sets_source)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	uint8_t *buf;
	size_t len;
	ASSERT_OK(dalic_proto_write(g, &buf, &len));
	const char *path = tl_tmp_path("coin_cast.pb");
	tl_write_file(path, buf, len);
	dalic_graphdef_t *back;
	ASSERT_OK(dalic_proto_load_file(path, &back));
	cr_expect_str_eq(back->source, path);
	tl_expect_same_def(g, back);
	unlink(path);
	EXPECT_STATUS(dalic_proto_load_file(path, &back), DALIC_EIO);
	EXPECT_ERROR_HAS(path);
	free(buf);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

/* Runs `def` (consumed) for `iters` iterations; returns every output sample's bytes
 * concatenated, iteration by iteration. */
static uint8_t *proto_roundtrip_run_outputs(dalic_graphdef_t *def, int iters, size_t *len)
{
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_from_graphdef(def, &p));
	size_t cap = 1 << 16, n = 0;
	uint8_t *all = malloc(cap);
	for (int it = 0; it < iters; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
			const dalic_batch_t *b = dalic_pipeline_output(p, o);
			for (int s = 0; s < dalic_batch_num_samples(b); s++) {
				size_t sz = dalic_batch_sample_bytes(b, s);
				while (n + sz > cap)
					all = realloc(all, cap *= 2);
				memcpy(all + n, dalic_batch_data(b, s), sz);
				n += sz;
			}
		}
	}
	dalic_pipeline_destroy(p);
	*len = n;
	return all;
}

Test(proto_roundtrip, deserialized_pipeline_gives_identical_outputs)
{
	dalic_graphdef_t *g = tl_proto_coin_cast();
	/* + to_float * 1.5 + coin: an arithmetic op over both */
	dalic_opdef_t *ar = proto_roundtrip_add(g, "ArithmeticGenericOp", "cpu");
	ASSERT_OK(dalic_graphdef_op_add_input(ar, "to_float", "cpu"));
	ASSERT_OK(dalic_graphdef_op_add_input(ar, "__CoinFlip_0", "cpu"));
	proto_roundtrip_set(ar, "expression_desc",
	                    proto_roundtrip_sval("add(&1 mul(&0 $0:float32))"));
	dalic_value_t v;
	double reals[] = {1.5};
	ASSERT_OK(dalic_value_list(&v, DALIC_V_FLOAT, 1, reals));
	proto_roundtrip_set(ar, "real_constants", v);
	ASSERT_OK(dalic_graphdef_add_output(g, ar->outputs[0], "cpu"));
	dalic_graphdef_t *back = proto_roundtrip_round_trip(g);
	size_t la, lb;
	uint8_t *a = proto_roundtrip_run_outputs(dalic_graphdef_clone(g), 3, &la);
	uint8_t *b = proto_roundtrip_run_outputs(back, 3, &lb);
	/* 3 iterations x 4 samples x (6 int32 + 6 float + 6 float) */
	cr_expect_eq(la, (size_t)3 * 4 * 6 * 12);
	cr_assert_eq(la, lb);
	cr_expect_eq(memcmp(a, b, la), 0, "outputs differ after serialization");
	bool any_one = false;
	for (size_t i = 0; i < 4 * 6 * 4; i += 4)
		any_one |= a[i] != 0;
	cr_expect(any_one, "coin_flip(0.25) gave only zeros: the comparison proves little");
	free(a);
	free(b);
	dalic_graphdef_free(g);
}
