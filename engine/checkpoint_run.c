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
	dalic_op_ctx_t **ctxs; /* during a restore: per node */
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
static int ckrun_match(const dalic_ckpt_kind_t *kinds, const dalic_graph_t *g,
		       const dalic_ckpt_t *c, const char *what, const dalic_ckpt_entry_t **by_node)
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
		dalic_ckpt_kind_t want = kinds[node->index];
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
		if (kinds[i] != DALIC_CKPT_STATELESS && !by_node[i])
			return dalic_fail(DALIC_EGRAPH, "%s: There's no checkpoint for operator \"%s\".",
					  what, g->nodes[i]->inst);
	return DALIC_OK;
}

/* Entry en's state into the node's context. */
static int ckrun_restore_node(dalic_op_ctx_t *ctx, const dalic_ckpt_entry_t *en, const char *what)
{
	if (en->kind == DALIC_CKPT_RNG) {
		dalic_philox_init(&ctx->rng, en->rng.key, en->rng.ctr[1], en->rng.ctr[0],
				  en->rng.phase);
		return DALIC_OK;
	}
	int rc = dalic_op_ctx_kernel(ctx)->ckpt_restore(ctx, &en->reader);
	return rc ? dalic_fail_wrap(rc, "%s: entry '%s'", what, en->name) : DALIC_OK;
}

/* Matches c against the graph (kinds per node) and restores every stateful node's context;
 * on_restored (may be NULL) follows each one. */
static int ckrun_restore_nodes(const dalic_graph_t *g, dalic_op_ctx_t *const *ctxs,
			       const dalic_ckpt_kind_t *kinds, const dalic_ckpt_t *c,
			       const char *what, void (*on_restored)(void *, int), void *user)
{
	const dalic_ckpt_entry_t **by_node = calloc((size_t)g->num_nodes + 1, sizeof *by_node);
	if (!by_node)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = ckrun_match(kinds, g, c, what, by_node);
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		const dalic_ckpt_entry_t *en = by_node[i];
		if (!en || en->kind == DALIC_CKPT_STATELESS)
			continue;
		rc = ckrun_restore_node(ctxs[i], en, what);
		if (!rc && on_restored)
			on_restored(user, i);
	}
	free(by_node);
	return rc;
}

/* After node i's restore its trace starts from the restored state. */
static void ckrun_retrace(void *user, int i)
{
	dalic_ckpt_run_t *r = user;
	dalic_ckpt_rec_t init = {.iteration = -1};
	if (!dalic_ckpt_trace_capture(r->ctxs[i], r->traces[i].kind, &init))
		dalic_ckpt_trace_reset(&r->traces[i], &init);
}

static int ckrun_restore(dalic_ckpt_run_t *r, dalic_exec_t *e, const dalic_graph_t *g)
{
	const dalic_ckpt_t *c = r->pending;
	const char *what = r->pending_what ? r->pending_what : "checkpoint";
	dalic_ckpt_kind_t *kinds = calloc((size_t)g->num_nodes + 1, sizeof *kinds);
	r->ctxs = calloc((size_t)g->num_nodes + 1, sizeof *r->ctxs);
	int rc = kinds && r->ctxs ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		kinds[i] = r->traces[i].kind;
		r->ctxs[i] = dalic_exec_node(e, i)->ctx;
	}
	if (!rc)
		rc = ckrun_restore_nodes(g, r->ctxs, kinds, c, what, ckrun_retrace, r);
	free(kinds);
	free(r->ctxs);
	r->ctxs = NULL;
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

