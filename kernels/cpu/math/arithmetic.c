/*
 * ArithmeticGenericOp: the operator behind arithmetic on data nodes (`a + b`, `x // 2`,
 * `math.clamp(x, 0, 255)`, ...). The Python front end writes the expression in
 * `expression_desc` ("add(&0 $0:int32)"), tensor inputs are the operands "&k" and scalar
 * constants "$k:type" come from `integer_constants` / `real_constants`.
 *
 * Setup types the tree from the input dtypes (DALI's promotion table; re-typed only when an
 * input dtype changes), picks the output layout shared by the inputs, and broadcasts shapes
 * per sample numpy-style: shapes are aligned on the right, padded with leading 1s, and each
 * extent must match or be 1. Unlike DALI, zero extents broadcast like any other extent
 * instead of being rejected. Run evaluates each sample independently (arith_eval.c) with
 * per-thread scratch tiles allocated at init, so a run allocates nothing.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/arith_expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct arith_state {
	arith_expr_t expr;
	arith_tile_t *const_tiles;
	arith_tile_t *scratch; /* scratch_threads * tiles_per_thread */
	size_t tiles_per_thread;
	int scratch_threads;
	dalic_dtype_t typed_for[ARITH_MAX_INPUTS]; /* input dtypes the tree was typed for */
	bool typed;
} arith_state_t;

static int arithmetic_bad_arg(const dalic_op_ctx_t *ctx, const char *arg, const char *msg)
{
	return dalic_fail(DALIC_EINVAL, "operator '%s' (%s): argument '%s': %s", ctx->inst,
	                  ctx->schema->name, arg, msg);
}

static int arithmetic_init(dalic_op_ctx_t *ctx)
{
	arith_state_t *st = ctx->state;
	char err[512];
	const char *desc = dalic_arg_string(ctx, "expression_desc");
	if (!desc || !dalic_arith_parse(desc, &st->expr, err, sizeof err))
		return arithmetic_bad_arg(ctx, "expression_desc", desc ? err : "missing");
	const dalic_value_t *ints = dalic_arg(ctx, "integer_constants");
	const dalic_value_t *reals = dalic_arg(ctx, "real_constants");
	for (int j = 0; j < st->expr.num_nodes; j++) {
		const arith_node_t *n = &st->expr.nodes[j];
		if (n->kind != ARITH_CONST)
			continue;
		bool integral = dalic_dtype_is_integral(n->dtype);
		const dalic_value_t *list = integral ? ints : reals;
		if (n->index >= list->n) {
			snprintf(err, sizeof err, "constant $%d:%s needs %d value%s, %d given",
			         n->index, dalic_dtype_short(n->dtype), n->index + 1,
			         n->index ? "s" : "", list->n);
			return arithmetic_bad_arg(
			    ctx, integral ? "integer_constants" : "real_constants", err);
		}
	}
	/* one spare scratch set in case the executor runs samples on its own thread too */
	st->scratch_threads = ctx->num_threads + 1;
	st->tiles_per_thread = dalic_arith_scratch_tiles(&st->expr);
	st->scratch =
	    calloc(st->tiles_per_thread * (size_t)st->scratch_threads, sizeof(arith_tile_t));
	st->const_tiles = calloc((size_t)st->expr.num_constants + 1, sizeof(arith_tile_t));
	if (!st->scratch || !st->const_tiles) {
		free(st->scratch);
		free(st->const_tiles);
		return dalic_fail(DALIC_ENOMEM, "operator '%s': out of memory", ctx->inst);
	}
	dalic_arith_fill_constants(&st->expr, ints->i, reals->f, st->const_tiles);
	return DALIC_OK;
}

static void arithmetic_fini(dalic_op_ctx_t *ctx)
{
	arith_state_t *st = ctx->state;
	free(st->scratch);
	free(st->const_tiles);
}

/* The layout shared by the inputs: non-empty layouts must be suffixes of each other (HWC and
 * C may meet through broadcasting); it is kept only when it spans every output dim. */
static int arithmetic_common_layout(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int ndim,
                                    const char **out)
{
	const arith_expr_t *e = &((arith_state_t *)ctx->state)->expr;
	const char *best = "";
	int best_input = -1;
	for (int j = 0; j < e->num_nodes; j++) {
		if (e->nodes[j].kind != ARITH_INPUT)
			continue;
		const char *l = ws->inputs[e->nodes[j].index]->layout;
		size_t ll = strlen(l), bl = strlen(best);
		const char *longer = ll > bl ? l : best, *shorter = ll > bl ? best : l;
		if (strcmp(longer + strlen(longer) - strlen(shorter), shorter))
			return dalic_op_fail(ctx, ws, -1,
			                     "layouts '%s' (input &%d) and '%s' (input &%d) do not "
			                     "match",
			                     best, best_input, l, e->nodes[j].index);
		if (ll > bl) {
			best = l;
			best_input = e->nodes[j].index;
		}
	}
	*out = (int)strlen(best) == ndim ? best : "";
	return DALIC_OK;
}

static int arithmetic_retype(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	arith_state_t *st = ctx->state;
	dalic_dtype_t types[ARITH_MAX_INPUTS];
	bool same = st->typed;
	for (int k = 0; k < ws->num_inputs; k++) {
		types[k] = ws->inputs[k]->dtype;
		same = same && types[k] == st->typed_for[k];
	}
	if (same)
		return DALIC_OK;
	char err[512];
	st->typed = false;
	if (!dalic_arith_infer(&st->expr, types, ws->num_inputs, err, sizeof err))
		return dalic_op_fail(ctx, ws, -1, "%s", err);
	memcpy(st->typed_for, types, sizeof(dalic_dtype_t) * (size_t)ws->num_inputs);
	st->typed = true;
	return DALIC_OK;
}

