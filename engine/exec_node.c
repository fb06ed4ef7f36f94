/*
 * One node: its creation, the buffers an iteration binds it to, and its run — the one path
 * the full engine's stages and debug mode's eager executor share (executor.h). A node run is
 * setup -> allocate outputs (DALI's grow/shrink rule, growth reported to the observer with
 * the sample that caused it) -> per-sample work on the pool, or the whole batch on this
 * thread. The stage run at the bottom is the full engine's: the slot of the iteration picks
 * which buffer of each output is written and which of each input is read.
 */
#include "engine/exec_internal.h"

#include "engine/checkpoint_trace.h"
#include "engine/clock.h"
#include "engine/device.h"
#include "engine/opctx.h"
#include "kernels/common/gpu_op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- creation ---- */

int dalic_exec_node_init(dalic_exec_node_t *x, dalic_graph_t *g, dalic_node_t *n,
			 dalic_feed_queue_t *feed)
{
	x->node = n;
	int rc = dalic_op_ctx_create(n, g, feed, &x->ctx);
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
	for (int o = 0; o < no; o++)
		x->nbuf[o] = 1;
	x->gpu = dalic_exec_gpu_op(n);
	x->last_gpu_ns = -1;
	return DALIC_OK;
}

/* A gpu/mixed node's output on a real device: device memory when the node runs its kernel and
 * every consumer does too (and none reads it on the host in its setup, as slice's anchor and
 * shape inputs); pinned memory otherwise, which the CPU path can read and a kernel
 * can too (cudaHostAlloc memory is mapped into the device's address space under unified
 * addressing). Pipeline outputs stay pinned: the CLI's dumps, the workbench and C API users
 * read dalic_batch_data on the host (DALI would hand out device memory). */
static dalic_mem_kind_t exec_device_output_mem(const dalic_node_t *n, const dalic_edge_t *e)
{
	if (!dalic_exec_gpu_op(n) || e->is_output)
		return DALIC_MEM_PINNED;
	for (int c = 0; c < e->num_consumers; c++) {
		const dalic_node_t *u = e->consumers[c];
		const dalic_gpu_op_t *op = dalic_exec_gpu_op(u);
		if (!op)
			return DALIC_MEM_PINNED;
		for (int k = 0; k < u->num_inputs && k < 32; k++) /* read by its setup on the host */
			if (u->inputs[k] == e && (op->host_inputs >> k & 1u))
				return DALIC_MEM_PINNED;
	}
	return DALIC_MEM_DEVICE;
}

/* Pinned when a cpu buffer feeds a mixed/gpu node (DALI's policy), unless restricted or the
 * pipeline is CPU-only. */
static dalic_mem_kind_t exec_output_mem(const dalic_graph_t *g, const dalic_node_t *n,
					const dalic_edge_t *e)
{
	if (n->device != DALIC_DEV_CPU)
		return dalic_device_backend()->emulated ? DALIC_MEM_DEVICE
							: exec_device_output_mem(n, e);
	if (g->params.device_id == DALIC_CPU_ONLY_DEVICE_ID || dalic_mem_config()->restrict_pinned)
		return DALIC_MEM_HOST;
	for (int c = 0; c < e->num_consumers; c++)
		if (e->consumers[c]->device != DALIC_DEV_CPU)
			return DALIC_MEM_PINNED;
	return DALIC_MEM_HOST;
}

int dalic_exec_node_alloc(dalic_exec_node_t *x, const dalic_graph_t *g, int max_batch)
{
	const dalic_node_t *n = x->node;
	for (int o = 0; o < x->num_outputs; o++) {
		dalic_edge_t *edge = n->outputs[o];
		x->bufs[o] = calloc((size_t)x->nbuf[o], sizeof **x->bufs);
		if (!x->bufs[o])
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		dalic_mem_kind_t mem = exec_output_mem(g, n, edge);
		/* Every batch is one buffer, as DALI 2.4 stores them; a CPU operator's samples are
		 * packed back to back (batch.h says why) */
		bool packed = n->device == DALIC_DEV_CPU && !n->internal;
		for (int b = 0; b < x->nbuf[o]; b++) {
			dalic_batch_init(&x->bufs[o][b], mem, true, &x->mem[o]);
			x->bufs[o][b].packed = packed;
			x->bufs[o][b].gpu = edge->gpu;
			/* DALI reserves only device and pinned buffers from the hint */
			if (n->hints[o] > 0 && mem != DALIC_MEM_HOST) {
				int rc = dalic_batch_reserve(&x->bufs[o][b], (size_t)n->hints[o],
							     max_batch);
				if (rc)
					return rc;
			}
		}
	}
	return DALIC_OK;
}

void dalic_exec_node_free(dalic_exec_node_t *x)
{
	dalic_exec_node_gpu_free(x);
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
	free(x->order);
	free(x->order_bytes);
	memset(x, 0, sizeof *x);
}

