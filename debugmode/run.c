/*
 * Running a debug session: step, next, continue, goto, restart. Everything goes through
 * run_one(), which moves the position by one operator: it enters the next iteration when the
 * current one is complete, asks the inputs for the batch size before the first operator,
 * checks the breakpoints that stop before an operator, runs it, replays the prints that became
 * ready and checks conditions on its outputs. The position model and stop rules are those of
 * include/dalic_debug.h.
 *
 * Interrupts (Ctrl-C in `dalic debug`) are honoured between operators: the operator running
 * when one arrives finishes its batch — kernels are not cancellable, and a half-written
 * output would be a state no position describes — and the command stops before the next
 * one, exactly as at a breakpoint, so step/next/continue resume the iteration in flight.
 */
#include "debugmode/session.h"

#include "engine/checkpoint_trace.h"
#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

enum { RUN_DONE = 0, RUN_STOPPED = 1 }; /* run_one's result besides a failure status */

static void run_set_stop(dalic_debug_t *s, dalic_debug_stop_t why)
{
	s->stop = why;
	s->stop_break = -1;
	s->stop_op = NULL;
	s->stop_node = NULL;
	s->stop_sample = -1;
	free(s->stop_source);
	s->stop_source = NULL;
	free(s->stop_message);
	s->stop_message = NULL;
}

static dalic_eager_node_t *run_node_at(dalic_debug_t *s, int pos)
{
	return &s->e->nodes[s->e->order[pos]];
}

/* Where a failing sample came from: the failing operator's inputs, else its outputs. */
static const char *run_sample_source(const dalic_eager_node_t *x, int sample)
{
	for (int k = 0; sample >= 0 && k < x->x->node->num_inputs; k++) {
		const dalic_batch_t *b = x->x->in[k];
		if (b && sample < b->num_samples && b->sources && b->sources[sample])
			return b->sources[sample];
	}
	for (int o = 0; sample >= 0 && o < x->x->num_outputs; o++) {
		const dalic_batch_t *b = &x->x->bufs[o][0];
		if (sample < b->num_samples && b->sources && b->sources[sample])
			return b->sources[sample];
	}
	return NULL;
}

static int run_stop_on_error(dalic_debug_t *s, int rc, int sample)
{
	run_set_stop(s, DALIC_DEBUG_STOP_ERROR);
	s->failed = true;
	dalic_debug_set_error(s, dalic_last_error());
	if (s->pos < s->e->num_ops) {
		const dalic_eager_node_t *x = run_node_at(s, s->pos);
		s->stop_op = x->x->node->inst;
		s->stop_sample = sample;
		const char *src = run_sample_source(x, sample);
		s->stop_source = src ? strdup(src) : NULL;
	}
	return rc;
}

/* A print of the pipeline function failed: no operator is to blame. */
static int run_stop_on_print_error(dalic_debug_t *s, int rc)
{
	run_set_stop(s, DALIC_DEBUG_STOP_ERROR);
	s->failed = true;
	dalic_debug_set_error(s, dalic_last_error());
	return rc;
}

static int run_stop_at_end(dalic_debug_t *s)
{
	run_set_stop(s, DALIC_DEBUG_STOP_END);
	s->ended = true;
	dalic_debug_set_error(s, "end of data: an input has no more batches");
	return dalic_fail(DALIC_EEND, "end of data at iteration %lld", (long long)s->iteration);
}

/* Leaves a complete (or failed) iteration for the start of the next one. */
static void run_enter_next_iteration(dalic_debug_t *s)
{
	if (s->pos == s->e->num_ops || s->failed) {
		s->iteration++;
		s->pos = 0;
		s->begun = false;
		s->failed = false;
		s->next_print = 0;
	}
}

static void run_remember_resume(dalic_debug_t *s)
{
	s->has_resume = true;
	s->resume_iteration = s->iteration;
	s->resume_pos = s->pos;
}

static bool run_at_resume(const dalic_debug_t *s)
{
	return s->has_resume && s->resume_iteration == s->iteration && s->resume_pos == s->pos;
}

/* A `break warning` stop after node `ran`, at its first warning (log entry `first`). */
static int run_stop_on_warning(dalic_debug_t *s, int ran, int64_t first)
{
	dalic_warning_t w;
	dalic_breakpoint_t *bp = NULL;
	for (int i = 0; i < s->num_breaks && !bp; i++)
		if (s->breaks[i].kind == DALIC_DEBUG_BREAK_WARNING)
			bp = &s->breaks[i];
	run_set_stop(s, DALIC_DEBUG_STOP_WARNING);
	s->stop_break = bp ? bp->id : -1;
	s->stop_op = s->e->g->nodes[ran]->inst;
	if (dalic_warnlog_get(s->warnings, first, &w)) {
		s->stop_sample = w.sample;
		s->stop_source = w.source ? strdup(w.source) : NULL;
		s->stop_message = strdup(w.message);
	}
	if (bp)
		bp->hits++;
	return RUN_STOPPED;
}

