/*
 * One trial of the tuner (stats/tune.h): a fresh pipeline from the definition with one
 * setting's parameters, warm-up, measured iterations with the simulated consumer, and the
 * numbers of the measured phase taken as differences of two collector snapshots.
 */
#include "stats/tune_trial.h"

#include "engine/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct tune_consumer {
	uint64_t rng;
	double u;
	bool odd;
} tune_consumer_t;

static uint64_t tune_rng_next(uint64_t *state)
{
	uint64_t x = (*state += 0x9e3779b97f4a7c15ull);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The consumer holds the batch for mean ± jitter ms, as a training step would: uniform
 * draws in antithetic pairs (u, 1 - u), so every two batches average exactly `mean` and a
 * short trial is not skewed by its draws. */
static void tune_consume(const dalic_tune_options_t *o, tune_consumer_t *c)
{
	if (o->consumer_ms <= 0 && o->consumer_jitter_ms <= 0)
		return;
	double u = c->odd ? 1 - c->u : (double)(tune_rng_next(&c->rng) >> 11) * 0x1.0p-53;
	c->u = u;
	c->odd = !c->odd;
	double ms = o->consumer_ms + o->consumer_jitter_ms * (2 * u - 1);
	if (ms <= 0)
		return;
	int64_t ns = (int64_t)(ms * 1e6);
	struct timespec d = {ns / 1000000000, ns % 1000000000};
	while (nanosleep(&d, &d))
		;
}

static int tune_push_time(dalic_tune_setting_t *s, double ms)
{
	DALIC_TRY(dalic_tune_reserve((void **)&s->times_ms, &s->cap_times, s->num_times + 1,
	                             sizeof *s->times_ms));
	s->times_ms[s->num_times++] = ms;
	return DALIC_OK;
}

/* run() with the consumer after it; *samples counts output 0's batch. DALIC_EEND passes. */
static int tune_step(dalic_tune_t *t, dalic_pipeline_t *p, tune_consumer_t *rng, int64_t *samples)
{
	int rc = dalic_pipeline_run(p);
	if (rc)
		return rc;
	if (samples && dalic_pipeline_num_outputs(p) > 0)
		*samples += dalic_batch_num_samples(dalic_pipeline_output(p, 0));
	tune_consume(&t->opt, rng);
	return DALIC_OK;
}

static int64_t tune_growth_bytes(const dalic_stats_snapshot_t *s)
{
	int64_t b = 0;
	for (int i = 0; i < s->num_growth; i++)
		b += s->growth[i].new_capacity - s->growth[i].old_capacity;
	return b;
}

/* The measured phase from the snapshots after warm-up (w) and at the end (e). */
static void tune_trial_numbers(dalic_tune_trial_t *r, const dalic_stats_snapshot_t *w,
                               const dalic_stats_snapshot_t *e, double wall_s)
{
	double wall_ns = wall_s * 1e9, total = 0;
	r->consumer_wait = (double)(e->waits[DALIC_STATS_WAIT_CONSUMER].total_ns -
	                            w->waits[DALIC_STATS_WAIT_CONSUMER].total_ns) / wall_ns;
	r->free_slot_wait = (double)(e->waits[DALIC_STATS_WAIT_FREE_SLOT].total_ns -
	                             w->waits[DALIC_STATS_WAIT_FREE_SLOT].total_ns) / wall_ns;
	double busy[3];
	for (int k = 0; k < 3; k++) {
		busy[k] = (double)(e->stages[k].time.total_ns - w->stages[k].time.total_ns);
		r->stage_busy[k] = busy[k] / wall_ns;
		total += busy[k];
	}
	for (int k = 0; k < 3; k++)
		r->stage_share[k] = total > 0 ? busy[k] / total : 0;
	r->growth_events = e->growth_events;
	r->growth_bytes = tune_growth_bytes(e);
	r->steady_allocations = e->allocations - w->allocations;
	r->reserved_total = e->reserved_total;
	r->bytes_live = e->bytes_live;
}

static int tune_trial_body(dalic_tune_t *t, dalic_tune_setting_t *s, dalic_pipeline_t *p,
                           dalic_stats_t *st, const tune_trial_plan_t *plan,
                           dalic_tune_trial_t *r, dalic_stats_snapshot_t **end)
{
	tune_consumer_t rng = {.rng = t->opt.consumer_seed};
	dalic_stats_snapshot_t *w = NULL;
	int rc = DALIC_OK;
	for (long i = 0; !rc && i < plan->warmup; i++) {
		rc = tune_step(t, p, &rng, NULL);
		if (!rc && i == 0)
			r->first_iteration_ms = (double)(dalic_clock_ns() - plan->t0) * 1e-6;
	}
	if (!rc)
		rc = dalic_stats_snapshot(st, &w);
	int64_t samples = 0, t0 = dalic_clock_ns(), last = t0;
	long done = 0;
	for (; !rc && done < plan->iterations; done++) {
		rc = tune_step(t, p, &rng, &samples);
		int64_t now = dalic_clock_ns();
		if (!rc && plan->record_times)
			rc = tune_push_time(s, (double)(now - last) * 1e-6);
		last = now;
	}
	if (rc == DALIC_EEND)
		rc = done > 1 ? DALIC_OK
		              : dalic_fail(DALIC_EEND, "the pipeline ended after %ld measured iterations",
		                           done > 0 ? done - 1 : 0);
	double wall = (double)(last - t0) * 1e-9;
	if (!rc)
		rc = dalic_stats_snapshot(st, end);
	if (!rc) {
		r->iterations = done;
		r->wall_s = wall;
		r->sps = wall > 0 ? (double)samples / wall : 0;
		tune_trial_numbers(r, w, *end, wall > 0 ? wall : 1e-9);
	}
	dalic_stats_snapshot_free(w);
	return rc;
}

int dalic_tune_trial(dalic_tune_t *t, dalic_tune_setting_t *s, const tune_trial_plan_t *plan,
                     dalic_tune_trial_t *r, dalic_stats_snapshot_t **keep)
{
	memset(r, 0, sizeof *r);
	tune_trial_plan_t pl = *plan;
	pl.t0 = dalic_clock_ns();
	if (pl.warmup < 1)
		pl.warmup = 1; /* the first iteration is timed on its own */
	dalic_pipeline_t *p = NULL;
	dalic_stats_t *st = NULL;
	dalic_stats_snapshot_t *end = NULL;
	int rc = dalic_pipeline_clone(t->def, &s->params, &p);
	if (!rc && s->per_op_hints && t->base)
		rc = dalic_tune_apply_hints(p, t->base);
	if (!rc)
		rc = dalic_stats_create(p, NULL, &st);
	if (!rc)
		rc = tune_trial_body(t, s, p, st, &pl, r, &end);
	dalic_pipeline_destroy(p);
	if (st)
		dalic_stats_pipeline_destroyed(st);
	dalic_stats_destroy(st);
	if (!rc && keep)
		*keep = end, end = NULL;
	dalic_stats_snapshot_free(end);
	return rc;
}

int dalic_tune_apply_hints(dalic_pipeline_t *p, const dalic_stats_snapshot_t *base)
{
	for (int i = 0; i < dalic_pipeline_num_ops(p); i++) {
		dalic_op_t *op = dalic_pipeline_op(p, i);
		const dalic_stats_operator_t *st = dalic_stats_find_operator(base, dalic_op_name(op));
		if (!st || st->num_outputs != dalic_op_num_outputs(op) || st->num_outputs == 0)
			continue;
		int64_t hints[16];
		int n = st->num_outputs < 16 ? st->num_outputs : 16;
		for (int o = 0; o < n; o++)
			hints[o] = st->outputs[o].suggested_hint;
		int rc = dalic_op_set_ints(op, "bytes_per_sample_hint", n, hints);
		if (rc)
			return rc;
	}
	return DALIC_OK;
}
