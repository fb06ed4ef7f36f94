/*
 * Built-in sample pipelines, defined through the public C API exactly as an application
 * would (they double as API examples). `dalic run @arith` runs one.
 */
#include "cli/samples.h"

#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

/* coin = coin_flip(p=0.7); the simplest random pipeline. */
static int define_coin(dalic_pipeline_t *p)
{
	dalic_op_t *coin;
	TRY(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &coin));
	TRY(dalic_op_set_float(coin, "probability", 0.7));
	return dalic_pipeline_add_output(p, dalic_op_output(coin, 0), NULL);
}

/* x = uniform([0, 10)); c = coin_flip(); y = cast(x * 2 + c, INT32): scalars, batch 32 —
 * the executor-overhead pipeline of the benchmarks. */
static int define_arith(dalic_pipeline_t *p)
{
	dalic_op_t *x, *c, *mul, *add, *cast;
	TRY(dalic_pipeline_add_op(p, "random.uniform", NULL, &x));
	TRY(dalic_op_set_floats(x, "range", 2, (const double[]){0, 10}));
	TRY(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	TRY(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &mul));
	TRY(dalic_op_add_input(mul, dalic_op_output(x, 0), NULL));
	TRY(dalic_op_set_string(mul, "expression_desc", "mul(&0 $0:float32)"));
	TRY(dalic_op_set_floats(mul, "real_constants", 1, (const double[]){2}));
	TRY(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &add));
	TRY(dalic_op_add_input(add, dalic_op_output(mul, 0), NULL));
	TRY(dalic_op_add_input(add, dalic_op_output(c, 0), NULL));
	TRY(dalic_op_set_string(add, "expression_desc", "add(&0 &1)"));
	TRY(dalic_pipeline_add_op(p, "cast", NULL, &cast));
	TRY(dalic_op_add_input(cast, dalic_op_output(add, 0), NULL));
	TRY(dalic_op_set_int(cast, "dtype", DALIC_INT32));
	TRY(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
	return dalic_pipeline_add_output(p, dalic_op_output(cast, 0), NULL);
}

static const dalic_cli_sample_t coin = {"coin", "coin_flip(probability=0.7)", define_coin, 8};
static const dalic_cli_sample_t arith = {
	"arith", "uniform -> x*2 + coin_flip -> cast(INT32), batch 32 of scalars", define_arith,
	32};

const dalic_cli_sample_t *const dalic_cli_samples[] = {&arith, &coin, NULL};

const dalic_cli_sample_t *dalic_cli_sample_find(const char *name)
{
	for (int i = 0; dalic_cli_samples[i]; i++)
		if (!strcmp(dalic_cli_samples[i]->name, name))
			return dalic_cli_samples[i];
	return NULL;
}