/* One operator. `breaks`: honour breakpoints that stop before an operator; `conds`: check
 * conditions (and warnings) on its outputs. */
static int run_one(dalic_debug_t *s, bool breaks, bool conds)
{
	if (s->ended)
		return run_stop_at_end(s);
	run_enter_next_iteration(s);
	if (breaks && !run_at_resume(s)) {
		dalic_breakpoint_t *bp = dalic_debug_break_before(s);
		if (bp) {
			run_set_stop(s, bp->kind == DALIC_DEBUG_BREAK_ITER ? DALIC_DEBUG_STOP_BREAK_ITER
			                                               : DALIC_DEBUG_STOP_BREAK_OP);
			s->stop_break = bp->id;
			if (bp->kind == DALIC_DEBUG_BREAK_OP)
				s->stop_op = run_node_at(s, s->pos)->x->node->inst;
			bp->hits++;
			run_remember_resume(s);
			return RUN_STOPPED;
		}
	}
	s->has_resume = false;
	if (!s->begun) {
		s->pristine = false;
		int rc = dalic_eager_begin(s->e, s->iteration);
		if (rc == DALIC_EEND)
			return run_stop_at_end(s);
		if (rc)
			return run_stop_on_error(s, rc, -1);
		s->begun = true;
		if ((rc = dalic_debug_prints_fire(s)))
			return run_stop_on_print_error(s, rc);
	}
	int sample;
	int64_t warned = dalic_warnlog_count(s->warnings);
	int rc = dalic_eager_run_op(s->e, s->pos, s->iteration, &sample);
	if (rc == DALIC_EEND)
		return run_stop_at_end(s);
	if (rc)
		return run_stop_on_error(s, rc, sample);
	int ran = s->e->order[s->pos];
	s->pos++;
	if ((rc = dalic_debug_prints_fire(s)))
		return run_stop_on_print_error(s, rc);
	if (s->pos == s->e->num_ops)
		s->iterations_done++, s->iterations_total++;
	if (conds && s->break_warnings && dalic_warnlog_count(s->warnings) > warned)
		return run_stop_on_warning(s, ran, warned);
	const dalic_edge_t *edge;
	dalic_breakpoint_t *bp = conds ? dalic_debug_break_after(s, ran, &edge, &sample) : NULL;
	if (bp) {
		run_set_stop(s, DALIC_DEBUG_STOP_COND);
		s->stop_break = bp->id;
		s->stop_op = s->e->g->nodes[ran]->inst;
		s->stop_node = edge->name;
		s->stop_sample = sample;
		const dalic_batch_t *b = dalic_eager_output(s->e, ran, edge->producer_output);
		if (sample < b->num_samples && b->sources[sample])
			s->stop_source = strdup(b->sources[sample]);
		bp->hits++;
		return RUN_STOPPED;
	}
	return RUN_DONE;
}

bool dalic_debug_take_interrupt(dalic_debug_t *s)
{
	return atomic_exchange_explicit(&s->interrupted, 0, memory_order_relaxed) != 0;
}

/* After an operator ran: stops the command when an interrupt is pending. */
static bool run_interrupted(dalic_debug_t *s)
{
	if (!dalic_debug_take_interrupt(s))
		return false;
	run_set_stop(s, DALIC_DEBUG_STOP_INTERRUPT);
	return true;
}

static int run_step(dalic_debug_t *s)
{
	int rc = run_one(s, false, true);
	if (rc == RUN_DONE && !run_interrupted(s))
		run_set_stop(s, DALIC_DEBUG_STOP_STEP);
	return rc < 0 ? rc : DALIC_OK;
}

static int run_next(dalic_debug_t *s)
{
	do {
		int rc = run_one(s, true, true);
		if (rc)
			return rc < 0 ? rc : DALIC_OK;
		if (run_interrupted(s))
			return DALIC_OK;
	} while (s->pos < s->e->num_ops);
	run_set_stop(s, DALIC_DEBUG_STOP_STEP);
	return DALIC_OK;
}

