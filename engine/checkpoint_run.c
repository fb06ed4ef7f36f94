/*
 * A pipeline's checkpoints (include/dalic.h "checkpoints"): traces at build, restore of a
 * given checkpoint at build (DALI's checks and messages, ../shared/reference/dali-checkpoint.md
 * §2.3), checkpoint() after the last consumed output, and the seek that moves operator
 * states on without running iterations.
 */
#include "engine/checkpoint_run.h"

#include "engine/error.h"
#include "engine/executor.h"
#include "engine/graph_seeds.h"
#include "engine/opctx.h"
#include "engine/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dalic_ckpt_run {
	dalic_ckpt_t *pending; /* set_checkpoint: restored at build */
	char *pending_what;
	dalic_ckpt_trace_t *traces; /* per graph node, when enable_checkpointing */
	int num_traces;
	int64_t base;           /* the restored checkpoint's iter, plus seeks */
	int64_t consumed;       /* outputs taken since build */
	int64_t last_iteration; /* executor iteration of the last output taken, -1: none */
	int64_t epoch_idx;
	char *iterator_data;
};

static void ckrun_free_traces(dalic_ckpt_run_t *r)
{
	for (int i = 0; i < r->num_traces; i++) {
		pthread_mutex_destroy(&r->traces[i].mu);
		free(r->traces[i].ring);
	}
	free(r->traces);
	r->traces = NULL;
	r->num_traces = 0;
}

void dalic_ckpt_run_free(dalic_ckpt_run_t *r)
{
	if (!r)
		return;
	ckrun_free_traces(r);
	dalic_ckpt_free(r->pending);
	free(r->pending_what);
	free(r->iterator_data);
	free(r);
}

static int ckrun_get(dalic_pipeline_t *p, dalic_ckpt_run_t **out)
{
	dalic_ckpt_run_t **slot = dalic_pipeline_ckpt(p);
	if (!*slot) {
		*slot = calloc(1, sizeof **slot);
		if (!*slot)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		(*slot)->last_iteration = -1;
	}
	*out = *slot;
	return DALIC_OK;
}

void dalic_ckpt_run_consumed(dalic_ckpt_run_t *r, int64_t iteration)
{
	r->consumed++;
	r->last_iteration = iteration;
}

void dalic_ckpt_run_epoch_end(dalic_ckpt_run_t *r)
{
	r->epoch_idx++;
}

static int ckrun_make_traces(dalic_ckpt_run_t *r, dalic_exec_t *e, const dalic_graph_t *g)
{
	int n = dalic_exec_num_nodes(e);
	r->traces = calloc((size_t)n + 1, sizeof *r->traces);
	if (!r->traces)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	/* iterations run ahead of the consumer by at most the queue depths */
	int cap = g->params.prefetch_cpu + g->params.prefetch_gpu + 4;
	for (int i = 0; i < n; i++) {
		dalic_ckpt_trace_t *t = &r->traces[i];
		dalic_op_ctx_t *ctx = dalic_exec_node(e, i)->ctx;
		pthread_mutex_init(&t->mu, NULL);
		r->num_traces = i + 1;
		DALIC_TRY(dalic_ckpt_node_kind(ctx, &t->kind));
		t->ring = calloc((size_t)cap, sizeof *t->ring);
		if (!t->ring)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		t->cap = cap;
		dalic_ckpt_rec_t init = {.iteration = -1};
		DALIC_TRY(dalic_ckpt_trace_capture(ctx, t->kind, &init));
		dalic_ckpt_trace_reset(t, &init);
		ctx->trace = t;
	}
	return DALIC_OK;
}

