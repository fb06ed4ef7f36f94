/*
 * Slot queues and the run API (DALI's queue policies, docs/dali-behaviour.md §3.3).
 *
 * Uniform (one depth N): one ring of free slots; the first stage takes a slot when it starts
 * an iteration and the slot carries the iteration through every stage to `ready`, `in_use`
 * and back to free at release. Separated (cpu_size C, gpu_size G): a cpu ring and a
 * mixed+gpu ring. The cpu slot is freed as soon as the last stage reading cpu data is done
 * with it (unless a pipeline output lives there), the gpu slot at release — so the cpu stage
 * runs up to C iterations ahead of the consumer while the gpu stages are held to G.
 *
 * Iterations travel in order through FIFOs of records (exec_rec_t). A failure marks the
 * failing iteration; it still travels (skipping work) so it comes out of share after the
 * iterations before it, and any iteration after it is dropped wherever it is.
 *
 * Every function here except the public ones runs with e->mu held.
 */
#include "engine/exec_internal.h"

#include "engine/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rings ---- */

static int exec_ring_init(exec_ring_t *r, int cap)
{
	r->v = calloc((size_t)cap, sizeof *r->v);
	r->cap = cap;
	r->head = r->count = 0;
	return r->v ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
}

bool dalic_exec_ring_push(exec_ring_t *r, const exec_rec_t *rec)
{
	if (r->count == r->cap)
		return false; /* cannot happen: capacity covers every slot plus the failed record */
	r->v[(r->head + r->count++) % r->cap] = *rec;
	return true;
}

exec_rec_t *dalic_exec_ring_front(exec_ring_t *r)
{
	return r->count ? &r->v[r->head] : NULL;
}

void dalic_exec_ring_pop(exec_ring_t *r)
{
	r->head = (r->head + 1) % r->cap;
	r->count--;
}

/* ---- setup ---- */

/* Stage index after which slots of the cpu queue can be freed when separated: the last
 * stage reading data the cpu stage wrote; -1 (at release) when a cpu output lives there. */
static int exec_cpu_release_point(const dalic_exec_t *e)
{
	if (!e->g->uses_gpu)
		return -1;
	int last = 0;
	for (int i = e->g->stage_begin[DALIC_STAGE_CPU]; i < e->g->stage_begin[DALIC_STAGE_CPU + 1];
	     i++) {
		const dalic_node_t *n = e->g->nodes[i];
		for (int o = 0; o < n->num_outputs; o++) {
			const dalic_edge_t *edge = n->outputs[o];
			if (edge->is_output)
				return -1;
			for (int c = 0; c < edge->num_consumers; c++)
				for (int k = 0; k < e->num_stages; k++)
					if (e->stages[k].stage == edge->consumers[c]->stage &&
					    k > last)
						last = k;
		}
	}
	return last;
}

int dalic_exec_queues_init(dalic_exec_t *e)
{
	int total = 0;
	for (int q = 0; q < e->num_queues; q++) {
		exec_queue_t *Q = &e->queues[q];
		Q->free = calloc((size_t)Q->depth, sizeof *Q->free);
		if (!Q->free)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		for (int s = 0; s < Q->depth; s++)
			Q->free[Q->free_count++] = s;
		Q->release_after = -1;
		Q->acquirer = -1;
		total += Q->depth;
	}
	for (int k = 0; k < e->num_stages; k++) {
		exec_stage_t *st = &e->stages[k];
		if (e->queues[st->queue].acquirer < 0) {
			e->queues[st->queue].acquirer = k;
			st->acquires = true;
		}
	}
	if (e->separated)
		e->queues[EXEC_QCPU].release_after = exec_cpu_release_point(e);
	/* The caller blocks further progress once it holds every slot of a queue that is only
	 * freed by release_outputs. */
	e->out_limit = 0;
	for (int q = 0; q < e->num_queues; q++) {
		const exec_queue_t *Q = &e->queues[q];
		if (Q->release_after < 0 && Q->acquirer >= 0 &&
		    (e->out_limit == 0 || Q->depth < e->out_limit))
			e->out_limit = Q->depth;
	}
	if (e->out_limit == 0)
		e->out_limit = e->queues[EXEC_QCPU].depth;
	total += 4; /* records holding no slot: the failed iteration */
	int rc = exec_ring_init(&e->ready, total);
	if (!rc)
		rc = exec_ring_init(&e->in_use, total);
	for (int k = 0; !rc && k < e->num_stages; k++)
		rc = exec_ring_init(&e->stages[k].in, total);
	e->pending_cap = total;
	e->pending = calloc((size_t)e->pending_cap, sizeof *e->pending);
	if (!rc && !e->pending)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	return rc;
}