/* ---- binding ---- */

static dalic_batch_t *exec_buffer(dalic_exec_node_t *x, int o, const int *slot_of_stage)
{
	int slot = slot_of_stage ? slot_of_stage[x->node->stage] : 0;
	return &x->bufs[o][slot < 0 ? 0 : slot % x->nbuf[o]];
}

void dalic_exec_node_bind(dalic_exec_node_t *nodes, dalic_exec_node_t *x,
			  const int *slot_of_stage)
{
	const dalic_node_t *n = x->node;
	for (int k = 0; k < n->num_inputs; k++) {
		const dalic_edge_t *edge = n->inputs[k];
		x->in[k] = exec_buffer(&nodes[edge->producer->index], edge->producer_output,
				       slot_of_stage);
	}
	for (int k = 0; k < n->num_arg_inputs; k++) {
		const dalic_edge_t *edge = n->arg_inputs[k];
		x->arg_in[k] = exec_buffer(&nodes[edge->producer->index], edge->producer_output,
					   slot_of_stage);
	}
	for (int o = 0; o < x->num_outputs; o++)
		x->out[o] = exec_buffer(x, o, slot_of_stage);
}

/* ---- running ---- */

static void exec_report_growth(const dalic_observer_t *obs, const dalic_node_t *n, int o,
			       const dalic_batch_t *b, int64_t iteration, size_t before,
			       size_t after)
{
	int biggest = 0;
	for (int i = 1; i < b->num_samples; i++)
		if (dalic_batch_sample_bytes(b, i) > dalic_batch_sample_bytes(b, biggest))
			biggest = i;
	const char *src = b->num_samples ? b->sources[biggest] : NULL;
	obs->buffer_growth(obs->user, n, o, iteration, biggest, src, before, after);
}

/* Per-sample work shorter than this (the whole batch, last iteration) is run by the
 * submitting thread alone: waking a worker costs several microseconds and a core. The
 * measure is taken again every run, so growing samples bring the workers back. */
#define EXEC_SOLO_WORK_NS 20000
/* Samples that took at least this long each (last time) are handed out one at a time: a
 * lock per sample is then well under 1% of the work, and the batch's end stays balanced. */
#define EXEC_SINGLE_SAMPLE_NS 200000

/* Samples that took at least this long each (last time, on average) are handed out largest
 * first, one at a time, when their sizes differ: the longest ones then start first and the
 * short ones fill the gaps at the end, so no core idles while another finishes a big sample
 * (decoding and resizing photos of different sizes). The size is the sample's bytes in the
 * first input: the encoded file for a decoder, the image for resize. */
#define EXEC_ORDER_SAMPLE_NS 40000


/* Descending size, then ascending index: a deterministic order. */
static int exec_order_cmp(const void *a, const void *b, void *ctx)
{
	const int64_t *bytes = ctx;
	int i = *(const int *)a, j = *(const int *)b;
	if (bytes[i] != bytes[j])
		return bytes[i] > bytes[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* The largest-first order of this run's samples, or NULL to run them in index order (short
 * samples, a single one, equal sizes, or no memory for the order: it is only an
 * optimisation). */
static const int *exec_sample_order(dalic_exec_node_t *x, const dalic_ws_t *ws)
{
	const int n = ws->batch_size;
	if (n < 3 || ws->num_inputs < 1 || x->work_ns / n < EXEC_ORDER_SAMPLE_NS)
		return NULL;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->num_samples < n || dalic_batch_uniform_shape(in))
		return NULL;
	if (x->order_cap < n) {
		int *o = realloc(x->order, sizeof *o * (size_t)n);
		if (o)
			x->order = o;
		int64_t *b = realloc(x->order_bytes, sizeof *b * (size_t)n);
		if (b)
			x->order_bytes = b;
		if (!o || !b)
			return NULL;
		x->order_cap = n;
	}
	for (int i = 0; i < n; i++) {
		x->order[i] = i;
		x->order_bytes[i] = (int64_t)dalic_batch_sample_bytes(in, i);
	}
	qsort_r(x->order, (size_t)n, sizeof *x->order, exec_order_cmp, x->order_bytes);
	return x->order;
}

typedef struct exec_sample_job {
	dalic_exec_node_t *x;
	const dalic_kernel_t *k;
	const dalic_ws_t *ws;
	const dalic_observer_t *obs;
	pthread_t submitter;
	int64_t submitter_cpu; /* CPU of the chunks the submitter ran itself (only it writes) */
} exec_sample_job_t;

static int exec_run_one_sample(void *arg, int sample, int thread)
{
	exec_sample_job_t *j = arg;
	return j->k->run_sample(j->x->ctx, j->ws, sample, thread);
}

