/*
 * Argument access for kernels (kernel.h) and the operator error formatter. Arguments are
 * resolved once at build into ctx->arg_values (given value or schema default), so lookups
 * during a run never parse or allocate.
 */
#include "engine/kernel.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int args_index(const dalic_op_ctx_t *ctx, const char *name)
{
	for (int i = 0; i < ctx->num_args; i++)
		if (!strcmp(ctx->arg_schemas[i]->name, name))
			return i;
	fprintf(stderr, "dalic: bug: operator %s reads argument '%s' missing from its schema\n",
		ctx->schema->name, name);
	abort();
}

const dalic_value_t *dalic_arg(const dalic_op_ctx_t *ctx, const char *name)
{
	return &ctx->arg_values[args_index(ctx, name)];
}

bool dalic_arg_given(const dalic_op_ctx_t *ctx, const char *name)
{
	return ctx->arg_given[args_index(ctx, name)];
}

int64_t dalic_arg_int(const dalic_op_ctx_t *ctx, const char *name)
{
	return dalic_value_get_i(dalic_arg(ctx, name), 0);
}

double dalic_arg_float(const dalic_op_ctx_t *ctx, const char *name)
{
	return dalic_value_get_f(dalic_arg(ctx, name), 0);
}

bool dalic_arg_bool(const dalic_op_ctx_t *ctx, const char *name)
{
	return dalic_value_get_i(dalic_arg(ctx, name), 0) != 0;
}

const char *dalic_arg_string(const dalic_op_ctx_t *ctx, const char *name)
{
	const dalic_value_t *v = dalic_arg(ctx, name);
	return v->kind == DALIC_V_STRING && v->n > 0 ? v->s[0] : NULL;
}

const dalic_batch_t *dalic_arg_input(const dalic_ws_t *ws, const char *name)
{
	for (int i = 0; i < ws->num_arg_inputs; i++)
		if (!strcmp(ws->arg_input_names[i], name))
			return ws->arg_inputs[i];
	return NULL;
}

int dalic_arg_floats_at(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			int sample, double *out, int max, int *n)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (in) {
		if (sample >= in->num_samples)
			return dalic_op_fail(ctx, ws, sample,
					     "argument input '%s' has %d samples, batch needs %d",
					     name, in->num_samples, ws->batch_size);
		if (!dalic_dtype_is_numeric(in->dtype))
			return dalic_op_fail(ctx, ws, sample,
					     "argument input '%s' has non-numeric type %s", name,
					     dalic_dtype_name(in->dtype));
		int64_t count = dalic_batch_sample_elems(in, sample);
		if (count > max)
			return dalic_op_fail(ctx, ws, sample,
					     "argument input '%s' has %lld values, at most %d allowed",
					     name, (long long)count, max);
		for (int64_t k = 0; k < count; k++)
			out[k] = dalic_dtype_load_f64(in->dtype, in->ptrs[sample], k);
		*n = (int)count;
		return DALIC_OK;
	}
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->n > max)
		return dalic_op_fail(ctx, ws, sample, "argument '%s' has %d values, at most %d",
				     name, v->n, max);
	for (int k = 0; k < v->n; k++)
		out[k] = dalic_value_get_f(v, k);
	*n = v->n;
	return DALIC_OK;
}

int dalic_arg_float_at(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
		       int sample, double *out)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (in) {
		if (sample >= in->num_samples || dalic_batch_sample_elems(in, sample) < 1 ||
		    !dalic_dtype_is_numeric(in->dtype))
			return dalic_op_fail(ctx, ws, sample,
					     "argument input '%s' has no numeric value for this "
					     "sample",
					     name);
		*out = dalic_dtype_load_f64(in->dtype, in->ptrs[sample], 0);
		return DALIC_OK;
	}
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->kind == DALIC_V_NONE || v->n < 1)
		return dalic_op_fail(ctx, ws, sample, "argument '%s' has no value", name);
	*out = dalic_value_get_f(v, 0);
	return DALIC_OK;
}

int dalic_op_fail(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample, const char *fmt,
		  ...)
{
	char msg[1024], where[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *src = NULL;
	if (ws && sample >= 0) {
		for (int i = 0; i < ws->num_inputs && !src; i++)
			if (ws->inputs[i] && sample < ws->inputs[i]->num_samples)
				src = ws->inputs[i]->sources[sample];
		for (int i = 0; i < ws->num_outputs && !src; i++)
			if (ws->outputs[i] && sample < ws->outputs[i]->num_samples)
				src = ws->outputs[i]->sources[sample];
	}
	int n = snprintf(where, sizeof where, "operator '%s' (%s)", ctx->inst, ctx->schema->name);
	if (ws)
		n += snprintf(where + n, sizeof where - (size_t)n, ", iteration %lld",
			      (long long)ws->iteration);
	if (sample >= 0)
		n += snprintf(where + n, sizeof where - (size_t)n, ", sample %d", sample);
	if (src)
		snprintf(where + n, sizeof where - (size_t)n, ", file '%s'", src);
	return dalic_fail(DALIC_EOP, "%s: %s", where, msg);
}
