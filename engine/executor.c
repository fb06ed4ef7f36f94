/*
 * Executor creation and teardown (see executor.h for the modes, exec_internal.h for the
 * state). Everything an iteration needs is allocated here — node contexts and buffers
 * (presized by bytes_per_sample hints), the slot queues and FIFOs, the worker pool, the
 * stage threads — so a steady-state iteration allocates nothing.
 *
 * Buffering follows DALI: a pipeline output has one buffer per slot of its stage's queue;
 * when pipelined, so does every intermediate read by a later stage; the rest have one
 * buffer, which is enough because a stage runs one iteration at a time.
 */
#include "engine/exec_internal.h"

#include "engine/affinity.h"
#include "engine/device.h"
#include "engine/opctx.h"

#include <stdlib.h>
#include <string.h>

/* Pinned when a cpu buffer feeds a mixed/gpu node (DALI's policy), unless restricted or the
 * pipeline is CPU-only. */
static dalic_mem_kind_t output_mem(const dalic_graph_t *g, const dalic_node_t *n,
				   const dalic_edge_t *e)
{
	if (n->device != DALIC_DEV_CPU) /* an emulated op on a real GPU writes host memory */
		return dalic_device_backend()->emulated || n->schema->cuda ? DALIC_MEM_DEVICE
									  : DALIC_MEM_PINNED;
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

/* An edge needs one buffer per slot when it is a pipeline output, when (pipelined) a later
 * stage reads it, or when a pass-through consumer's output needs that — its samples are
 * then read through the borrowed pointers for as long. */
static bool needs_slots(const dalic_exec_t *e, const dalic_edge_t *edge)
{
	if (edge->is_output)
		return true;
	if (!e->pipelined)
		return false;
	if (crosses_stage(edge->producer, edge))
		return true;
	for (int c = 0; c < edge->num_consumers; c++) {
		const dalic_node_t *cn = edge->consumers[c];
		if (!cn->schema->passthrough)
			continue;
		for (int o = 0; o < cn->num_outputs; o++)
			if (needs_slots(e, cn->outputs[o]))
				return true;
	}
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
	int depth = e->queues[e->stage_queue[n->stage]].depth;
	for (int o = 0; o < no; o++) {
		dalic_edge_t *edge = n->outputs[o];
		bool per_slot = needs_slots(e, edge);
		x->nbuf[o] = per_slot ? depth : 1;
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
						      e->max_batch)))
				return rc;
		}
	}
	return DALIC_OK;
}

/* The active stages (those with nodes) and which slot queue each one indexes. */
static void init_stages(dalic_exec_t *e)
{
	const dalic_graph_t *g = e->g;
	for (int s = 0; s < DALIC_NUM_STAGES; s++) {
		e->stage_queue[s] = e->separated && s != DALIC_STAGE_CPU ? EXEC_QGPU : EXEC_QCPU;
		if (g->stage_begin[s] == g->stage_begin[s + 1])
			continue;
		exec_stage_t *st = &e->stages[e->num_stages];
		st->exec = e;
		st->index = e->num_stages++;
		st->stage = s;
		st->begin = g->stage_begin[s];
		st->end = g->stage_begin[s + 1];
		st->queue = e->stage_queue[s];
	}
	e->num_queues = e->separated ? 2 : 1;
	e->queues[EXEC_QCPU].depth = g->params.prefetch_cpu > 0 ? g->params.prefetch_cpu : 1;
	e->queues[EXEC_QGPU].depth = e->separated ? g->params.prefetch_gpu
						  : e->queues[EXEC_QCPU].depth;
}

static int start_pool(dalic_exec_t *e)
{
	int n = e->g->params.num_threads > 0 ? e->g->params.num_threads : 1;
	int *cpus = calloc((size_t)n, sizeof *cpus);
	if (!cpus)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = dalic_affinity_plan(e->g->params.set_affinity, n, cpus);
	if (!rc)
		rc = dalic_pool_create(n, cpus, &e->pool);
	free(cpus);
	return rc;
}

int dalic_exec_create(dalic_graph_t *g, dalic_feed_queue_t **feeds, dalic_exec_t **out)
{
	*out = NULL;
	dalic_exec_t *e = calloc(1, sizeof *e);
	if (!e)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	e->g = g;
	e->max_batch = g->params.batch_size;
	/* DALI's MakeExecutorType: async implies pipelined; dalic runs exec_pipelined=False as
	 * the simple executor whatever exec_async says, as the Python front end does. */
	e->pipelined = g->params.exec_pipelined;
	e->async = e->pipelined && g->params.exec_async;
	e->separated = e->async && g->params.separated_queues;
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->ready_cv, NULL);
	for (int s = 0; s < DALIC_NUM_STAGES; s++)
		pthread_cond_init(&e->stages[s].cv, NULL);
	init_stages(e);
	e->num_nodes = g->num_nodes;
	e->nodes = calloc((size_t)g->num_nodes + 1, sizeof *e->nodes);
	e->feeds = calloc((size_t)g->num_nodes + 1, sizeof *e->feeds);
	int rc = DALIC_OK;
	if (!e->nodes || !e->feeds)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		e->feeds[i] = feeds ? feeds[i] : NULL;
		rc = init_node(e, i);
	}
	if (!rc)
		rc = dalic_exec_queues_init(e);
	if (!rc)
		rc = dalic_exec_feeds_init(e);
	if (!rc)
		rc = start_pool(e);
	if (!rc && e->async)
		rc = dalic_exec_async_start(e);
	if (rc) {
		dalic_exec_destroy(e);
		return rc;
	}
	*out = e;
	return DALIC_OK;
}

static void free_node(dalic_exec_node_t *x)
{
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

void dalic_exec_destroy(dalic_exec_t *e)
{
	if (!e)
		return;
	dalic_exec_async_stop(e); /* first: nothing may run while buffers go away */
	dalic_pool_destroy(e->pool);
	for (int i = 0; e->nodes && i < e->num_nodes; i++)
		free_node(&e->nodes[i]);
	dalic_exec_feeds_free(e);
	dalic_exec_queues_free(e);
	for (int s = 0; s < DALIC_NUM_STAGES; s++)
		pthread_cond_destroy(&e->stages[s].cv);
	pthread_cond_destroy(&e->ready_cv);
	pthread_mutex_destroy(&e->mu);
	free(e->nodes);
	free(e->feeds);
	free(e);
}

void dalic_exec_set_observer(dalic_exec_t *e, const dalic_observer_t *obs)
{
	pthread_mutex_lock(&e->mu);
	if (obs)
		e->obs = *obs;
	else
		memset(&e->obs, 0, sizeof e->obs);
	e->observed = obs != NULL;
	pthread_mutex_unlock(&e->mu);
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
	return e->next_iteration; /* written by the calling thread only */
}

int dalic_exec_depth(const dalic_exec_t *e)
{
	return e->queues[EXEC_QCPU].depth;
}

int dalic_exec_queue_depth(const dalic_exec_t *e, int queue)
{
	return e->queues[queue == DALIC_QUEUE_GPU && e->separated ? EXEC_QGPU : EXEC_QCPU].depth;
}

const char *dalic_exec_mode(const dalic_exec_t *e)
{
	return dalic_executor_mode_name(&e->g->params);
}

int dalic_exec_num_threads(const dalic_exec_t *e)
{
	return dalic_pool_size(e->pool);
}
