/*
 * Operator contexts (see opctx.h). Arguments are resolved here once — given value or schema
 * default — so kernels read them without parsing during a run.
 */
#include "engine/opctx.h"

#include "engine/device.h"
#include "engine/error.h"
#include "kernels/common/gpu_op.h"

#include <stdlib.h>
#include <string.h>

const dalic_kernel_t *dalic_op_ctx_kernel(const dalic_op_ctx_t *ctx)
{
	if (ctx->device != DALIC_DEV_CPU && ctx->schema->cuda && !ctx->emulated)
		return ctx->schema->cuda;
	return ctx->schema->cpu;
}

static int opctx_count_args(const dalic_schema_t *s)
{
	int n = 0;
	for (const dalic_arg_schema_t *a = s->args; a && a->name; a++)
		n++;
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++)
		n++;
	return n + (s->random ? 1 : 0);
}

static int opctx_resolve_args(dalic_op_ctx_t *ctx, const dalic_node_t *node)
{
	const dalic_schema_t *s = ctx->schema;
	int n = opctx_count_args(s);
	ctx->arg_schemas = calloc((size_t)n + 1, sizeof *ctx->arg_schemas);
	ctx->arg_values = calloc((size_t)n + 1, sizeof *ctx->arg_values);
	ctx->arg_given = calloc((size_t)n + 1, sizeof *ctx->arg_given);
	if (!ctx->arg_schemas || !ctx->arg_values || !ctx->arg_given)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int k = 0;
	for (const dalic_arg_schema_t *a = s->args; a && a->name; a++)
		ctx->arg_schemas[k++] = a;
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++)
		ctx->arg_schemas[k++] = a;
	if (s->random)
		ctx->arg_schemas[k++] = dalic_schema_arg(s, "seed");
	ctx->num_args = k;
	for (int i = 0; i < k; i++) {
		const dalic_value_t *v =
		    node->def ? dalic_graphdef_op_arg(node->def, ctx->arg_schemas[i]->name) : NULL;
		int rc = v ? dalic_value_copy(&ctx->arg_values[i], v)
		           : dalic_schema_arg_default(ctx->arg_schemas[i], &ctx->arg_values[i]);
		if (rc)
			return dalic_fail_wrap(rc, "operator '%s': argument '%s'", ctx->inst,
					       ctx->arg_schemas[i]->name);
		ctx->arg_given[i] = v != NULL;
	}
	for (int i = 0; node->def && i < node->num_arg_inputs; i++)
		for (int a = 0; a < k; a++)
			if (!strcmp(ctx->arg_schemas[a]->name, node->arg_names[i]))
				ctx->arg_given[a] = true;
	return DALIC_OK;
}

/* DALI's master_rng_.init(seed, 0, 0). */
static void opctx_seed_rng(dalic_op_ctx_t *ctx)
{
	dalic_philox_init(&ctx->rng, ctx->seed, 0, 0, 0);
}

void dalic_op_ctx_advance_rng(dalic_op_ctx_t *ctx, int batch)
{
	if (ctx->schema->random && batch > 0)
		dalic_philox_skipahead_sequence(&ctx->rng, (uint64_t)batch);
}

int dalic_op_ctx_create(const dalic_node_t *node, const dalic_graph_t *g, void *engine,
			dalic_op_ctx_t **out)
{
	*out = NULL;
	dalic_op_ctx_t *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	ctx->schema = node->schema;
	ctx->def = node->def;
	ctx->inst = node->inst;
	ctx->device = node->device;
	/* emulated: a gpu/mixed op without a kernel in the dispatch table
	 * (kernels/common/gpu_dispatch.c), or no GPU at all */
	ctx->emulated = node->device != DALIC_DEV_CPU &&
			(dalic_device_backend()->emulated || !dalic_gpu_op_find(node->schema->name));
	ctx->max_batch_size = g->params.batch_size;
	ctx->num_threads = g->params.num_threads > 0 ? g->params.num_threads : 1;
	ctx->seed = node->seed;
	ctx->engine = engine;
	ctx->checkpointing = g->params.enable_checkpointing;
	int rc = opctx_resolve_args(ctx, node);
	const dalic_kernel_t *k = dalic_op_ctx_kernel(ctx);
	if (!rc && !k)
		rc = dalic_fail(DALIC_EUNSUPPORTED, "operator '%s' (%s) has no implementation",
				ctx->inst, ctx->schema->name);
	if (!rc && k->state_size && !(ctx->state = calloc(1, k->state_size)))
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc) {
		opctx_seed_rng(ctx);
		if (k->init && (rc = k->init(ctx))) {
			free(ctx->state);
			ctx->state = NULL; /* init cleans up after itself on failure */
		}
	}
	if (rc) {
		dalic_op_ctx_destroy(ctx);
		return rc;
	}
	*out = ctx;
	return DALIC_OK;
}

int dalic_op_ctx_reset(dalic_op_ctx_t *ctx)
{
	opctx_seed_rng(ctx);
	const dalic_kernel_t *k = dalic_op_ctx_kernel(ctx);
	return k && k->reset ? k->reset(ctx) : DALIC_OK;
}

void dalic_op_ctx_destroy(dalic_op_ctx_t *ctx)
{
	if (!ctx)
		return;
	const dalic_kernel_t *k = dalic_op_ctx_kernel(ctx);
	if (ctx->state && k && k->fini)
		k->fini(ctx);
	free(ctx->state);
	for (int i = 0; i < ctx->num_args; i++)
		dalic_value_free(&ctx->arg_values[i]);
	free(ctx->arg_values);
	free(ctx->arg_schemas);
	free(ctx->arg_given);
	free(ctx);
}