/* The entries map onto this graph (DALI's restore checks, in its order). */
static int ckrun_match(dalic_ckpt_run_t *r, const dalic_graph_t *g, const dalic_ckpt_t *c,
		       const char *what, const dalic_ckpt_entry_t **by_node)
{
	for (int i = 0; i < c->num_entries; i++) {
		const dalic_ckpt_entry_t *en = &c->entries[i];
		dalic_node_t *node = dalic_graph_find_node(g, en->name);
		if (!node && en->kind == DALIC_CKPT_STATELESS && !strncmp(en->name, "__MakeContiguous_", 17))
			continue; /* DALI's output copies: dalic names its own; no state */
		if (!node)
			return dalic_fail(DALIC_EGRAPH,
					  "%s: entry %d: The executor doesn't recognize \"%s\" as a "
					  "name of an operator. The checkpoint might come from another "
					  "pipeline.", what, i, en->name);
		dalic_ckpt_kind_t want = r->traces[node->index].kind;
		if (want == DALIC_CKPT_STATELESS && en->kind != want)
			return dalic_fail(DALIC_EGRAPH,
					  "%s: entry %d ('%s'): Provided checkpoint contains non-empty "
					  "data for a stateless operator. The checkpoint might come from "
					  "another pipeline.", what, i, en->name);
		if (en->kind != want)
			return dalic_fail(DALIC_EGRAPH,
					  "%s: entry %d ('%s'): holds a %s state, but the operator (%s) "
					  "is a %s one: the checkpoint comes from another pipeline",
					  what, i, en->name, dalic_ckpt_kind_name(en->kind),
					  node->schema->name, dalic_ckpt_kind_name(want));
		by_node[node->index] = en;
	}
	for (int i = 0; i < g->num_nodes; i++)
		if (r->traces[i].kind != DALIC_CKPT_STATELESS && !by_node[i])
			return dalic_fail(DALIC_EGRAPH, "%s: There's no checkpoint for operator \"%s\".",
					  what, g->nodes[i]->inst);
	return DALIC_OK;
}

static int ckrun_restore(dalic_ckpt_run_t *r, dalic_exec_t *e, const dalic_graph_t *g)
{
	const dalic_ckpt_t *c = r->pending;
	const char *what = r->pending_what ? r->pending_what : "checkpoint";
	const dalic_ckpt_entry_t **by_node = calloc((size_t)g->num_nodes + 1, sizeof *by_node);
	if (!by_node)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = ckrun_match(r, g, c, what, by_node);
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		const dalic_ckpt_entry_t *en = by_node[i];
		dalic_op_ctx_t *ctx = dalic_exec_node(e, i)->ctx;
		if (!en || en->kind == DALIC_CKPT_STATELESS)
			continue;
		if (en->kind == DALIC_CKPT_RNG)
			dalic_philox_init(&ctx->rng, en->rng.key, en->rng.ctr[1], en->rng.ctr[0],
					  en->rng.phase);
		else if ((rc = dalic_op_ctx_kernel(ctx)->ckpt_restore(ctx, &en->reader)))
			rc = dalic_fail_wrap(rc, "%s: entry '%s'", what, en->name);
		dalic_ckpt_rec_t init = {.iteration = -1};
		if (!rc)
			rc = dalic_ckpt_trace_capture(ctx, r->traces[i].kind, &init);
		if (!rc)
			dalic_ckpt_trace_reset(&r->traces[i], &init);
	}
	free(by_node);
	if (rc)
		return rc;
	r->base = c->iter;
	r->epoch_idx = c->epoch_idx;
	free(r->iterator_data);
	r->iterator_data = strdup(c->iterator_data);
	return r->iterator_data ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
}

int dalic_ckpt_run_build(dalic_pipeline_t *p)
{
	dalic_ckpt_run_t *r = NULL;
	DALIC_TRY(ckrun_get(p, &r));
	const dalic_graph_t *g = dalic_pipeline_graph(p);
	dalic_exec_t *e = dalic_pipeline_exec(p);
	ckrun_free_traces(r);
	r->base = r->consumed = 0;
	r->last_iteration = -1;
	if (!g->params.enable_checkpointing) {
		if (r->pending)
			return dalic_fail(DALIC_ESTATE, "Cannot restore checkpoint. The "
					  "`enable_checkpointing` was not specified when creating "
					  "the pipeline");
		return DALIC_OK;
	}
	if (g->params.separated_queues)
		return dalic_fail(DALIC_EUNSUPPORTED, "Checkpointing is not supported with "
				  "`separated` pipeline execution mode enabled.");
	DALIC_TRY(ckrun_make_traces(r, e, g));
	return r->pending ? ckrun_restore(r, e, g) : DALIC_OK;
}

/* ---- public API ---- */

