/*
 * Graph definition -> DALI protobuf -> graph definition gives back the same definition,
 * field by field: parameters, operators (schema, instance name, device, ids, inputs with
 * devices and argument-input flags, typed arguments), outputs with their declarations.
 * Also what the writer deliberately changes: automatic devices become explicit, floats
 * become 32-bit, unused operators are left out, the seed becomes concrete.
 */
#include "engine/pipeline.h"
#include "frontend/proto/proto.h"
#include "tests/unit/test_proto_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(proto_roundtrip, .timeout = 20);

static dalic_graphdef_t *round_trip(const dalic_graphdef_t *g)
{
	uint8_t *buf;
	size_t len;
	cr_assert_eq(dalic_proto_write(g, &buf, &len), DALIC_OK, "%s", dalic_last_error());
	dalic_graphdef_t *back;
	cr_assert_eq(dalic_proto_read(buf, len, &back), DALIC_OK, "%s", dalic_last_error());
	free(buf);
	return back;
}

static void set(dalic_opdef_t *op, const char *arg, dalic_value_t v)
{
	cr_assert_eq(dalic_graphdef_op_set_arg(op, arg, &v), DALIC_OK, "%s", dalic_last_error());
	dalic_value_free(&v);
}

static dalic_value_t ival(int64_t x)
{
	dalic_value_t v;
	dalic_value_int(&v, x);
	return v;
}

static dalic_value_t fval(double x)
{
	dalic_value_t v;
	dalic_value_float(&v, x);
	return v;
}

static dalic_value_t bval(bool x)
{
	dalic_value_t v;
	dalic_value_bool(&v, x);
	return v;
}

static dalic_value_t sval(const char *x)
{
	dalic_value_t v;
	dalic_value_string(&v, x);
	return v;
}

static dalic_opdef_t *add(dalic_graphdef_t *g, const char *name, const char *device)
{
	dalic_opdef_t *op;
	cr_assert_eq(dalic_graphdef_add_op(g, name, device, &op), DALIC_OK, "%s",
	             dalic_last_error());
	return op;
}