void dalic_exec_queues_free(dalic_exec_t *e)
{
	for (int q = 0; q < EXEC_NUM_QUEUES; q++)
		free(e->queues[q].free);
	for (int k = 0; k < DALIC_NUM_STAGES; k++)
		free(e->stages[k].in.v);
	free(e->ready.v);
	free(e->in_use.v);
	free(e->pending);
}

/* ---- slots and records ---- */

static void exec_report_queues(dalic_exec_t *e)
{
	if (!e->obs.queue_level)
		return;
	int64_t t = dalic_clock_ns();
	int out = e->ready.count + e->in_use.count;
	if (!e->g->uses_gpu) {
		e->obs.queue_level(e->obs.user, DALIC_QUEUE_CPU, out, e->queues[EXEC_QCPU].depth, t);
		return;
	}
	e->obs.queue_level(e->obs.user, DALIC_QUEUE_CPU, e->cpu_filled,
			   e->queues[e->stage_queue[DALIC_STAGE_CPU]].depth, t);
	e->obs.queue_level(e->obs.user, DALIC_QUEUE_GPU, out,
			   e->queues[e->stage_queue[DALIC_STAGE_GPU]].depth, t);
}

int dalic_exec_take_slot(dalic_exec_t *e, int q)
{
	exec_queue_t *Q = &e->queues[q];
	int slot = Q->free[Q->free_head];
	Q->free_head = (Q->free_head + 1) % Q->depth;
	Q->free_count--;
	return slot;
}

static void exec_free_slot(dalic_exec_t *e, exec_rec_t *rec, int q)
{
	exec_queue_t *Q = &e->queues[q];
	Q->free[(Q->free_head + Q->free_count++) % Q->depth] = rec->slot[q];
	rec->slot[q] = -1;
	if (rec->cpu_counted && q == e->stage_queue[DALIC_STAGE_CPU]) {
		rec->cpu_counted = false;
		e->cpu_filled--;
	}
	if (Q->acquirer >= 0)
		pthread_cond_signal(&e->stages[Q->acquirer].cv);
}

static void exec_free_slots(dalic_exec_t *e, exec_rec_t *rec)
{
	for (int q = 0; q < e->num_queues; q++)
		if (rec->slot[q] >= 0)
			exec_free_slot(e, rec, q);
}

bool dalic_exec_is_dropped(const dalic_exec_t *e, const exec_rec_t *rec)
{
	return e->failed && rec->iteration > e->fail_iter;
}

bool dalic_exec_is_failed(const dalic_exec_t *e, const exec_rec_t *rec)
{
	return e->failed && rec->iteration == e->fail_iter;
}

/* Keeps the earliest failure: iterations come out in order, so that is the one reported. */
static void exec_record_failure(dalic_exec_t *e, int64_t iteration, int rc, const char *msg)
{
	if (e->failed && iteration >= e->fail_iter)
		return;
	e->failed = true;
	e->fail_iter = iteration;
	e->fail_status = rc;
	snprintf(e->fail_msg, sizeof e->fail_msg, "%s", msg);
	for (int k = 0; k < e->num_stages; k++) /* let waiting stages drop what follows */
		pthread_cond_signal(&e->stages[k].cv);
	pthread_cond_broadcast(&e->ready_cv);
}