static void exec_sample_chunk_done(void *arg, int thread, int first, int count, int64_t t0,
				   int64_t t1, int64_t cpu_ns)
{
	exec_sample_job_t *j = arg;
	if (pthread_equal(pthread_self(), j->submitter))
		j->submitter_cpu += cpu_ns;
	j->obs->work_chunk(j->obs->user, j->x->node, j->ws->iteration, thread, first, count, t0,
			   t1, cpu_ns);
}

static int exec_allocate_outputs(dalic_exec_node_t *x, const dalic_exec_run_t *r)
{
	for (int o = 0; o < x->num_outputs; o++) {
		size_t before = dalic_batch_capacity(x->out[o]);
		int rc = dalic_batch_alloc(x->out[o]);
		if (rc)
			return rc;
		size_t after = dalic_batch_capacity(x->out[o]);
		if (after > before && r->obs && r->obs->buffer_growth)
			exec_report_growth(r->obs, x->node, o, x->out[o], r->iteration, before,
					   after);
	}
	return DALIC_OK;
}

static bool exec_all_inputs_empty(const dalic_exec_node_t *x)
{
	for (int k = 0; k < x->node->num_inputs; k++)
		if (x->in[k]->num_samples > 0)
			return false;
	return true;
}

/* DALI: an operator whose inputs are all empty (a branch of a conditional no sample took)
 * is not run; its outputs become empty batches. */
static int exec_skip(dalic_exec_node_t *x, const dalic_exec_run_t *r, int64_t t0)
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
	int64_t t1 = dalic_clock_ns();
	x->last_ns = t1 - t0;
	x->work_ns = 0;
	if (r->obs && r->obs->node_run)
		r->obs->node_run(r->obs->user, x->node, r->iteration, 0, t0, t1, 0);
	/* DALI's memory statistics count the empty batches too (stats/hooks.c) */
	for (int o = 0; r->obs && r->obs->output_memory && o < x->num_outputs; o++)
		r->obs->output_memory(r->obs->user, x->node, o, x->out[o], r->iteration);
	return DALIC_OK;
}

/* The sample a whole-batch failure names (dalic_op_fail writes ", sample N"), or -1. */
static int exec_sample_from_message(const char *msg)
{
	const char *p = strstr(msg, ", sample ");
	int s;
	return p && sscanf(p, ", sample %d", &s) == 1 ? s : -1;
}

/* Per-sample work on the pool; the lowest failing sample is the one reported, whatever the
 * thread timing. */
static int exec_run_samples(dalic_exec_node_t *x, const dalic_exec_run_t *r,
			    const dalic_kernel_t *k, const dalic_ws_t *ws, int *failed,
			    int64_t *own_chunk_cpu)
{
	exec_sample_job_t sj = {
	    .x = x, .k = k, .ws = ws, .obs = r->obs, .submitter = pthread_self()};
	dalic_pool_job_t job = {
		.fn = exec_run_one_sample,
		.chunk_done = r->obs && r->obs->work_chunk ? exec_sample_chunk_done : NULL,
		.arg = &sj,
		.count = ws->batch_size,
		/* last time the samples took less than a wake-up is worth: no helpers */
		.solo = x->work_ns > 0 && x->work_ns < EXEC_SOLO_WORK_NS,
		.single = ws->batch_size > 0 &&
			  x->work_ns / ws->batch_size >= EXEC_SINGLE_SAMPLE_NS,
	};
	if (!job.solo)
		job.order = exec_sample_order(x, ws);
	int64_t tw = dalic_clock_ns();
	int rc = dalic_pool_run(r->pool, &job);
	x->work_ns = dalic_clock_ns() - tw;
	*own_chunk_cpu = sj.submitter_cpu;
	if (rc)
		*failed = job.failed_item;
	return rc;
}

