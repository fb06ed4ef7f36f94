/*
 * Built-in sample pipelines, defined through the public C API exactly as an application
 * would (they double as API examples). `dalic run @arith` runs one.
 */
#include "frontend/samples.h"

#include "engine/error.h"

#include <string.h>

/* coin = coin_flip(p=0.7); the simplest random pipeline. */
static int samples_define_coin(dalic_pipeline_t *p)
{
	dalic_op_t *coin;
	DALIC_TRY(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &coin));
	DALIC_TRY(dalic_op_set_float(coin, "probability", 0.7));
	return dalic_pipeline_add_output(p, dalic_op_output(coin, 0), NULL);
}

/* x = uniform([0, 10)); c = coin_flip(); y = cast(x * 2 + c, INT32): scalars, batch 32 —
 * the executor-overhead pipeline of the benchmarks. */
static int samples_define_arith(dalic_pipeline_t *p)
{
	dalic_op_t *x, *c, *mul, *add, *cast;
	DALIC_TRY(dalic_pipeline_add_op(p, "random.uniform", NULL, &x));
	DALIC_TRY(dalic_op_set_floats(x, "range", 2, (const double[]){0, 10}));
	DALIC_TRY(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	DALIC_TRY(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &mul));
	DALIC_TRY(dalic_op_add_input(mul, dalic_op_output(x, 0), NULL));
	DALIC_TRY(dalic_op_set_string(mul, "expression_desc", "mul(&0 $0:float32)"));
	DALIC_TRY(dalic_op_set_floats(mul, "real_constants", 1, (const double[]){2}));
	DALIC_TRY(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &add));
	DALIC_TRY(dalic_op_add_input(add, dalic_op_output(mul, 0), NULL));
	DALIC_TRY(dalic_op_add_input(add, dalic_op_output(c, 0), NULL));
	DALIC_TRY(dalic_op_set_string(add, "expression_desc", "add(&0 &1)"));
	DALIC_TRY(dalic_pipeline_add_op(p, "cast", NULL, &cast));
	DALIC_TRY(dalic_op_add_input(cast, dalic_op_output(add, 0), NULL));
	DALIC_TRY(dalic_op_set_int(cast, "dtype", DALIC_INT32));
	DALIC_TRY(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
	return dalic_pipeline_add_output(p, dalic_op_output(cast, 0), NULL);
}

static const dalic_sample_t samples_all[] = {
    {"arith", "uniform -> x*2 + coin_flip -> cast(INT32), batch 32 of scalars",
     samples_define_arith, 32},
    {"coin", "coin_flip(probability=0.7)", samples_define_coin, 8},
};
#define SAMPLES_COUNT ((int)(sizeof samples_all / sizeof *samples_all))

const dalic_sample_t *dalic_samples_find(const char *name)
{
	for (int i = 0; i < SAMPLES_COUNT; i++)
		if (!strcmp(samples_all[i].name, name))
			return &samples_all[i];
	return NULL;
}

const char *dalic_sample_name(int i)
{
	return i >= 0 && i < SAMPLES_COUNT ? samples_all[i].name : NULL;
}

const char *dalic_sample_summary(int i)
{
	return i >= 0 && i < SAMPLES_COUNT ? samples_all[i].summary : NULL;
}
