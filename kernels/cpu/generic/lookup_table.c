/*
 * lookup_table (DALI's LookupTable): maps integer inputs through a table of keys to values;
 * inputs outside the keys (negative ones included) get default_value. Keys are in
 * [0, 65535]; a key listed twice takes its last value. Values are float32, as DALI stores
 * them, converted to `dtype` (FLOAT by default) with ConvertSat: rounded half away from zero
 * and saturated for integers. Shape and layout pass through.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <stdlib.h>
#include <string.h>

#define LOOKUP_TABLE_MAX_KEY 65535

typedef struct lookup_table_state {
	dalic_dtype_t out;
	uint8_t *table;      /* max_key + 1 entries of `out` */
	int64_t max_key;     /* -1 when there are no keys */
	_Alignas(8) uint8_t fallback[8]; /* default_value in `out` */
} lookup_table_state_t;

static int lookup_table_init(dalic_op_ctx_t *ctx)
{
	lookup_table_state_t *st = ctx->state;
	const char *arg = dalic_arg_given(ctx, "dtype") || !dalic_arg_given(ctx, "output_dtype")
	                      ? "dtype"
	                      : "output_dtype";
	st->out = (dalic_dtype_t)dalic_arg_int(ctx, arg);
	if (!dalic_dtype_is_numeric(st->out))
		return dalic_op_fail(ctx, NULL, -1, "Unsupported output type: %s",
		                     dalic_dtype_name(st->out));
	const dalic_value_t *keys = dalic_arg(ctx, "keys"), *values = dalic_arg(ctx, "values");
	if (keys->n != values->n)
		return dalic_op_fail(ctx, NULL, -1, "`keys` size should match `values` size");
	st->max_key = -1;
	for (int k = 0; k < keys->n; k++) {
		int64_t key = dalic_value_get_i(keys, k);
		if (key < 0 || key > LOOKUP_TABLE_MAX_KEY)
			return dalic_op_fail(ctx, NULL, -1, "`keys` should be in the range [0, %d]",
			                     LOOKUP_TABLE_MAX_KEY);
		st->max_key = key > st->max_key ? key : st->max_key;
	}
	float fallback = (float)dalic_arg_float(ctx, "default_value");
	dalic_dtype_store_sat(st->out, st->fallback, 0, fallback);
	size_t es = dalic_dtype_size(st->out);
	st->table = malloc((size_t)(st->max_key + 1) * es + 1);
	if (!st->table)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int64_t k = 0; k <= st->max_key; k++)
		memcpy(st->table + (size_t)k * es, st->fallback, es);
	for (int k = 0; k < keys->n; k++)
		dalic_dtype_store_sat(st->out, st->table, dalic_value_get_i(keys, k),
		                      (float)dalic_value_get_f(values, k));
	return DALIC_OK;
}

static void lookup_table_fini(dalic_op_ctx_t *ctx)
{
	lookup_table_state_t *st = ctx->state;
	free(st->table);
}

static int lookup_table_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const lookup_table_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (!dalic_dtype_is_integral(in->dtype) || in->dtype == DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in); /* shapes, layout, sources */
	ws->outputs[0]->dtype = st->out;
	return rc;
}

static int lookup_table_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const lookup_table_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	uint8_t *o = ws->outputs[0]->ptrs[i];
	size_t es = dalic_dtype_size(st->out);
	int64_t n = dalic_batch_sample_elems(in, i);
	bool wide = in->dtype == DALIC_UINT64;
	for (int64_t k = 0; k < n; k++) {
		int64_t key = dalic_dtype_load_i64(in->dtype, in->ptrs[i], k);
		bool hit = key >= 0 && key <= st->max_key &&
		           !(wide && ((const uint64_t *)in->ptrs[i])[k] > (uint64_t)st->max_key);
		memcpy(o + (size_t)k * es, hit ? st->table + (size_t)key * es : st->fallback, es);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"keys", DALIC_ARG_INT_LIST, "[]", "Input values with an entry, in [0, 65535]."},
    {"values", DALIC_ARG_FLOAT_LIST, "[]", "The outputs of the keys, one per key."},
    {"default_value", DALIC_ARG_FLOAT, "0.0", "The output of inputs without a key."},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type."},
    {"output_dtype", DALIC_ARG_DTYPE, "None", "Deprecated alias of dtype."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(lookup_table_state_t),
    .init = lookup_table_init,
    .setup = lookup_table_setup,
    .run_sample = lookup_table_run_sample,
    .fini = lookup_table_fini,
};

DALIC_OPERATOR(LookupTable) = {
    .name = "LookupTable",
    .fn = "lookup_table",
    .doc = "Maps integer inputs to values through a table of keys and values, with a default "
           "for the others.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
