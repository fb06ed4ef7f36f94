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

#include <stdlib.h>
#include <string.h>

static bool exec_crosses_stage(const dalic_node_t *n, const dalic_edge_t *e)
{
	for (int c = 0; c < e->num_consumers; c++)
		if (e->consumers[c]->stage != n->stage)
			return true;
	return false;
}

/* Consumers whose outputs borrow the edge's samples: pass-through operators, and a cpu
 * MakeContiguous, which passes a batch lying in one buffer through
 * (kernels/cpu/generic/make_contiguous.c). */
static bool exec_passes_through(const dalic_node_t *cn, const dalic_edge_t *edge)
{
	if (cn->schema->passthrough)
		return true;
	return cn->internal && cn->device == DALIC_DEV_CPU && !edge->gpu &&
	       !strcmp(cn->schema->name, "MakeContiguous");
}

/* An edge needs one buffer per slot when it is a pipeline output, when (pipelined) a later
 * stage reads it, or when a pass-through consumer's output needs that — its samples are
 * then read through the borrowed pointers for as long. Outputs have one buffer per slot in
 * every mode, so what they borrow does too. */
static bool exec_needs_slots(const dalic_exec_t *e, const dalic_edge_t *edge)
{
	if (edge->is_output)
		return true;
	for (int c = 0; c < edge->num_consumers; c++) {
		const dalic_node_t *cn = edge->consumers[c];
		if (!exec_passes_through(cn, edge))
			continue;
		for (int o = 0; o < cn->num_outputs; o++)
			if (exec_needs_slots(e, cn->outputs[o]))
				return true;
	}
	return e->pipelined && exec_crosses_stage(edge->producer, edge);
}

/* The shared node creation (exec_node.c), with this executor's buffer count per output. */
static int exec_init_node(dalic_exec_t *e, int i)
{
	dalic_exec_node_t *x = &e->nodes[i];
	dalic_node_t *n = e->g->nodes[i];
	int rc = dalic_exec_node_init(x, e->g, n, e->feeds[i]);
	if (rc)
		return rc;
	int depth = e->queues[e->stage_queue[n->stage]].depth;
	for (int o = 0; o < x->num_outputs; o++)
		x->nbuf[o] = exec_needs_slots(e, n->outputs[o]) ? depth : 1;
	return dalic_exec_node_alloc(x, e->g, e->max_batch);
}

/* The active stages (those with nodes) and which slot queue each one indexes. */
static void exec_init_stages(dalic_exec_t *e)
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

int dalic_exec_pool_create(const dalic_graph_t *g, dalic_pool_t **out)
{
	int n = g->params.num_threads > 0 ? g->params.num_threads : 1;
	int *cpus = calloc((size_t)n, sizeof *cpus);
	if (!cpus)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = dalic_affinity_plan(g->params.set_affinity, n, cpus);
	if (!rc)
		rc = dalic_pool_create(n, cpus, out);
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
	exec_init_stages(e);
	e->num_nodes = g->num_nodes;
	e->nodes = calloc((size_t)g->num_nodes + 1, sizeof *e->nodes);
	e->feeds = calloc((size_t)g->num_nodes + 1, sizeof *e->feeds);
	int rc = DALIC_OK;
	if (!e->nodes || !e->feeds)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < g->num_nodes; i++) {
		e->feeds[i] = feeds ? feeds[i] : NULL;
		rc = exec_init_node(e, i);
	}
	if (!rc)
		rc = dalic_exec_streams_init(e);
	if (!rc)
		rc = dalic_exec_queues_init(e);
	if (!rc)
		rc = dalic_exec_feeds_init(e);
	if (!rc)
		rc = dalic_exec_pool_create(g, &e->pool);
	if (!rc && e->async)
		rc = dalic_exec_async_start(e);
	if (rc) {
		dalic_exec_destroy(e);
		return rc;
	}
	*out = e;
	return DALIC_OK;
}

void dalic_exec_destroy(dalic_exec_t *e)
{
	if (!e)
		return;
	dalic_exec_async_stop(e); /* first: nothing may run while buffers go away */
	dalic_pool_destroy(e->pool);
	for (int i = 0; e->nodes && i < e->num_nodes; i++)
		dalic_exec_node_free(&e->nodes[i]);
	dalic_exec_streams_free(e);
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

void dalic_exec_set_warnings(dalic_exec_t *e, dalic_warnlog_t *log, bool scan)
{
	pthread_mutex_lock(&e->mu);
	e->warnings = log;
	e->scan = scan;
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