static int run_continue(dalic_debug_t *s, int64_t max_iterations)
{
	if (max_iterations > DALIC_DEBUG_MAX_ITERATIONS)
		return dalic_fail(DALIC_EINVAL,
		                  "continue: %lld iterations is more than one command may run "
		                  "(%d); without a count it runs until a breakpoint, the end of "
		                  "data or an interrupt",
		                  (long long)max_iterations, DALIC_DEBUG_MAX_ITERATIONS);
	int64_t done = 0;
	for (;;) {
		if (max_iterations >= 0 && done >= max_iterations) {
			run_set_stop(s, DALIC_DEBUG_STOP_LIMIT);
			return DALIC_OK;
		}
		int rc = run_one(s, true, true);
		if (rc)
			return rc < 0 ? rc : DALIC_OK;
		if (s->pos == s->e->num_ops)
			done++;
		if (run_interrupted(s))
			return DALIC_OK;
	}
}

int dalic_debug_restart(dalic_debug_t *s)
{
	int rc = dalic_eager_reset(s->e);
	if (rc) {
		dalic_debug_set_error(s, dalic_last_error());
		return rc;
	}
	for (int i = 0; i < s->e->g->num_edges; i++)
		s->host_runs[i] = -1;
	s->iteration = 0;
	s->pristine = true;
	s->epoch_idx = 0;
	free(s->iterator_data);
	s->iterator_data = NULL;
	s->pos = 0;
	s->begun = s->ended = s->failed = false;
	s->iterations_done = 0;
	s->has_resume = false;
	s->next_print = 0;
	run_set_stop(s, DALIC_DEBUG_STOP_NONE);
	return DALIC_OK;
}

static int run_goto(dalic_debug_t *s, int64_t n)
{
	if (n < 0)
		return dalic_fail(DALIC_EINVAL, "goto: iteration %lld is negative", (long long)n);
	if (n > DALIC_DEBUG_MAX_ITERATIONS)
		return dalic_fail(DALIC_EINVAL,
		                  "goto: iteration %lld is out of reach: one command runs at most "
		                  "%d iterations",
		                  (long long)n, DALIC_DEBUG_MAX_ITERATIONS);
	if (n < s->iteration || (n == s->iteration && (s->pos > 0 || s->begun))) {
		int rc = dalic_debug_restart(s);
		if (rc)
			return rc;
	}
	/* from the start or a loaded checkpoint, the operators move on without running where
	 * they can (the seek of docs/checkpoints.md); else every iteration runs */
	if (n > s->iteration && s->pristine && s->pos == 0 && !s->begun) {
		char *why = NULL;
		int rc = dalic_ckpt_move_nodes(s->e->xnodes, s->e->g->num_nodes, n - s->iteration,
		                               &why);
		if (rc)
			return rc;
		bool moved = why == NULL;
		free(why);
		if (moved) {
			s->iteration = n;
			run_set_stop(s, DALIC_DEBUG_STOP_STEP);
			return DALIC_OK;
		}
	}
	s->prints_muted = true;
	int rc = DALIC_OK;
	for (;;) {
		if (s->pos == s->e->num_ops && s->iteration + 1 == n)
			run_enter_next_iteration(s);
		if (s->iteration == n && s->pos == 0 && !s->begun)
			break;
		rc = run_one(s, false, false);
		if (rc < 0)
			break;
		if (run_interrupted(s)) {
			s->prints_muted = false;
			return DALIC_OK;
		}
	}
	s->prints_muted = false;
	if (rc < 0)
		return rc;
	run_set_stop(s, DALIC_DEBUG_STOP_STEP);
	return DALIC_OK;
}

/* An interrupt that arrives while a command is returning is dropped with it: the command
 * has stopped already. */
static int run_done(dalic_debug_t *s, int rc)
{
	atomic_store_explicit(&s->interrupted, 0, memory_order_relaxed);
	return rc;
}

int dalic_debug_step(dalic_debug_t *s)
{
	return run_done(s, run_step(s));
}

int dalic_debug_next(dalic_debug_t *s)
{
	return run_done(s, run_next(s));
}

int dalic_debug_continue(dalic_debug_t *s, int64_t max_iterations)
{
	return run_done(s, run_continue(s, max_iterations));
}

int dalic_debug_goto(dalic_debug_t *s, int64_t n)
{
	return run_done(s, run_goto(s, n));
}

void dalic_debug_interrupt(dalic_debug_t *s)
{
	/* pending until a run command honours it, so a caller repeating step or next never
	 * loses one that arrives between two calls */
	atomic_store_explicit(&s->interrupted, 1, memory_order_relaxed);
}