int dalic_pipeline_set_checkpoint(dalic_pipeline_t *p, const void *bytes, size_t len,
				  const char *what)
{
	if (dalic_pipeline_graph(p))
		return dalic_fail(DALIC_ESTATE, "set_checkpoint: the pipeline is already built "
				  "(a checkpoint is restored at build)");
	dalic_ckpt_run_t *r = NULL;
	DALIC_TRY(ckrun_get(p, &r));
	dalic_ckpt_t *c;
	DALIC_TRY(dalic_ckpt_parse(bytes, len, what, &c));
	char *w = what ? strdup(what) : NULL;
	if (what && !w) {
		dalic_ckpt_free(c);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	dalic_ckpt_free(r->pending);
	free(r->pending_what);
	r->pending = c;
	r->pending_what = w;
	return DALIC_OK;
}

/* DALI's node order: operators in its operator order, each followed by the output copies of
 * its outputs (exp 9 of the reference); nodes neither lists follow in graph order. */
static int ckrun_dali_order(const dalic_graph_t *g, int *out)
{
	dalic_node_t **ops = calloc((size_t)g->num_nodes + 1, sizeof *ops);
	bool *done = calloc((size_t)g->num_nodes + 1, sizeof *done);
	int nops = ops && done ? dalic_graph_dali_order(g, ops) : -1;
	int n = 0;
	for (int i = 0; i < nops; i++) {
		if (done[ops[i]->index])
			continue;
		done[ops[i]->index] = true;
		out[n++] = ops[i]->index;
		for (int o = 0; o < g->num_outputs; o++) {
			dalic_node_t *copy = g->outputs[o]->producer;
			if (copy->internal && copy->num_inputs > 0 &&
			    copy->inputs[0]->producer == ops[i] && !done[copy->index]) {
				done[copy->index] = true;
				out[n++] = copy->index;
			}
		}
	}
	for (int i = 0; nops >= 0 && i < g->num_nodes; i++)
		if (!done[i])
			out[n++] = i;
	free(ops);
	free(done);
	return nops < 0 ? dalic_fail(DALIC_ENOMEM, "out of memory") : DALIC_OK;
}

int dalic_pipeline_checkpoint(dalic_pipeline_t *p, uint8_t **bytes, size_t *len)
{
	if (!dalic_pipeline_params(p)->enable_checkpointing)
		return dalic_fail(DALIC_ESTATE, "Cannot save the checkpoint. The "
				  "`enable_checkpointing` was not specified when creating the "
				  "pipeline");
	DALIC_TRY(dalic_pipeline_build(p)); /* DALI's checkpoint() builds first */
	dalic_ckpt_run_t *r = *dalic_pipeline_ckpt(p);
	const dalic_graph_t *g = dalic_pipeline_graph(p);
	dalic_ckpt_t *c = dalic_ckpt_new();
	if (!c)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int *order = calloc((size_t)g->num_nodes + 1, sizeof *order);
	int rc = order ? ckrun_dali_order(g, order) : dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; !rc && k < g->num_nodes; k++) {
		int i = order[k];
		dalic_ckpt_rec_t st = {0};
		rc = dalic_ckpt_trace_state_at(&r->traces[i], r->last_iteration, &st);
		if (!rc)
			rc = dalic_ckpt_add(c, g->nodes[i]->inst, r->traces[i].kind, &st.rng,
					    &st.reader);
	}
	free(order);
	c->iter = r->base + r->consumed;
	c->epoch_idx = r->epoch_idx;
	if (!rc && r->iterator_data)
		rc = dalic_ckpt_set_iterator_data(c, r->iterator_data);
	if (!rc)
		rc = dalic_ckpt_serialize(c, bytes, len);
	dalic_ckpt_free(c);
	return rc;
}

void dalic_ckpt_run_skipped(dalic_ckpt_run_t *r, dalic_exec_t *e, int64_t n)
{
	r->base += n;
	for (int i = 0; i < r->num_traces; i++) {
		dalic_op_ctx_t *ctx = dalic_exec_node(e, i)->ctx;
		dalic_ckpt_rec_t init = {.iteration = -1};
		if (!dalic_ckpt_trace_capture(ctx, r->traces[i].kind, &init))
			dalic_ckpt_trace_reset(&r->traces[i], &init);
	}
}

int64_t dalic_pipeline_position(const dalic_pipeline_t *p)
{
	const dalic_ckpt_run_t *r = *dalic_pipeline_ckpt((dalic_pipeline_t *)p);
	return r ? r->base + r->consumed : 0;
}