void dalic_exec_drop(dalic_exec_t *e, exec_rec_t *rec)
{
	exec_free_slots(e, rec);
	e->active--;
	pthread_cond_broadcast(&e->ready_cv);
}

void dalic_exec_start_pending(dalic_exec_t *e, exec_rec_t *rec)
{
	exec_pending_t *p = &e->pending[e->pending_head];
	e->pending_head = (e->pending_head + 1) % e->pending_cap;
	e->pending_count--;
	memset(rec, 0, sizeof *rec);
	rec->iteration = p->iteration;
	rec->t_scheduled = p->t_scheduled;
	rec->batch = -1;
	for (int q = 0; q < EXEC_NUM_QUEUES; q++)
		rec->slot[q] = -1;
	exec_stage_t *st = &e->stages[0];
	if (!dalic_exec_is_failed(e, rec))
		rec->slot[st->queue] = dalic_exec_take_slot(e, st->queue);
	e->active++;
}

void dalic_exec_drop_pending(dalic_exec_t *e)
{
	e->pending_head = (e->pending_head + 1) % e->pending_cap;
	e->pending_count--;
	pthread_cond_broadcast(&e->ready_cv);
}

static int exec_push_pending(dalic_exec_t *e, int64_t iteration)
{
	if (e->pending_count == e->pending_cap) { /* only when the caller schedules far ahead */
		int cap = e->pending_cap * 2;
		exec_pending_t *p = calloc((size_t)cap, sizeof *p);
		if (!p)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		for (int i = 0; i < e->pending_count; i++)
			p[i] = e->pending[(e->pending_head + i) % e->pending_cap];
		free(e->pending);
		e->pending = p;
		e->pending_head = 0;
		e->pending_cap = cap;
	}
	exec_pending_t *p = &e->pending[(e->pending_head + e->pending_count++) % e->pending_cap];
	p->iteration = iteration;
	p->t_scheduled = dalic_clock_ns();
	pthread_cond_signal(&e->stages[0].cv);
	return DALIC_OK;
}

void dalic_exec_finish_stage(dalic_exec_t *e, int k, exec_rec_t *rec, int rc)
{
	if (rc)
		exec_record_failure(e, rec->iteration, rc, dalic_last_error());
	if (dalic_exec_is_dropped(e, rec)) {
		dalic_exec_drop(e, rec);
		return;
	}
	exec_stage_t *st = &e->stages[k];
	bool failed = dalic_exec_is_failed(e, rec);
	if (st->stage == DALIC_STAGE_CPU && !failed) {
		rec->cpu_counted = true;
		e->cpu_filled++;
	}
	for (int q = 0; q < e->num_queues; q++)
		if (e->queues[q].release_after == k && rec->slot[q] >= 0)
			exec_free_slot(e, rec, q);
	if (k + 1 < e->num_stages) {
		dalic_exec_ring_push(&e->stages[k + 1].in, rec);
		pthread_cond_signal(&e->stages[k + 1].cv);
	} else {
		rec->t_ready = dalic_clock_ns();
		dalic_exec_ring_push(&e->ready, rec);
		e->active--;
		pthread_cond_broadcast(&e->ready_cv);
		if (!failed && e->obs.iteration_ready)
			e->obs.iteration_ready(e->obs.user, rec->iteration, rec->t_scheduled,
					       rec->t_ready);
	}
	exec_report_queues(e);
}

/* ---- the run API (caller thread) ---- */