static int arithmetic_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	arith_state_t *st = ctx->state;
	const arith_expr_t *e = &st->expr;
	for (int k = 0; k < ws->num_inputs; k++)
		if (ws->inputs[k]->num_samples != ws->batch_size)
			return dalic_op_fail(ctx, ws, -1, "input %d has %d samples, expected %d", k,
			                     ws->inputs[k]->num_samples, ws->batch_size);
	int rc = arithmetic_retype(ctx, ws);
	if (rc)
		return rc;
	int ndim = 0;
	for (int j = 0; j < e->num_nodes; j++)
		if (e->nodes[j].kind == ARITH_INPUT && ws->inputs[e->nodes[j].index]->ndim > ndim)
			ndim = ws->inputs[e->nodes[j].index]->ndim;
	const char *layout = "";
	if ((rc = arithmetic_common_layout(ctx, ws, ndim, &layout)))
		return rc;
	dalic_batch_t *out = ws->outputs[0];
	if ((rc =
	         dalic_batch_set_meta(out, ws->batch_size, e->nodes[e->num_nodes - 1].dtype, ndim)))
		return rc;
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *dims = dalic_batch_shape_mut(out, i);
		for (int d = 0; d < ndim; d++)
			dims[d] = 1;
		for (int j = 0; j < e->num_nodes; j++) {
			if (e->nodes[j].kind != ARITH_INPUT)
				continue;
			const dalic_batch_t *in = ws->inputs[e->nodes[j].index];
			const int64_t *sh = dalic_batch_shape(in, i);
			for (int d = 0; d < in->ndim; d++) {
				int64_t *t = &dims[ndim - in->ndim + d];
				if (sh[d] == 1 || sh[d] == *t)
					continue;
				if (*t != 1)
					return dalic_op_fail(
					    ctx, ws, i,
					    "cannot broadcast input &%d: extent %lld of dim %d "
					    "does not match %lld",
					    e->nodes[j].index, (long long)sh[d], d, (long long)*t);
				*t = sh[d];
			}
		}
	}
	return DALIC_OK;
}

/* Strides of input `in` (sample i) seen through the output shape: 0 on broadcast dims. */
static void arithmetic_operand_for(const dalic_batch_t *in, int i, const dalic_batch_t *out,
                                   arith_operand_t *op)
{
	dalic_arith_operand(in->ptrs[i], in->dtype, in->ndim, dalic_batch_shape(in, i), out->ndim,
	                    dalic_batch_shape(out, i), op);
}

static int arithmetic_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	arith_state_t *st = ctx->state;
	const arith_expr_t *e = &st->expr;
	if (thread < 0 || thread >= st->scratch_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d out of range (%d threads)",
		                     thread, st->scratch_threads);
	const dalic_batch_t *out = ws->outputs[0];
	arith_operand_t operands[ARITH_MAX_INPUTS];
	for (int j = 0; j < e->num_nodes; j++)
		if (e->nodes[j].kind == ARITH_INPUT)
			arithmetic_operand_for(ws->inputs[e->nodes[j].index], i, out,
			            &operands[e->nodes[j].index]);
	arith_sample_t s = {
	    .ndim = out->ndim,
	    .shape = dalic_batch_shape(out, i),
	    .elems = dalic_batch_sample_elems(out, i),
	    .inputs = operands,
	    .out = out->ptrs[i],
	};
	int bad = dalic_arith_eval_sample(
	    e, &s, st->scratch + st->tiles_per_thread * (size_t)thread, st->const_tiles);
	if (bad >= 0) {
		const arith_node_t *n = &e->nodes[bad];
		return dalic_op_fail(
		    ctx, ws, i, "integer division by zero in `%s` (position %d of \"%s\")",
		    dalic_arith_op_name(n->op), n->pos, dalic_arg_string(ctx, "expression_desc"));
	}
	return DALIC_OK;
}

const arith_expr_t *dalic_arith_op_expr(const dalic_op_ctx_t *ctx,
                                       const arith_tile_t **const_tiles)
{
	const arith_state_t *st = ctx->state;
	*const_tiles = st->const_tiles;
	return &st->expr;
}

static const dalic_arg_schema_t args[] = {
    {"expression_desc", DALIC_ARG_STRING, NULL,
     "Expression in Polish notation with parentheses: functions by name, \"&k\" = k-th tensor "
     "input, \"$k:type\" = k-th constant, e.g. \"add(&0 mul(&1 $0:int8))\"."},
    {"integer_constants", DALIC_ARG_INT_LIST, "[]", "Values of the integral constants."},
    {"real_constants", DALIC_ARG_FLOAT_LIST, "[]", "Values of the floating-point constants."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(arith_state_t),
    .init = arithmetic_init,
    .setup = arithmetic_setup,
    .run_sample = arithmetic_run_sample,
    .fini = arithmetic_fini,
};

DALIC_OPERATOR(ArithmeticGenericOp) = {
    .name = "_ArithmeticGenericOp", /* DALI 2.4's schema; older DALI wrote the other */
    .fn = "arithmetic_generic_op",
    .aliases = {"ArithmeticGenericOp"},
    .doc = "Element-wise arithmetic on tensors with broadcasting, as written by Python "
           "operators on data nodes.",
    .min_inputs = 1,
    .max_inputs = ARITH_MAX_INPUTS,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
