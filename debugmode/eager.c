/*
 * The eager executor (see eager.h). Nodes run in definition order: the order in which the
 * definition added its operators (always topological, since an input must exist before it is
 * used), with each node the build inserted (transfers, MakeContiguous) placed right after the
 * nodes it reads. The full engine orders by stage instead; both orders are topological and the
 * kernels depend only on their inputs, seeds and the iteration, so the outputs are the same.
 *
 * Running a node mirrors the full engine's run_node(): the same workspace, setup, output
 * allocation, run_sample over the per-sample thread pool or run for the whole batch, with the
 * same memory kinds and contiguity for output buffers.
 */
#include "debugmode/eager.h"

#include "engine/error.h"
#include "engine/opctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The full engine's placement rule (executor.c): device memory for mixed/gpu outputs, pinned
 * when a cpu buffer feeds a mixed/gpu node, host otherwise. */
static dalic_mem_kind_t output_mem(const dalic_graph_t *g, const dalic_node_t *n,
                                   const dalic_edge_t *e)
{
	if (n->device != DALIC_DEV_CPU)
		return DALIC_MEM_DEVICE;
	if (g->params.device_id == DALIC_CPU_ONLY_DEVICE_ID || dalic_mem_config()->restrict_pinned)
		return DALIC_MEM_HOST;
	for (int c = 0; c < e->num_consumers; c++)
		if (e->consumers[c]->device != DALIC_DEV_CPU)
			return DALIC_MEM_PINNED;
	return DALIC_MEM_HOST;
}

static int init_names(dalic_eager_node_t *x)
{
	const dalic_node_t *n = x->node;
	int ni = n->num_inputs + n->num_arg_inputs;
	x->input_names = calloc((size_t)ni + 1, sizeof *x->input_names);
	x->input_args = calloc((size_t)ni + 1, sizeof *x->input_args);
	x->output_names = calloc((size_t)n->num_outputs + 1, sizeof *x->output_names);
	if (!x->input_names || !x->input_args || !x->output_names)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < n->num_inputs; k++)
		x->input_names[k] = n->inputs[k]->name;
	for (int k = 0; k < n->num_arg_inputs; k++) {
		x->input_names[n->num_inputs + k] = n->arg_inputs[k]->name;
		x->input_args[n->num_inputs + k] = n->arg_names[k];
	}
	for (int o = 0; o < n->num_outputs; o++)
		x->output_names[o] = n->outputs[o]->name;
	return DALIC_OK;
}

static int init_node(dalic_eager_t *e, int i, dalic_source_log_t *logs, int num_logs)
{
	dalic_eager_node_t *x = &e->nodes[i];
	dalic_node_t *n = e->g->nodes[i];
	x->node = n;
	x->last_iteration = -1;
	if (n->schema->is_input) {
		x->feed = calloc(1, sizeof *x->feed);
		if (!x->feed)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		int rc = dalic_feed_queue_init(x->feed, n->inst, e->g->params.batch_size);
		if (rc)
			return rc;
		for (int l = 0; l < num_logs; l++)
			if (!strcmp(logs[l].name, n->inst))
				x->reader.log = &logs[l];
		if (x->reader.log) {
			x->feed->fn = dalic_source_log_callback;
			x->feed->user = &x->reader;
		}
	}
	int rc = dalic_op_ctx_create(n, e->g, x->feed, &x->ctx);
	if (rc)
		return rc;
	int no = n->num_outputs;
	x->out = calloc((size_t)no + 1, sizeof *x->out);
	x->mem = calloc((size_t)no + 1, sizeof *x->mem);
	x->outp = calloc((size_t)no + 1, sizeof *x->outp);
	x->in = calloc((size_t)n->num_inputs + 1, sizeof *x->in);
	x->arg_in = calloc((size_t)n->num_arg_inputs + 1, sizeof *x->arg_in);
	if (!x->out || !x->mem || !x->outp || !x->in || !x->arg_in)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int o = 0; o < no; o++) {
		dalic_edge_t *edge = n->outputs[o];
		dalic_mem_kind_t mem = output_mem(e->g, n, edge);
		bool contiguous = n->device != DALIC_DEV_CPU || n->internal;
		dalic_batch_init(&x->out[o], mem, contiguous, &x->mem[o]);
		x->out[o].gpu = edge->gpu;
		x->outp[o] = &x->out[o];
		/* DALI reserves only device and pinned buffers from the hint */
		if (n->hints[o] > 0 && mem != DALIC_MEM_HOST &&
		    (rc = dalic_batch_reserve(&x->out[o], (size_t)n->hints[o],
		                              e->g->params.batch_size)))
			return rc;
	}
	return init_names(x);
}