static int exec_node_run_body(dalic_exec_node_t *x, const dalic_exec_run_t *r,
			      int *failed_sample)
{
	dalic_node_t *n = x->node;
	int failed = -1;
	/* DALI: an op's batch size is its first input's, else its first argument input's,
	 * else the iteration's */
	int batch = r->batch;
	if (n->num_inputs > 0)
		batch = x->in[0]->num_samples;
	else if (n->num_arg_inputs > 0)
		batch = x->arg_in[0]->num_samples;
	dalic_ws_t ws = {
		.batch_size = batch,
		.iteration = r->iteration,
		.num_inputs = n->num_inputs,
		.inputs = x->in,
		.num_outputs = x->num_outputs,
		.outputs = x->out,
		.num_arg_inputs = n->num_arg_inputs,
		.arg_input_names = n->arg_names,
		.arg_inputs = x->arg_in,
	};
	const dalic_kernel_t *k = dalic_op_ctx_kernel(x->ctx);
	x->sink = (dalic_warn_sink_t){r->warnings, r->obs, n, r->scan};
	x->ctx->warn = &x->sink;
	int64_t t0 = dalic_clock_ns();
	/* the thread's CPU clock is a system call: read only for an observer */
	bool cpu_clock = r->obs && r->obs->node_run;
	int64_t c0 = cpu_clock ? dalic_thread_cpu_ns() : 0, own_chunk_cpu = 0;
	if (failed_sample)
		*failed_sample = -1;
	if (n->num_inputs > 0 && exec_all_inputs_empty(x))
		return exec_skip(x, r, t0);
	int rc = k->setup ? k->setup(x->ctx, &ws) : DALIC_OK;
	if (!rc)
		rc = exec_allocate_outputs(x, r);
	bool per_sample = false;
	x->last_gpu_ns = -1;
	if (x->gpu) {
		if (!rc && batch > 0)
			rc = dalic_exec_node_run_gpu(x, r, &ws, &x->last_gpu_ns);
	} else {
		if (!rc && k->run_sample && batch > 0) {
			rc = exec_run_samples(x, r, k, &ws, &failed, &own_chunk_cpu);
			per_sample = rc != DALIC_OK;
		}
		if (!rc && k->run)
			rc = k->run(x->ctx, &ws);
	}
	int64_t t1 = dalic_clock_ns();
	int64_t cpu = cpu_clock ? dalic_thread_cpu_ns() - c0 - own_chunk_cpu : 0;
	x->last_ns = t1 - t0;
	if (!rc) {
		dalic_op_ctx_advance_rng(x->ctx, batch);
		dalic_ckpt_trace_record(x->ctx, r->iteration);
		if (cpu_clock)
			r->obs->node_run(r->obs->user, n, r->iteration, batch, t0, t1,
					 cpu > 0 ? cpu : 0);
		if (x->last_gpu_ns >= 0 && r->obs && r->obs->node_gpu)
			r->obs->node_gpu(r->obs->user, n, r->iteration, x->last_gpu_ns);
		for (int o = 0; r->obs && r->obs->output_memory && o < x->num_outputs; o++)
			r->obs->output_memory(r->obs->user, n, o, x->out[o], r->iteration);
		return DALIC_OK;
	}
	if (rc == DALIC_EEND)
		return rc;
	if (!per_sample)
		failed = exec_sample_from_message(dalic_last_error());
	if (failed_sample)
		*failed_sample = failed;
	if (!strstr(dalic_last_error(), n->inst))
		dalic_fail_wrap(rc, "operator '%s' (%s), iteration %lld", n->inst, n->schema->name,
				(long long)r->iteration);
	return rc;
}

int dalic_exec_node_run(dalic_exec_node_t *x, const dalic_exec_run_t *r, int *failed_sample)
{
	const dalic_observer_t *obs = r->obs;
	if (obs && obs->node_begin)
		obs->node_begin(obs->user, x->node, r->iteration);
	int rc = exec_node_run_body(x, r, failed_sample);
	if (obs && obs->node_end)
		obs->node_end(obs->user, x->node, r->iteration, rc);
	return rc;
}

/* ---- the full engine's stage ---- */

int dalic_exec_run_stage(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec)
{
	int64_t t0 = dalic_clock_ns();
	int slot_of_stage[DALIC_NUM_STAGES];
	for (int s = 0; s < DALIC_NUM_STAGES; s++)
		slot_of_stage[s] = rec->slot[e->stage_queue[s]];
	int rc = dalic_exec_feeds_batch(e, st, rec);
	dalic_exec_run_t r = {
		.pool = e->pool,
		.obs = e->observed ? &e->obs : NULL,
		.iteration = rec->iteration,
		/* a stage with a batch size provider set rec->batch */
		.batch = rec->batch >= 0 ? rec->batch : e->max_batch,
		.warnings = e->warnings,
		.scan = e->scan,
		.stream = st->stream,
		.device = e->g->params.device_id,
	};
	if (e->obs.stage_begin)
		e->obs.stage_begin(e->obs.user, st->stage, rec->iteration);
	for (int i = st->begin; !rc && i < st->end; i++) {
		if (atomic_load_explicit(&e->stop_flag, memory_order_relaxed)) {
			rc = dalic_fail(DALIC_ESTATE, "the pipeline is shutting down");
			break;
		}
		dalic_exec_node_bind(e->nodes, &e->nodes[i], slot_of_stage);
		rc = dalic_exec_node_run(&e->nodes[i], &r, NULL);
	}
	if (!rc && e->obs.stage_run)
		e->obs.stage_run(e->obs.user, st->stage, rec->iteration, t0, dalic_clock_ns());
	if (e->obs.stage_end)
		e->obs.stage_end(e->obs.user, st->stage, rec->iteration, rc);
	return rc;
}
