/*
 * Running one node, and one stage of one iteration, in whatever thread the mode chose: the
 * caller (simple, pipelined) or the stage's thread (async). A node run is setup -> allocate
 * outputs (DALI's grow/shrink rule, growth reported to the observer with the sample that
 * caused it) -> per-sample work on the pool, or the whole batch on this thread. The slot of
 * the iteration picks which buffer of each output is written and which of each input is read.
 */
#include "engine/exec_internal.h"

#include "engine/opctx.h"

#include <string.h>
#include <time.h>

int64_t dalic_exec_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The buffer of output o of node x that iteration `rec` uses: slot of the node's queue. */
static dalic_batch_t *slot_buffer(const dalic_exec_t *e, dalic_exec_node_t *x, int o,
				  const exec_rec_t *rec)
{
	int slot = rec->slot[e->stage_queue[x->node->stage]];
	return &x->bufs[o][slot < 0 ? 0 : slot % x->nbuf[o]];
}

static dalic_batch_t *edge_buffer(const dalic_exec_t *e, const dalic_edge_t *edge,
				  const exec_rec_t *rec)
{
	return slot_buffer(e, &e->nodes[edge->producer->index], edge->producer_output, rec);
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

/* Per-sample work shorter than this (the whole batch, last iteration) is run by the stage's
 * own thread alone: waking a worker costs several microseconds and a core. The measure is
 * taken again every run, so growing samples bring the workers back. */
#define SOLO_WORK_NS 20000

typedef struct sample_job {
	dalic_exec_t *e;
	dalic_exec_node_t *x;
	const dalic_kernel_t *k;
	const dalic_ws_t *ws;
} sample_job_t;

static int run_one_sample(void *arg, int sample, int thread)
{
	sample_job_t *j = arg;
	return j->k->run_sample(j->x->ctx, j->ws, sample, thread);
}

static void sample_chunk_done(void *arg, int thread, int first, int count, int64_t t0,
			      int64_t t1)
{
	sample_job_t *j = arg;
	j->e->obs.work_chunk(j->e->obs.user, j->x->node, j->ws->iteration, thread, first, count,
			     t0, t1);
}

static int allocate_outputs(dalic_exec_t *e, dalic_exec_node_t *x, int64_t iteration)
{
	for (int o = 0; o < x->num_outputs; o++) {
		size_t before = dalic_batch_capacity(x->out[o]);
		int rc = dalic_batch_alloc(x->out[o]);
		if (rc)
			return rc;
		size_t after = dalic_batch_capacity(x->out[o]);
		if (after > before && e->obs.buffer_growth)
			report_growth(e, x->node, o, x->out[o], iteration, before, after);
	}
	return DALIC_OK;
}

static bool all_inputs_empty(const dalic_exec_node_t *x, const dalic_node_t *n)
{
	for (int k = 0; k < n->num_inputs; k++)
		if (x->in[k]->num_samples > 0)
			return false;
	return true;
}

/* DALI: an operator whose inputs are all empty (a branch of a conditional no sample took)
 * is not run; its outputs become empty batches. */
static int skip_node(dalic_exec_t *e, dalic_exec_node_t *x, const exec_rec_t *rec, int64_t t0)
{
	for (int o = 0; o < x->num_outputs; o++) {
		dalic_batch_t *out = x->out[o];
		const dalic_batch_t *in = x->in[0];
		bool known = out->dtype != DALIC_NO_TYPE;
		int rc = dalic_batch_set_meta(out, 0, known ? out->dtype : in->dtype,
					      known ? out->ndim : in->ndim);
		if (rc)
			return rc;
		if (!known)
			dalic_batch_set_layout(out, in->layout);
	}
	if (e->observed && e->obs.node_run)
		e->obs.node_run(e->obs.user, x->node, rec->iteration, 0, t0, dalic_exec_now_ns());
	return DALIC_OK;
}

static int run_node(dalic_exec_t *e, int i, const exec_rec_t *rec)
{
	dalic_exec_node_t *x = &e->nodes[i];
	dalic_node_t *n = x->node;
	for (int k = 0; k < n->num_inputs; k++)
		x->in[k] = edge_buffer(e, n->inputs[k], rec);
	for (int k = 0; k < n->num_arg_inputs; k++)
		x->arg_in[k] = edge_buffer(e, n->arg_inputs[k], rec);
	for (int o = 0; o < x->num_outputs; o++)
		x->out[o] = slot_buffer(e, x, o, rec);
	/* DALI: an op's batch size is its first input's, else its first argument input's,
	 * else the iteration's */
	int batch = rec->batch >= 0 ? rec->batch : e->max_batch;
	if (n->num_inputs > 0)
		batch = x->in[0]->num_samples;
	else if (n->num_arg_inputs > 0)
		batch = x->arg_in[0]->num_samples;
	dalic_ws_t ws = {
		.batch_size = batch,
		.iteration = rec->iteration,
		.num_inputs = n->num_inputs,
		.inputs = x->in,
		.num_outputs = x->num_outputs,
		.outputs = x->out,
		.num_arg_inputs = n->num_arg_inputs,
		.arg_input_names = n->arg_names,
		.arg_inputs = x->arg_in,
	};
	const dalic_kernel_t *k = dalic_op_ctx_kernel(x->ctx);
	int64_t t0 = dalic_exec_now_ns();
	if (n->num_inputs > 0 && all_inputs_empty(x, n))
		return skip_node(e, x, rec, t0);
	int rc = k->setup ? k->setup(x->ctx, &ws) : DALIC_OK;
	if (!rc)
		rc = allocate_outputs(e, x, rec->iteration);
	if (!rc && k->run_sample && batch > 0) {
		sample_job_t sj = {.e = e, .x = x, .k = k, .ws = &ws};
		dalic_pool_job_t job = {
			.fn = run_one_sample,
			.chunk_done = e->obs.work_chunk ? sample_chunk_done : NULL,
			.arg = &sj,
			.count = batch,
			/* last time the samples took less than a wake-up is worth: no helpers */
			.solo = x->work_ns > 0 && x->work_ns < SOLO_WORK_NS,
		};
		int64_t tw = dalic_exec_now_ns();
		rc = dalic_pool_run(e->pool, &job);
		x->work_ns = dalic_exec_now_ns() - tw;
	}
	if (!rc && k->run)
		rc = k->run(x->ctx, &ws);
	int64_t t1 = dalic_exec_now_ns();
	x->last_ns = t1 - t0;
	if (!rc && e->observed) {
		if (e->obs.node_run)
			e->obs.node_run(e->obs.user, n, rec->iteration, batch, t0, t1);
		for (int o = 0; e->obs.output_memory && o < x->num_outputs; o++)
			e->obs.output_memory(e->obs.user, n, o, x->out[o], rec->iteration);
	}
	if (rc && !strstr(dalic_last_error(), n->inst))
		dalic_fail_wrap(rc, "operator '%s' (%s), iteration %lld", n->inst, n->schema->name,
				(long long)rec->iteration);
	return rc;
}

int dalic_exec_run_stage(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec)
{
	int64_t t0 = dalic_exec_now_ns();
	int rc = dalic_exec_feeds_batch(e, st, rec);
	for (int i = st->begin; !rc && i < st->end; i++) {
		if (atomic_load_explicit(&e->stop_flag, memory_order_relaxed))
			return dalic_fail(DALIC_ESTATE, "the pipeline is shutting down");
		rc = run_node(e, i, rec);
	}
	if (!rc && e->obs.stage_run)
		e->obs.stage_run(e->obs.user, st->stage, rec->iteration, t0, dalic_exec_now_ns());
	return rc;
}