static bool inputs_placed(const dalic_node_t *n, const bool *placed)
{
	for (int k = 0; k < n->num_inputs; k++)
		if (n->inputs[k]->producer && !placed[n->inputs[k]->producer->index])
			return false;
	for (int k = 0; k < n->num_arg_inputs; k++)
		if (n->arg_inputs[k]->producer && !placed[n->arg_inputs[k]->producer->index])
			return false;
	return true;
}

/* Definition order, inserted nodes right after what they read (see the top of the file). */
static int make_order(dalic_eager_t *e)
{
	const dalic_graph_t *g = e->g;
	bool *placed = calloc((size_t)g->num_nodes + 1, sizeof *placed);
	e->order = calloc((size_t)g->num_nodes + 1, sizeof *e->order);
	if (!placed || !e->order) {
		free(placed);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	int w = 0;
	for (int d = 0; d <= e->def->num_ops; d++) {
		if (d < e->def->num_ops) {
			const dalic_node_t *n = dalic_graph_find_node(g, e->def->ops[d]->inst);
			if (!n || placed[n->index])
				continue;
			if (!inputs_placed(n, placed))
				break; /* not topological after all: use the engine's order */
			placed[n->index] = true;
			e->order[w++] = n->index;
		}
		for (bool more = true; more;) {
			more = false;
			for (int i = 0; i < g->num_nodes; i++) {
				const dalic_node_t *n = g->nodes[i];
				if (placed[i] || n->def || !inputs_placed(n, placed))
					continue;
				placed[i] = true;
				e->order[w++] = i;
				more = true;
			}
		}
	}
	if (w != g->num_nodes)
		for (w = 0; w < g->num_nodes; w++)
			e->order[w] = w;
	e->num_ops = g->num_nodes;
	free(placed);
	return DALIC_OK;
}

int dalic_eager_create(const dalic_graphdef_t *def, dalic_source_log_t *logs, int num_logs,
                       dalic_eager_t **out)
{
	*out = NULL;
	dalic_eager_t *e = calloc(1, sizeof *e);
	if (!e)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = DALIC_OK;
	e->def = dalic_graphdef_clone(def);
	if (!e->def)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc)
		rc = dalic_graph_build(e->def, &e->g);
	if (!rc) {
		/* the seed actually used, so a measurement or a re-open reproduces this run */
		e->def->params.seed = e->g->params.seed;
		e->nodes = calloc((size_t)e->g->num_nodes + 1, sizeof *e->nodes);
		if (!e->nodes)
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	for (int i = 0; !rc && i < e->g->num_nodes; i++)
		rc = init_node(e, i, logs, num_logs);
	if (!rc)
		rc = make_order(e);
	e->threads = e->g && e->g->params.num_threads > 0 ? e->g->params.num_threads : 1;
	if (!rc && e->threads > 1)
		rc = dalic_pool_create(e->threads, NULL, &e->pool);
	if (rc) {
		dalic_eager_destroy(e);
		return rc;
	}
	*out = e;
	return DALIC_OK;
}

void dalic_eager_destroy(dalic_eager_t *e)
{
	if (!e)
		return;
	dalic_pool_destroy(e->pool);
	for (int i = 0; e->nodes && i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		dalic_op_ctx_destroy(x->ctx);
		for (int o = 0; x->out && o < x->node->num_outputs; o++)
			dalic_batch_free(&x->out[o]);
		if (x->feed) {
			dalic_feed_queue_destroy(x->feed);
			free(x->feed);
		}
		free(x->out);
		free(x->mem);
		free(x->outp);
		free(x->in);
		free(x->arg_in);
		free(x->input_names);
		free(x->input_args);
		free(x->output_names);
	}
	free(e->nodes);
	free(e->order);
	dalic_graph_free(e->g);
	dalic_graphdef_free(e->def);
	free(e);
}

int dalic_eager_begin(dalic_eager_t *e, int64_t iteration)
{
	int found = -1;
	const char *first = NULL;
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		if (!x->feed)
			continue;
		const dalic_batch_t *b;
		int rc = dalic_feed_queue_front(x->feed, iteration, false, &b);
		if (rc)
			return rc;
		if (found >= 0 && b->num_samples != found)
			return dalic_fail(DALIC_EOP,
			                  "Batch size must be uniform across an iteration: input "
			                  "'%s' has %d samples, input '%s' has %d",
			                  x->node->inst, b->num_samples, first, found);
		found = b->num_samples;
		first = x->node->inst;
	}
	e->batch = found >= 0 ? found : e->g->params.batch_size;
	return DALIC_OK;
}

typedef struct sample_job {
	const dalic_kernel_t *k;
	dalic_op_ctx_t *ctx;
	const dalic_ws_t *ws;
} sample_job_t;

static int run_one_sample(void *arg, int item, int thread)
{
	sample_job_t *j = arg;
	return j->k->run_sample(j->ctx, j->ws, item, thread);
}