/* The checkpoint of the graph's nodes in DALI's order, state i from state_of(user, i). */
static int ckrun_write(const dalic_graph_t *g, int (*state_of)(void *, int, dalic_ckpt_kind_t *,
							       dalic_ckpt_rec_t *),
		       void *user, int64_t iter, int64_t epoch_idx, const char *iterator_data,
		       uint8_t **bytes, size_t *len)
{
	dalic_ckpt_t *c = dalic_ckpt_new();
	if (!c)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int *order = calloc((size_t)g->num_nodes + 1, sizeof *order);
	int rc = order ? ckrun_dali_order(g, order) : dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; !rc && k < g->num_nodes; k++) {
		int i = order[k];
		dalic_ckpt_rec_t st = {0};
		dalic_ckpt_kind_t kind = DALIC_CKPT_STATELESS;
		rc = state_of(user, i, &kind, &st);
		if (!rc)
			rc = dalic_ckpt_add(c, g->nodes[i]->inst, kind, &st.rng, &st.reader);
	}
	free(order);
	c->iter = iter;
	c->epoch_idx = epoch_idx;
	if (!rc && iterator_data)
		rc = dalic_ckpt_set_iterator_data(c, iterator_data);
	if (!rc)
		rc = dalic_ckpt_serialize(c, bytes, len);
	dalic_ckpt_free(c);
	return rc;
}

/* The pipeline's state i: the one traced after the last consumed iteration. */
static int ckrun_traced_state(void *user, int i, dalic_ckpt_kind_t *kind, dalic_ckpt_rec_t *st)
{
	dalic_ckpt_run_t *r = user;
	*kind = r->traces[i].kind;
	return dalic_ckpt_trace_state_at(&r->traces[i], r->last_iteration, st);
}

int dalic_pipeline_checkpoint(dalic_pipeline_t *p, uint8_t **bytes, size_t *len)
{
	if (!dalic_pipeline_params(p)->enable_checkpointing)
		return dalic_fail(DALIC_ESTATE, "Cannot save the checkpoint. The "
				  "`enable_checkpointing` was not specified when creating the "
				  "pipeline");
	DALIC_TRY(dalic_pipeline_build(p)); /* DALI's checkpoint() builds first */
	dalic_ckpt_run_t *r = *dalic_pipeline_ckpt(p);
	return ckrun_write(dalic_pipeline_graph(p), ckrun_traced_state, r, r->base + r->consumed,
			   r->epoch_idx, r->iterator_data, bytes, len);
}

/* ---- nodes outside a pipeline's executor (debug mode) ---- */

/* A node's state now. */
static int ckrun_state_now(void *user, int i, dalic_ckpt_kind_t *kind, dalic_ckpt_rec_t *st)
{
	dalic_exec_node_t *nodes = user;
	DALIC_TRY(dalic_ckpt_node_kind(nodes[i].ctx, kind));
	return dalic_ckpt_trace_capture(nodes[i].ctx, *kind, st);
}

static int ckrun_need_checkpointing(const dalic_graph_t *g, const char *msg)
{
	return g->params.enable_checkpointing ? DALIC_OK : dalic_fail(DALIC_ESTATE, "%s", msg);
}

int dalic_ckpt_nodes_save(const dalic_graph_t *g, dalic_exec_node_t *nodes, int64_t iter,
			  int64_t epoch_idx, const char *iterator_data, uint8_t **bytes, size_t *len)
{
	DALIC_TRY(ckrun_need_checkpointing(g, "Cannot save the checkpoint. The "
					   "`enable_checkpointing` was not specified when "
					   "creating the pipeline"));
	return ckrun_write(g, ckrun_state_now, nodes, iter, epoch_idx, iterator_data, bytes, len);
}

int dalic_ckpt_nodes_restore(const dalic_graph_t *g, dalic_exec_node_t *nodes,
			     const dalic_ckpt_t *c, const char *what)
{
	DALIC_TRY(ckrun_need_checkpointing(g, "Cannot restore checkpoint. The "
					   "`enable_checkpointing` was not specified when "
					   "creating the pipeline"));
	dalic_ckpt_kind_t *kinds = calloc((size_t)g->num_nodes + 1, sizeof *kinds);
	dalic_op_ctx_t **ctxs = calloc((size_t)g->num_nodes + 1, sizeof *ctxs);
	int rc = kinds && ctxs ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		ctxs[i] = nodes[i].ctx;
		rc = dalic_ckpt_node_kind(ctxs[i], &kinds[i]);
	}
	if (!rc)
		rc = ckrun_restore_nodes(g, ctxs, kinds, c, what ? what : "checkpoint", NULL, NULL);
	free(kinds);
	free(ctxs);
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
