/*
 * The stage threads of the async modes: one per non-empty stage (cpu, mixed, gpu), so
 * schedule only enqueues. A stage thread waits for work — a scheduled iteration (first
 * stage) or the previous stage's output — and, when it is the first stage of its slot queue,
 * for a free slot; it then runs the stage unlocked and hands the iteration on. While waiting
 * it tells the observer why: DALIC_WAIT_FREE_SLOT (the consumer holds the slots) or
 * DALIC_WAIT_INPUT (the previous stage is still working on it).
 *
 * Shutdown: `stopping` (under mu) wakes every wait; `stop_flag` is checked between nodes, so
 * a stage stops after the operator running now, never waiting for data or for a release.
 */
#include "engine/exec_internal.h"

#include "engine/clock.h"

/* Whether an earlier stage (or the schedule queue) holds an iteration stage k will get. */
static bool exec_upstream_busy(const dalic_exec_t *e, int k)
{
	if (e->pending_count > 0)
		return true;
	for (int j = 0; j < k; j++)
		if (e->stages[j].running || e->stages[j].in.count > 0)
			return true;
	return false;
}

/* Takes the next iteration for stage st into *rec, with its slot; false when stopping. */
static bool exec_wait_for_work(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec)
{
	int64_t t_wait = 0;
	int kind = -1;
	for (;;) {
		if (e->stopping)
			return false;
		int why = -1;
		bool slot_free = !st->acquires || e->queues[st->queue].free_count > 0;
		if (st->index == 0) {
			if (e->pending_count > 0) {
				const exec_pending_t *p = &e->pending[e->pending_head];
				if (e->failed && p->iteration > e->fail_iter) {
					dalic_exec_drop_pending(e);
					continue;
				}
				if (slot_free || (e->failed && p->iteration == e->fail_iter)) {
					dalic_exec_start_pending(e, rec);
					break;
				}
				why = DALIC_WAIT_FREE_SLOT;
			}
		} else {
			exec_rec_t *r = dalic_exec_ring_front(&st->in);
			if (r && dalic_exec_is_dropped(e, r)) {
				exec_rec_t d = *r;
				dalic_exec_ring_pop(&st->in);
				dalic_exec_drop(e, &d);
				continue;
			}
			if (r) {
				bool failed = dalic_exec_is_failed(e, r);
				if (slot_free || failed) {
					*rec = *r;
					dalic_exec_ring_pop(&st->in);
					if (st->acquires && !failed)
						rec->slot[st->queue] = dalic_exec_take_slot(e, st->queue);
					break;
				}
				why = DALIC_WAIT_FREE_SLOT;
			} else if (exec_upstream_busy(e, st->index)) {
				why = DALIC_WAIT_INPUT;
			}
		}
		if (why >= 0 && !t_wait) {
			t_wait = dalic_clock_ns();
			kind = why;
		}
		pthread_cond_wait(&st->cv, &e->mu);
	}
	if (t_wait && e->obs.wait)
		e->obs.wait(e->obs.user, kind, t_wait, dalic_clock_ns());
	return true;
}

static void *exec_stage_main(void *arg)
{
	exec_stage_t *st = arg;
	dalic_exec_t *e = st->exec;
	exec_rec_t rec;
	pthread_mutex_lock(&e->mu);
	while (exec_wait_for_work(e, st, &rec)) {
		bool skip = dalic_exec_is_failed(e, &rec);
		st->running = true;
		pthread_mutex_unlock(&e->mu);
		int rc = skip ? DALIC_OK : dalic_exec_run_stage(e, st, &rec);
		pthread_mutex_lock(&e->mu);
		st->running = false;
		dalic_exec_finish_stage(e, st->index, &rec, rc);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

int dalic_exec_async_start(dalic_exec_t *e)
{
	for (int k = 0; k < e->num_stages; k++) {
		exec_stage_t *st = &e->stages[k];
		if (dalic_pool_thread_create(&st->tid, exec_stage_main, st))
			return dalic_fail(DALIC_ENOMEM, "cannot start the %s stage thread",
			                  dalic_graph_stage_name(st->stage));
		st->thread_started = true;
	}
	return DALIC_OK;
}

void dalic_exec_async_stop(dalic_exec_t *e)
{
	pthread_mutex_lock(&e->mu);
	e->stopping = true;
	atomic_store(&e->stop_flag, true);
	for (int k = 0; k < DALIC_NUM_STAGES; k++)
		pthread_cond_broadcast(&e->stages[k].cv);
	pthread_cond_broadcast(&e->ready_cv);
	pthread_mutex_unlock(&e->mu);
	for (int k = 0; k < e->num_stages; k++)
		if (e->stages[k].thread_started)
			pthread_join(e->stages[k].tid, NULL);
}