/* Sync modes: the caller runs the iteration through every stage right away. */
static void exec_run_sync(dalic_exec_t *e)
{
	exec_rec_t rec;
	dalic_exec_start_pending(e, &rec);
	for (int k = 0; k < e->num_stages; k++) {
		exec_stage_t *st = &e->stages[k];
		if (k > 0) {
			exec_rec_t *r = dalic_exec_ring_front(&st->in);
			if (!r)
				return; /* dropped */
			rec = *r;
			dalic_exec_ring_pop(&st->in);
			if (st->acquires && !dalic_exec_is_failed(e, &rec))
				rec.slot[st->queue] = dalic_exec_take_slot(e, st->queue);
		}
		bool skip = dalic_exec_is_failed(e, &rec);
		pthread_mutex_unlock(&e->mu);
		int rc = skip ? DALIC_OK : dalic_exec_run_stage(e, st, &rec);
		pthread_mutex_lock(&e->mu);
		dalic_exec_finish_stage(e, k, &rec, rc);
	}
}

int dalic_exec_schedule(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	bool failed = e->failed;
	int exec_free_slots = e->queues[e->stages[0].queue].free_count;
	pthread_mutex_unlock(&e->mu);
	if (failed) /* nothing more runs; the failure comes out of share */
		return DALIC_OK;
	/* inputs first, as DALI's run loop: the end of data wins over a full queue */
	int rc = dalic_exec_feeds_prepare(e);
	if (rc == DALIC_EEND)
		return rc;
	if (rc && rc != DALIC_EOP) /* a usage error (nothing fed): nothing scheduled */
		return rc;
	if (!e->async && exec_free_slots == 0) { /* the caller holds them all: waiting would hang */
		e->epoch_iteration--; /* the prepared batches stay queued for the next try */
		return dalic_fail(DALIC_ESTATE,
				  "all %d output buffers are in use: release_outputs() before "
				  "scheduling another iteration",
				  e->queues[e->stages[0].queue].depth);
	}
	pthread_mutex_lock(&e->mu);
	int64_t it = e->next_iteration++;
	if (rc) /* a source callback failed: this iteration is the failed one */
		exec_record_failure(e, it, rc, dalic_last_error());
	int prc = exec_push_pending(e, it);
	if (!prc && !e->async)
		exec_run_sync(e);
	pthread_mutex_unlock(&e->mu);
	return prc;
}

int dalic_exec_free_slots(const dalic_exec_t *e)
{
	dalic_exec_t *m = (dalic_exec_t *)e;
	pthread_mutex_lock(&m->mu);
	int n = e->queues[e->stages[0].queue].free_count;
	pthread_mutex_unlock(&m->mu);
	return n;
}

int dalic_exec_share(dalic_exec_t *e)
{
	int64_t t0 = dalic_clock_ns(), t_ready = 0;
	bool waited = false;
	int rc = DALIC_OK;
	pthread_mutex_lock(&e->mu);
	while (e->ready.count == 0) {
		if (e->stopping)
			rc = dalic_fail(DALIC_ESTATE, "the pipeline is shutting down");
		else if (e->pending_count == 0 && e->active == 0)
			rc = dalic_fail(DALIC_ESTATE, "no scheduled iteration to share");
		else if (e->in_use.count >= e->out_limit)
			rc = dalic_fail(DALIC_ESTATE,
					"all %d output buffers are in use: release_outputs() before "
					"sharing another iteration",
					e->out_limit);
		if (rc)
			break;
		waited = true;
		pthread_cond_wait(&e->ready_cv, &e->mu);
	}
	if (!rc) {
		exec_rec_t rec = *dalic_exec_ring_front(&e->ready);
		dalic_exec_ring_pop(&e->ready);
		t_ready = rec.t_ready;
		if (dalic_exec_is_failed(e, &rec)) {
			exec_free_slots(e, &rec);
			rc = dalic_fail(e->fail_status, "%s", e->fail_msg);
		} else {
			dalic_exec_ring_push(&e->in_use, &rec);
		}
		exec_report_queues(e);
	}
	pthread_mutex_unlock(&e->mu);
	int64_t t1 = dalic_clock_ns();
	if (waited && e->obs.wait)
		e->obs.wait(e->obs.user, DALIC_WAIT_CONSUMER, t0, t1);
	if (!rc && t_ready > 0 && e->obs.wait)
		e->obs.wait(e->obs.user, DALIC_WAIT_READY, t_ready < t1 ? t_ready : t1, t1);
	return rc;
}