Test(proto_roundtrip, coin_cast_is_identical)
{
	dalic_graphdef_t *g = proto_test_coin_cast();
	dalic_graphdef_t *back = round_trip(g);
	proto_test_expect_same(g, back);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

/* Every kind of argument, argument inputs, explicit logical ids, named ops, an external
 * source, and parameters away from their defaults. */
static dalic_graphdef_t *rich(bool separated)
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
	dalic_opdef_t *src = add(g, "external_source", "cpu");
	cr_assert_eq(dalic_graphdef_op_set_name(src, "src"), DALIC_OK);
	set(src, "blocking", bval(false));
	set(src, "layout", sval("HWC"));
	set(src, "dtype", ival(DALIC_UINT8));
	set(src, "ndim", ival(3));
	dalic_opdef_t *cast = add(g, "Cast", "cpu");
	set(cast, "dtype", ival(DALIC_FLOAT));
	cr_assert_eq(dalic_graphdef_op_add_input(cast, "src", NULL), DALIC_OK);
	dalic_opdef_t *coin = add(g, "CoinFlip", "cpu");
	cr_assert_eq(dalic_graphdef_op_add_arg_input(coin, "probability", cast->outputs[0]),
	             DALIC_OK, "%s", dalic_last_error());
	set(coin, "seed", ival(1234));
	coin->logical_id = 10;
	dalic_opdef_t *coin2 = add(g, "random__CoinFlip", NULL);
	set(coin2, "probability", fval(0.75));
	set(coin2, "dtype", ival(DALIC_UINT8));
	coin2->logical_id = 10;
	dalic_opdef_t *ar = add(g, "ArithmeticGenericOp", "cpu");
	cr_assert_eq(dalic_graphdef_op_set_name(ar, "sum"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_op_add_input(ar, cast->outputs[0], "cpu"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_op_add_input(ar, coin->outputs[0], NULL), DALIC_OK);
	set(ar, "expression_desc", sval("add(&0 mul(&1 $0:float32))"));
	dalic_value_t v;
	double reals[] = {1.5, -2.25};
	dalic_value_list(&v, DALIC_V_FLOAT, 2, reals);
	set(ar, "real_constants", v);
	dalic_value_list(&v, DALIC_V_INT, 0, NULL);
	set(ar, "integer_constants", v);
	set(ar, "preserve", bval(true));
	cr_assert_eq(dalic_graphdef_add_output(g, "sum", "cpu"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_add_output(g, coin2->outputs[0], "cpu"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_add_output(g, "src", "cpu"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_set_output_desc(g, 0, DALIC_FLOAT, 3, NULL), DALIC_OK);
	cr_assert_eq(dalic_graphdef_set_output_desc(g, 2, DALIC_UINT8, -1, NULL), DALIC_OK);
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
		dalic_graphdef_t *g = rich(separated);
		dalic_graphdef_t *back = round_trip(g);
		proto_test_expect_same(g, back);
		dalic_graphdef_free(g);
		dalic_graphdef_free(back);
	}
}

Test(proto_roundtrip, writing_twice_gives_the_same_bytes)
{
	dalic_graphdef_t *g = rich(true);
	uint8_t *a, *b, *c;
	size_t la, lb, lc;
	cr_assert_eq(dalic_proto_write(g, &a, &la), DALIC_OK);
	cr_assert_eq(dalic_proto_write(g, &b, &lb), DALIC_OK);
	dalic_graphdef_t *back = round_trip(g);
	cr_assert_eq(dalic_proto_write(back, &c, &lc), DALIC_OK);
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
	dalic_graphdef_t *g = rich(false);
	free(g->ops[1]->inputs[0].device);
	g->ops[1]->inputs[0].device = NULL; /* cast reads src where it is produced */
	free(g->ops[3]->device);
	g->ops[3]->device = NULL; /* coin2: no positional input on gpu -> cpu */
	free(g->outputs[1].device);
	g->outputs[1].device = NULL;
	dalic_graphdef_t *back = round_trip(g);
	cr_expect_str_eq(back->ops[1]->inputs[0].device, "cpu");
	cr_expect_str_eq(back->ops[3]->device, "cpu");
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
	dalic_opdef_t *coin = add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *cast = add(g, "cast", NULL);
	set(cast, "dtype", ival(DALIC_FLOAT));
	cr_assert_eq(dalic_graphdef_op_add_input(cast, coin->outputs[0], "gpu"), DALIC_OK);
	dalic_opdef_t *cast2 = add(g, "cast", NULL);
	set(cast2, "dtype", ival(DALIC_INT32));
	cr_assert_eq(dalic_graphdef_op_add_input(cast2, cast->outputs[0], NULL), DALIC_OK);
	cr_assert_eq(dalic_graphdef_add_output(g, cast2->outputs[0], NULL), DALIC_OK);
	dalic_graphdef_t *back = round_trip(g);
	cr_expect_str_eq(back->ops[1]->device, "gpu");
	cr_expect_str_eq(back->ops[2]->inputs[0].device, "gpu", "produced on gpu by cast");
	cr_expect_str_eq(back->ops[2]->device, "gpu");
	cr_expect_str_eq(back->outputs[0].device, "gpu");
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, floats_are_stored_in_32_bits)
{
	dalic_graphdef_t *g = proto_test_coin_cast();
	set(g->ops[0], "probability", fval(0.3));
	dalic_graphdef_t *back = round_trip(g);
	const dalic_value_t *v = dalic_graphdef_op_arg(back->ops[0], "probability");
	cr_assert(v);
	cr_expect_eq(v->f[0], (double)0.3f, "DALI keeps float arguments as 32-bit floats");
	cr_expect_neq(v->f[0], 0.3);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, unused_ops_are_left_out_preserved_ones_kept)
{
	dalic_graphdef_t *g = proto_test_coin_cast();
	dalic_opdef_t *unused = add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *feeds_kept = add(g, "random.coin_flip", "cpu");
	dalic_opdef_t *kept = add(g, "random.coin_flip", "cpu");
	set(kept, "preserve", bval(true));
	cr_assert_eq(dalic_graphdef_op_add_input(kept, feeds_kept->outputs[0], "cpu"), DALIC_OK);
	(void)unused;
	dalic_graphdef_t *back = round_trip(g);
	cr_assert_eq(back->num_ops, 4, "coin, cast, preserved coin and its producer");
	cr_expect_str_eq(back->ops[2]->inst, feeds_kept->inst);
	cr_expect_str_eq(back->ops[3]->inst, kept->inst);
	cr_expect(!dalic_graphdef_find_op(back, unused->inst));
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, unset_seed_becomes_concrete)
{
	dalic_graphdef_t *g = proto_test_coin_cast();
	g->params.seed = -1;
	dalic_graphdef_t *back = round_trip(g);
	cr_expect_geq(back->params.seed, 0, "DALI stores the seed it actually used");
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

Test(proto_roundtrip, load_file_sets_source)
{
	dalic_graphdef_t *g = proto_test_coin_cast();
	uint8_t *buf;
	size_t len;
	cr_assert_eq(dalic_proto_write(g, &buf, &len), DALIC_OK);
	char path[] = "/tmp/dalic_proto_XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *f = fdopen(fd, "wb");
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	dalic_graphdef_t *back;
	cr_assert_eq(dalic_proto_load_file(path, &back), DALIC_OK, "%s", dalic_last_error());
	cr_expect_str_eq(back->source, path);
	proto_test_expect_same(g, back);
	unlink(path);
	cr_expect_eq(dalic_proto_load_file(path, &back), DALIC_EIO);
	cr_expect(strstr(dalic_last_error(), path));
	free(buf);
	dalic_graphdef_free(g);
	dalic_graphdef_free(back);
}

/* Runs `def` (consumed) for `iters` iterations; returns every output sample's bytes
 * concatenated, iteration by iteration. */
static uint8_t *run_outputs(dalic_graphdef_t *def, int iters, size_t *len)
{
	dalic_pipeline_t *p;
	cr_assert_eq(dalic_pipeline_from_graphdef(def, &p), DALIC_OK, "%s", dalic_last_error());
	size_t cap = 1 << 16, n = 0;
	uint8_t *all = malloc(cap);
	for (int it = 0; it < iters; it++) {
		cr_assert_eq(dalic_pipeline_run(p), DALIC_OK, "%s", dalic_last_error());
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
	dalic_graphdef_t *g = proto_test_coin_cast();
	/* + to_float * 1.5 + coin: an arithmetic op over both */
	dalic_opdef_t *ar = add(g, "ArithmeticGenericOp", "cpu");
	cr_assert_eq(dalic_graphdef_op_add_input(ar, "to_float", "cpu"), DALIC_OK);
	cr_assert_eq(dalic_graphdef_op_add_input(ar, "__CoinFlip_0", "cpu"), DALIC_OK);
	set(ar, "expression_desc", sval("add(&1 mul(&0 $0:float32))"));
	dalic_value_t v;
	double reals[] = {1.5};
	dalic_value_list(&v, DALIC_V_FLOAT, 1, reals);
	set(ar, "real_constants", v);
	cr_assert_eq(dalic_graphdef_add_output(g, ar->outputs[0], "cpu"), DALIC_OK);
	dalic_graphdef_t *back = round_trip(g);
	size_t la, lb;
	uint8_t *a = run_outputs(dalic_graphdef_clone(g), 3, &la);
	uint8_t *b = run_outputs(back, 3, &lb);
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
