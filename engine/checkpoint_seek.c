/*
 * dalic_pipeline_seek: n iterations on without running them. What an iteration changes in a
 * pipeline without external inputs or conditionals is the readers' picks (made without
 * reading: they never depend on data) and the random operators' counters (batch size
 * sequences per iteration, whatever the data: DALI draws per sample from counter-based
 * Philox streams). Everything else is a function of its inputs. Where that does not hold the
 * iterations run, and the caller is told which operators made them.
 */
#include "engine/checkpoint_run.h"

#include "engine/error.h"
#include "engine/executor.h"
#include "engine/opctx.h"
#include "engine/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why node x cannot be moved on without running, or NULL. */
static const char *ckseek_blocker(const dalic_exec_node_t *x)
{
	const dalic_schema_t *s = x->node->schema;
	const dalic_kernel_t *k = dalic_op_ctx_kernel(x->ctx);
	if (s->is_input)
		return "its data comes from outside";
	if (!strcmp(s->name, "_conditional__Split") || !strcmp(s->name, "_conditional__Merge"))
		return "a conditional: batch sizes depend on the data";
	if (k && k->reader_meta && !k->skip)
		return "a reader without a seek";
	return NULL;
}

/* "'a' (why), 'b' (why)" of every blocking node into a new string; NULL when none. */
static int ckseek_blockers(const dalic_exec_node_t *nodes, int num, char **out)
{
	*out = NULL;
	size_t len = 0;
	for (int i = 0; i < num; i++) {
		const dalic_exec_node_t *x = &nodes[i];
		const char *why = ckseek_blocker(x);
		if (!why)
			continue;
		size_t add = strlen(x->node->inst) + strlen(why) + 8;
		char *s = realloc(*out, len + add + 1);
		if (!s) {
			free(*out);
			*out = NULL;
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		}
		*out = s;
		len += (size_t)snprintf(s + len, add + 1, "%s'%s' (%s)", len ? ", " : "",
					x->node->inst, why);
	}
	return DALIC_OK;
}

static int ckseek_run(dalic_pipeline_t *p, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		DALIC_TRY(dalic_pipeline_run(p));
	return DALIC_OK;
}

int dalic_ckpt_move_nodes(dalic_exec_node_t *nodes, int num, int64_t n, char **why)
{
	DALIC_TRY(ckseek_blockers(nodes, num, why));
	if (*why)
		return DALIC_OK;
	for (int i = 0; i < num; i++) {
		dalic_op_ctx_t *ctx = nodes[i].ctx;
		const dalic_kernel_t *k = dalic_op_ctx_kernel(ctx);
		if (k && k->reader_meta)
			DALIC_TRY(k->skip(ctx, n));
		else if (ctx->schema->random)
			dalic_philox_skipahead_sequence(&ctx->rng,
							(uint64_t)n * (uint64_t)ctx->max_batch_size);
	}
	return DALIC_OK;
}

int dalic_pipeline_seek(dalic_pipeline_t *p, int64_t n, char **ran_because)
{
	if (ran_because)
		*ran_because = NULL;
	if (n < 0)
		return dalic_fail(DALIC_EINVAL, "seek: %lld iterations (must be >= 0)", (long long)n);
	DALIC_TRY(dalic_pipeline_build(p));
	dalic_exec_t *e = dalic_pipeline_exec(p);
	if (dalic_exec_iterations(e) > 0)
		return dalic_fail(DALIC_ESTATE, "seek: only before the pipeline's first run");
	if (n == 0)
		return DALIC_OK;
	char *why;
	DALIC_TRY(dalic_ckpt_move_nodes(dalic_exec_node(e, 0), dalic_exec_num_nodes(e), n, &why));
	if (why) {
		int rc = ckseek_run(p, n);
		if (ran_because && !rc)
			*ran_because = why;
		else
			free(why);
		return rc;
	}
	DALIC_TRY(dalic_exec_skip_iterations(e, n));
	dalic_ckpt_run_skipped(*dalic_pipeline_ckpt(p), e, n);
	return DALIC_OK;
}