bool dalic_exec_failed(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	bool failed = e->failed;
	pthread_mutex_unlock(&e->mu);
	return failed;
}

int dalic_exec_release(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	if (e->in_use.count == 0) {
		pthread_mutex_unlock(&e->mu);
		return dalic_fail(DALIC_ESTATE, "release_outputs: no outputs are shared");
	}
	exec_free_slots(e, dalic_exec_ring_front(&e->in_use));
	dalic_exec_ring_pop(&e->in_use);
	exec_report_queues(e);
	pthread_mutex_unlock(&e->mu);
	return DALIC_OK;
}

void dalic_exec_unshare(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	if (e->in_use.count) {
		e->in_use.count--;
		exec_free_slots(e, &e->in_use.v[(e->in_use.head + e->in_use.count) % e->in_use.cap]);
		exec_report_queues(e);
	}
	pthread_mutex_unlock(&e->mu);
}

int dalic_exec_num_in_use(const dalic_exec_t *e)
{
	return e->in_use.count; /* changed only by the calling thread */
}

const dalic_batch_t *dalic_exec_output(const dalic_exec_t *e, int i)
{
	if (e->in_use.count == 0 || i < 0 || i >= e->g->num_outputs)
		return NULL;
	const exec_rec_t *rec = &e->in_use.v[(e->in_use.head + e->in_use.count - 1) % e->in_use.cap];
	const dalic_edge_t *edge = e->g->outputs[i];
	const dalic_exec_node_t *x = &e->nodes[edge->producer->index];
	int o = edge->producer_output;
	int slot = rec->slot[e->stage_queue[x->node->stage]];
	return &x->bufs[o][slot < 0 ? 0 : slot % x->nbuf[o]];
}

int64_t dalic_exec_shared_iteration(const dalic_exec_t *e)
{
	if (e->in_use.count == 0)
		return -1;
	return e->in_use.v[(e->in_use.head + e->in_use.count - 1) % e->in_use.cap].iteration;
}

int dalic_exec_skip_iterations(dalic_exec_t *e, int64_t n)
{
	pthread_mutex_lock(&e->mu);
	bool fresh = e->next_iteration == 0 && e->pending_count == 0 && e->active == 0;
	if (fresh)
		e->next_iteration = n;
	pthread_mutex_unlock(&e->mu);
	return fresh ? DALIC_OK
	             : dalic_fail(DALIC_ESTATE, "seek: the pipeline has already run iterations");
}

int dalic_exec_reset_queues(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	/* Iterations not started yet are simply forgotten (reset drops them anyway). Started
	 * ones finish: their stages may need slots the caller holds, so ready and in-use
	 * iterations are given back as they come, until nothing is in flight. */
	e->pending_count = 0;
	int rc = DALIC_OK;
	for (;;) {
		while (e->ready.count) {
			exec_rec_t *rec = dalic_exec_ring_front(&e->ready);
			if (dalic_exec_is_failed(e, rec))
				rc = dalic_fail(e->fail_status, "%s", e->fail_msg);
			exec_free_slots(e, rec);
			dalic_exec_ring_pop(&e->ready);
		}
		while (e->in_use.count) {
			exec_free_slots(e, dalic_exec_ring_front(&e->in_use));
			dalic_exec_ring_pop(&e->in_use);
		}
		if (e->active == 0 || e->stopping)
			break;
		pthread_cond_wait(&e->ready_cv, &e->mu);
	}
	exec_report_queues(e);
	pthread_mutex_unlock(&e->mu);
	e->epoch_iteration = 0;
	for (int i = 0; i < e->num_inputs; i++)
		e->inputs[i].fed = 0;
	return rc;
}