/* Samples in parallel on the pool (the lowest failing sample is the one reported, whatever
 * the thread timing), or inline when there is one thread. */
static int run_samples(dalic_eager_t *e, sample_job_t *j, int batch, int *failed)
{
	if (!e->pool || batch < 2) {
		for (int s = 0; s < batch; s++) {
			int rc = j->k->run_sample(j->ctx, j->ws, s, 0);
			if (rc) {
				*failed = s;
				return rc;
			}
		}
		return DALIC_OK;
	}
	dalic_pool_job_t job = {.fn = run_one_sample, .arg = j, .count = batch};
	int rc = dalic_pool_run(e->pool, &job);
	if (rc)
		*failed = job.failed_item;
	return rc;
}

/* The sample a kernel's message names (dalic_op_fail writes ", sample N"), or -1. */
static int sample_from_message(const char *msg)
{
	const char *p = strstr(msg, ", sample ");
	int s;
	return p && sscanf(p, ", sample %d", &s) == 1 ? s : -1;
}

int dalic_eager_run_op(dalic_eager_t *e, int k, int64_t iteration, int *failed_sample)
{
	dalic_eager_node_t *x = &e->nodes[e->order[k]];
	dalic_node_t *n = x->node;
	*failed_sample = -1;
	for (int i = 0; i < n->num_inputs; i++) {
		const dalic_edge_t *edge = n->inputs[i];
		x->in[i] = &e->nodes[edge->producer->index].out[edge->producer_output];
	}
	for (int i = 0; i < n->num_arg_inputs; i++) {
		const dalic_edge_t *edge = n->arg_inputs[i];
		x->arg_in[i] = &e->nodes[edge->producer->index].out[edge->producer_output];
	}
	/* DALI: an op's batch size is its first input's, else its first argument input's */
	int batch = e->batch;
	if (n->num_inputs > 0)
		batch = x->in[0]->num_samples;
	else if (n->num_arg_inputs > 0)
		batch = x->arg_in[0]->num_samples;
	dalic_ws_t ws = {
	    .batch_size = batch,
	    .iteration = iteration,
	    .num_inputs = n->num_inputs,
	    .inputs = x->in,
	    .num_outputs = n->num_outputs,
	    .outputs = x->outp,
	    .num_arg_inputs = n->num_arg_inputs,
	    .arg_input_names = n->arg_names,
	    .arg_inputs = x->arg_in,
	};
	const dalic_kernel_t *kern = dalic_op_ctx_kernel(x->ctx);
	int64_t t0 = now_ns();
	int rc = kern->setup ? kern->setup(x->ctx, &ws) : DALIC_OK;
	for (int o = 0; !rc && o < n->num_outputs; o++)
		rc = dalic_batch_alloc(&x->out[o]);
	bool per_sample_failure = false;
	if (!rc && kern->run_sample) {
		sample_job_t job = {.k = kern, .ctx = x->ctx, .ws = &ws};
		rc = run_samples(e, &job, batch, failed_sample);
		per_sample_failure = rc != DALIC_OK;
	}
	if (!rc && kern->run)
		rc = kern->run(x->ctx, &ws);
	int64_t t1 = now_ns();
	x->last_ns = t1 - t0;
	x->total_ns += x->last_ns;
	x->runs++;
	if (!rc) {
		x->last_iteration = iteration;
		return DALIC_OK;
	}
	if (rc == DALIC_EEND)
		return rc;
	if (!per_sample_failure)
		*failed_sample = sample_from_message(dalic_last_error());
	if (!strstr(dalic_last_error(), n->inst))
		dalic_fail_wrap(rc, "operator '%s' (%s), iteration %lld", n->inst, n->schema->name,
		                (long long)iteration);
	return rc;
}

int dalic_eager_reset(dalic_eager_t *e)
{
	e->batch = 0;
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		int rc = dalic_op_ctx_reset(x->ctx);
		if (rc)
			return dalic_fail_wrap(rc, "restart: operator '%s'", x->node->inst);
		if (x->feed)
			dalic_feed_queue_clear(x->feed);
		x->reader.cursor = 0;
		x->last_iteration = -1;
		x->last_ns = x->total_ns = x->runs = 0;
	}
	return DALIC_OK;
}

void dalic_eager_resume_inputs(dalic_eager_t *e)
{
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_feed_queue_t *q = e->nodes[i].feed;
		if (q && q->ended && dalic_feed_queue_size(q) == 0)
			dalic_feed_queue_clear(q);
	}
}

int dalic_eager_find_node(const dalic_eager_t *e, const char *inst)
{
	const dalic_node_t *n = dalic_graph_find_node(e->g, inst);
	return n ? n->index : -1;
}
