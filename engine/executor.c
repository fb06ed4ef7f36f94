/*
 * The synchronous stage executor (see executor.h). One iteration: pick a free slot, ask the
 * input operators for this iteration's batch size (all must agree), run every node of the
 * cpu, mixed and gpu stages in order — setup, allocate outputs, run per sample or per batch —
 * then mark the slot ready. A failure stops the iteration, records the message with its
 * context, and marks the slot failed: the next share returns the error, and the pipeline
 * above refuses further work.
 */
#include "engine/executor.h"

#include "engine/error.h"
#include "engine/opctx.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct slot_rec {
	int slot;
	int64_t iteration;
	int status; /* DALIC_OK or the failure */
	char *error;
} slot_rec_t;

struct dalic_exec {
	dalic_graph_t *g;
	dalic_exec_node_t *nodes;
	int num_nodes;
	dalic_feed_queue_t **feeds; /* per node, NULL if not an input */
	int depth;
	/* slot queues as rings of slot_rec_t */
	slot_rec_t *ready, *in_use;
	int ready_head, ready_count, use_head, use_count;
	int *free_slots, free_count;
	int64_t next_iteration;
	dalic_observer_t obs;
	bool observed;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Pinned when a cpu buffer feeds a mixed/gpu node (DALI's policy), unless restricted or the
 * pipeline is CPU-only. */
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

static bool crosses_stage(const dalic_node_t *n, const dalic_edge_t *e)
{
	for (int c = 0; c < e->num_consumers; c++)
		if (e->consumers[c]->stage != n->stage)
			return true;
	return false;
}

static int init_node(dalic_exec_t *e, int i)
{
	dalic_exec_node_t *x = &e->nodes[i];
	dalic_node_t *n = e->g->nodes[i];
	x->node = n;
	int rc = dalic_op_ctx_create(n, e->g, e->feeds[i], &x->ctx);
	if (rc)
		return rc;
	int no = n->num_outputs;
	x->num_outputs = no;
	x->nbuf = calloc((size_t)no + 1, sizeof *x->nbuf);
	x->bufs = calloc((size_t)no + 1, sizeof *x->bufs);
	x->mem = calloc((size_t)no + 1, sizeof *x->mem);
	x->in = calloc((size_t)n->num_inputs + 1, sizeof *x->in);
	x->out = calloc((size_t)no + 1, sizeof *x->out);
	x->arg_in = calloc((size_t)n->num_arg_inputs + 1, sizeof *x->arg_in);
	if (!x->nbuf || !x->bufs || !x->mem || !x->in || !x->out || !x->arg_in)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	bool pipelined = e->g->params.exec_pipelined;
	for (int o = 0; o < no; o++) {
		dalic_edge_t *edge = n->outputs[o];
		x->nbuf[o] = edge->is_output || (pipelined && crosses_stage(n, edge)) ? e->depth : 1;
		x->bufs[o] = calloc((size_t)x->nbuf[o], sizeof **x->bufs);
		if (!x->bufs[o])
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		dalic_mem_kind_t mem = output_mem(e->g, n, edge);
		bool contiguous = n->device != DALIC_DEV_CPU || n->internal;
		for (int b = 0; b < x->nbuf[o]; b++) {
			dalic_batch_init(&x->bufs[o][b], mem, contiguous, &x->mem[o]);
			x->bufs[o][b].gpu = edge->gpu;
			/* DALI reserves only device and pinned buffers from the hint */
			if (n->hints[o] > 0 && mem != DALIC_MEM_HOST &&
			    (rc = dalic_batch_reserve(&x->bufs[o][b], (size_t)n->hints[o],
						      e->g->params.batch_size)))
				return rc;
		}
	}
	return DALIC_OK;
}

int dalic_exec_create(dalic_graph_t *g, dalic_feed_queue_t **feeds, dalic_exec_t **out)
{
	*out = NULL;
	dalic_exec_t *e = calloc(1, sizeof *e);
	if (!e)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	e->g = g;
	e->depth = g->params.prefetch_cpu > 0 ? g->params.prefetch_cpu : 1;
	if (!g->params.exec_pipelined)
		e->depth = g->params.prefetch_cpu > 0 ? g->params.prefetch_cpu : 1;
	e->num_nodes = g->num_nodes;
	e->nodes = calloc((size_t)g->num_nodes + 1, sizeof *e->nodes);
	e->feeds = calloc((size_t)g->num_nodes + 1, sizeof *e->feeds);
	e->ready = calloc((size_t)e->depth, sizeof *e->ready);
	e->in_use = calloc((size_t)e->depth, sizeof *e->in_use);
	e->free_slots = calloc((size_t)e->depth, sizeof *e->free_slots);
	int rc = DALIC_OK;
	if (!e->nodes || !e->feeds || !e->ready || !e->in_use || !e->free_slots)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		e->feeds[i] = feeds ? feeds[i] : NULL;
		rc = init_node(e, i);
	}
	if (rc) {
		dalic_exec_destroy(e);
		return rc;
	}
	for (int s = 0; s < e->depth; s++)
		e->free_slots[e->free_count++] = s;
	*out = e;
	return DALIC_OK;
}

void dalic_exec_destroy(dalic_exec_t *e)
{
	if (!e)
		return;
	for (int i = 0; e->nodes && i < e->num_nodes; i++) {
		dalic_exec_node_t *x = &e->nodes[i];
		dalic_op_ctx_destroy(x->ctx);
		for (int o = 0; o < x->num_outputs && x->bufs; o++) {
			for (int b = 0; x->bufs[o] && b < x->nbuf[o]; b++)
				dalic_batch_free(&x->bufs[o][b]);
			free(x->bufs[o]);
		}
		free(x->nbuf);
		free(x->bufs);
		free(x->mem);
		free(x->in);
		free(x->out);
		free(x->arg_in);
	}
	dalic_exec_reset_queues(e);
	free(e->nodes);
	free(e->feeds);
	free(e->ready);
	free(e->in_use);
	free(e->free_slots);
	free(e);
}

static dalic_batch_t *edge_buffer(dalic_exec_t *e, const dalic_edge_t *edge, int slot)
{
	dalic_exec_node_t *p = &e->nodes[edge->producer->index];
	int o = edge->producer_output;
	return &p->bufs[o][slot % p->nbuf[o]];
}

static void report_growth(dalic_exec_t *e, const dalic_node_t *n, int o, const dalic_batch_t *b,
			  int64_t iteration, size_t before, size_t after)
{
	int biggest = 0;
	for (int i = 1; i < b->num_samples; i++)
		if (dalic_batch_sample_bytes(b, i) > dalic_batch_sample_bytes(b, biggest))
			biggest = i;
	const char *src = b->num_samples ? b->sources[biggest] : NULL;
	e->obs.buffer_growth(e->obs.user, n, o, iteration, biggest, src, before, after);
}

static int run_node(dalic_exec_t *e, int i, int slot, int64_t iteration, int batch)
{
	dalic_exec_node_t *x = &e->nodes[i];
	dalic_node_t *n = x->node;
	for (int k = 0; k < n->num_inputs; k++)
		x->in[k] = edge_buffer(e, n->inputs[k], slot);
	for (int k = 0; k < n->num_arg_inputs; k++)
		x->arg_in[k] = edge_buffer(e, n->arg_inputs[k], slot);
	for (int o = 0; o < x->num_outputs; o++)
		x->out[o] = &x->bufs[o][slot % x->nbuf[o]];
	/* DALI: an op's batch size is its first input's, else its first argument input's */
	if (n->num_inputs > 0)
		batch = x->in[0]->num_samples;
	else if (n->num_arg_inputs > 0)
		batch = x->arg_in[0]->num_samples;
	dalic_ws_t ws = {
		.batch_size = batch,
		.iteration = iteration,
		.num_inputs = n->num_inputs,
		.inputs = x->in,
		.num_outputs = x->num_outputs,
		.outputs = x->out,
		.num_arg_inputs = n->num_arg_inputs,
		.arg_input_names = n->arg_names,
		.arg_inputs = x->arg_in,
	};
	const dalic_kernel_t *k = dalic_op_ctx_kernel(x->ctx);
	int64_t t0 = now_ns();
	int rc = k->setup ? k->setup(x->ctx, &ws) : DALIC_OK;
	for (int o = 0; !rc && o < x->num_outputs; o++) {
		size_t before = dalic_batch_capacity(x->out[o]);
		rc = dalic_batch_alloc(x->out[o]);
		size_t after = dalic_batch_capacity(x->out[o]);
		if (!rc && after > before && e->obs.buffer_growth)
			report_growth(e, n, o, x->out[o], iteration, before, after);
	}
	int64_t t1 = now_ns();
	if (!rc && k->run_sample)
		for (int s = 0; !rc && s < batch; s++)
			rc = k->run_sample(x->ctx, &ws, s, 0);
	if (!rc && k->run_sample && e->obs.work_chunk)
		e->obs.work_chunk(e->obs.user, n, iteration, 0, 0, batch, t1, now_ns());
	if (!rc && k->run)
		rc = k->run(x->ctx, &ws);
	int64_t t2 = now_ns();
	x->last_ns = t2 - t0;
	if (!rc && e->observed) {
		if (e->obs.node_run)
			e->obs.node_run(e->obs.user, n, iteration, batch, t0, t2);
		for (int o = 0; e->obs.output_memory && o < x->num_outputs; o++)
			e->obs.output_memory(e->obs.user, n, o, x->out[o], iteration);
	}
	if (rc && rc != DALIC_EEND && !strstr(dalic_last_error(), n->inst))
		dalic_fail_wrap(rc, "operator '%s' (%s), iteration %lld", n->inst, n->schema->name,
				(long long)iteration);
	return rc;
}

/* The iteration's batch size from the input operators (DALI's batch size providers). */
static int input_batch_size(dalic_exec_t *e, int64_t iteration, int *batch)
{
	int found = -1;
	for (int i = 0; i < e->num_nodes; i++) {
		if (!e->feeds[i])
			continue;
		const dalic_batch_t *b;
		int rc = dalic_feed_queue_front(e->feeds[i], iteration, false, &b);
		if (rc)
			return rc;
		if (found >= 0 && b->num_samples != found)
			return dalic_fail(DALIC_EOP,
					  "Batch size must be uniform across an iteration: input "
					  "'%s' has %d samples, another input has %d",
					  e->nodes[i].node->inst, b->num_samples, found);
		found = b->num_samples;
	}
	if (found >= 0)
		*batch = found;
	return DALIC_OK;
}

static void report_queue(dalic_exec_t *e)
{
	if (!e->obs.queue_level)
		return;
	int64_t t = now_ns();
	/* uniform queues: one slot carries an iteration through every stage */
	e->obs.queue_level(e->obs.user, DALIC_QUEUE_CPU, e->ready_count + e->use_count, e->depth, t);
	if (e->g->uses_gpu)
		e->obs.queue_level(e->obs.user, DALIC_QUEUE_GPU, e->ready_count + e->use_count,
				   e->depth, t);
}

static void push_ready(dalic_exec_t *e, int slot, int64_t iteration, int status)
{
	slot_rec_t *r = &e->ready[(e->ready_head + e->ready_count++) % e->depth];
	r->slot = slot;
	r->iteration = iteration;
	r->status = status;
	r->error = status ? strdup(dalic_last_error()) : NULL;
}

int dalic_exec_schedule(dalic_exec_t *e)
{
	if (e->free_count == 0)
		return dalic_fail(DALIC_ESTATE,
				  "all %d output buffers are in use: release_outputs() before "
				  "scheduling another iteration",
				  e->depth);
	int slot = e->free_slots[--e->free_count];
	int64_t iteration = e->next_iteration;
	int batch = e->g->params.batch_size;
	int rc = input_batch_size(e, iteration, &batch);
	if (rc == DALIC_EEND) {
		e->free_slots[e->free_count++] = slot;
		return DALIC_EEND;
	}
	int64_t t_sched = now_ns(), t_stage = t_sched;
	for (int s = 0; !rc && s < DALIC_NUM_STAGES; s++) {
		int begin = e->g->stage_begin[s], end = e->g->stage_begin[s + 1];
		for (int i = begin; !rc && i < end; i++)
			rc = run_node(e, i, slot, iteration, batch);
		if (!rc && begin < end && e->obs.stage_run) {
			int64_t t = now_ns();
			e->obs.stage_run(e->obs.user, s, iteration, t_stage, t);
			t_stage = t;
		}
	}
	if (rc == DALIC_EEND) { /* a callback ended mid-iteration: nothing was produced */
		e->free_slots[e->free_count++] = slot;
		return DALIC_EEND;
	}
	e->next_iteration++;
	push_ready(e, slot, iteration, rc);
	if (e->obs.iteration_ready)
		e->obs.iteration_ready(e->obs.user, iteration, t_sched, now_ns());
	report_queue(e);
	return DALIC_OK;
}

int dalic_exec_free_slots(const dalic_exec_t *e)
{
	return e->free_count;
}

int dalic_exec_share(dalic_exec_t *e)
{
	if (e->ready_count == 0)
		return dalic_fail(DALIC_ESTATE, "no scheduled iteration to share");
	slot_rec_t r = e->ready[e->ready_head];
	e->ready_head = (e->ready_head + 1) % e->depth;
	e->ready_count--;
	if (r.status) {
		dalic_fail(r.status, "%s", r.error ? r.error : "operator failed");
		free(r.error);
		e->free_slots[e->free_count++] = r.slot;
		return r.status;
	}
	e->in_use[(e->use_head + e->use_count++) % e->depth] = r;
	report_queue(e);
	return DALIC_OK;
}

int dalic_exec_release(dalic_exec_t *e)
{
	if (e->use_count == 0)
		return dalic_fail(DALIC_ESTATE, "release_outputs: no outputs are shared");
	slot_rec_t r = e->in_use[e->use_head];
	e->use_head = (e->use_head + 1) % e->depth;
	e->use_count--;
	e->free_slots[e->free_count++] = r.slot;
	report_queue(e);
	return DALIC_OK;
}

int dalic_exec_num_in_use(const dalic_exec_t *e)
{
	return e->use_count;
}

const dalic_batch_t *dalic_exec_output(const dalic_exec_t *e, int i)
{
	if (e->use_count == 0 || i < 0 || i >= e->g->num_outputs)
		return NULL;
	int slot = e->in_use[e->use_head].slot;
	const dalic_edge_t *edge = e->g->outputs[i];
	const dalic_exec_node_t *p = &e->nodes[edge->producer->index];
	return &p->bufs[edge->producer_output][slot % p->nbuf[edge->producer_output]];
}

void dalic_exec_reset_queues(dalic_exec_t *e)
{
	for (int i = 0; i < e->ready_count; i++) {
		slot_rec_t *r = &e->ready[(e->ready_head + i) % e->depth];
		free(r->error);
	}
	e->ready_count = e->use_count = 0;
	e->ready_head = e->use_head = 0;
	e->free_count = 0;
	for (int s = 0; s < e->depth && e->free_slots; s++)
		e->free_slots[e->free_count++] = s;
}

void dalic_exec_set_observer(dalic_exec_t *e, const dalic_observer_t *obs)
{
	if (obs)
		e->obs = *obs;
	else
		memset(&e->obs, 0, sizeof e->obs);
	e->observed = obs != NULL;
}

int dalic_exec_num_nodes(const dalic_exec_t *e)
{
	return e->num_nodes;
}

dalic_exec_node_t *dalic_exec_node(dalic_exec_t *e, int i)
{
	return &e->nodes[i];
}

int64_t dalic_exec_iterations(const dalic_exec_t *e)
{
	return e->next_iteration;
}

int dalic_exec_depth(const dalic_exec_t *e)
{
	return e->depth;
}
