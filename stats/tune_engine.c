/*
 * The tuner's trial engine (stats/tune.h): settings, calibration, the paired interleaved
 * rounds and when a setting stops measuring.
 */
#include "stats/tune_trial.h"

#include "engine/error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dalic_tune_options_init(dalic_tune_options_t *o)
{
	memset(o, 0, sizeof *o);
	o->ci = 0.02;
	o->min_trials = 4;
	o->max_trials = 40;
	o->warmup = 2;
	o->trial_s = 0.3;
	o->consumer_seed = 0x5eed;
}

dalic_tune_setting_t *dalic_tune_add(dalic_tune_t *t, const dalic_pipeline_params_t *p,
                                     const char *flags, const char *fmt, ...)
{
	if (dalic_tune_reserve((void **)&t->s, &t->cap, t->n + 1, sizeof *t->s))
		return NULL;
	dalic_tune_setting_t *s = &t->s[t->n];
	memset(s, 0, sizeof *s);
	s->params = *p;
	s->params.enable_memory_stats = true; /* executor_statistics: the memory held */
	snprintf(s->flags, sizeof s->flags, "%s", flags ? flags : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->name, sizeof s->name, fmt, ap);
	va_end(ap);
	t->n++;
	return s;
}

int dalic_tune_create(dalic_pipeline_t *def, const dalic_tune_options_t *o, dalic_tune_t **out)
{
	*out = NULL;
	if (!def)
		return dalic_fail(DALIC_EINVAL, "dalic tune: no pipeline");
	dalic_tune_t *t = calloc(1, sizeof *t);
	if (!t)
		return dalic_fail(DALIC_ENOMEM, "dalic tune: out of memory");
	t->def = def;
	if (o)
		t->opt = *o;
	else
		dalic_tune_options_init(&t->opt);
	if (t->opt.min_trials < 2)
		t->opt.min_trials = 2;
	if (t->opt.max_trials < t->opt.min_trials)
		t->opt.max_trials = t->opt.min_trials;
	if (!dalic_tune_add(t, dalic_pipeline_params(def), "", "baseline")) {
		free(t);
		return dalic_fail(DALIC_ENOMEM, "dalic tune: out of memory");
	}
	*out = t;
	return DALIC_OK;
}

void dalic_tune_free(dalic_tune_t *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n; i++) {
		free(t->s[i].trials);
		free(t->s[i].times_ms);
	}
	free(t->s);
	dalic_stats_snapshot_free(t->base);
	free(t);
}

/* Measured iterations per trial: the option, or about trial_s of the baseline's pace. */
static long tune_trial_iterations(const dalic_tune_t *t)
{
	if (t->opt.iterations > 0)
		return t->opt.iterations;
	double it = t->base_iteration_s > 0 ? t->base_iteration_s : 0.01;
	double n = t->opt.trial_s / it;
	return n < 5 ? 5 : n > 100000 ? 100000 : (long)n;
}

int dalic_tune_calibrate(dalic_tune_t *t)
{
	dalic_tune_setting_t *b = &t->s[0];
	tune_trial_plan_t plan = {.warmup = t->opt.warmup,
	                          .iterations = t->opt.iterations > 0 ? t->opt.iterations : 5};
	dalic_tune_trial_t r;
	dalic_stats_snapshot_free(t->base);
	t->base = NULL;
	int rc = dalic_tune_trial(t, b, &plan, &r, &t->base);
	if (rc)
		return rc;
	t->base_iteration_s = r.iterations > 0 ? r.wall_s / (double)r.iterations : 0.01;
	return DALIC_OK;
}

/* Seconds one pair of trials should take; sizes the default budget. */
static double tune_pair_s(const dalic_tune_t *t)
{
	double it = t->base_iteration_s > 0 ? t->base_iteration_s : 0.01;
	return 2 * ((double)(tune_trial_iterations(t) + t->opt.warmup) * it + 0.02);
}

static double tune_budget_s(const dalic_tune_t *t)
{
	if (t->opt.budget_s > 0)
		return t->opt.budget_s;
	double b = tune_pair_s(t) * (t->n - 1) * t->opt.min_trials * 2.5;
	return b < 10 ? 10 : b > 600 ? 600 : b;
}

static int tune_push_trial(dalic_tune_setting_t *s, const dalic_tune_trial_t *r)
{
	DALIC_TRY(dalic_tune_reserve((void **)&s->trials, &s->cap_trials, s->num_trials + 1,
	                             sizeof *s->trials));
	s->trials[s->num_trials++] = *r;
	return DALIC_OK;
}

static void tune_mark_failed(dalic_tune_setting_t *s, int rc)
{
	s->status = rc;
	s->done = true;
	snprintf(s->error, sizeof s->error, "%s", dalic_last_error());
}

/* The confidence of each comparison: 95% for the family of them (Bonferroni), so that all
 * the settings that cannot matter together get a false "faster" at most 5% of the time. */
static double tune_pair_level(const dalic_tune_t *t)
{
	return 1 - 0.05 / (t->n > 2 ? t->n - 1 : 1);
}

/* The relative 95% half-width of a setting's samples/s; the mean and half-width of its
 * paired log ratio at the family-wise level. */
static void tune_widths(const dalic_tune_t *t, const dalic_tune_setting_t *s, double *sps_rel,
                        double *ratio_mean, double *ratio_half)
{
	int n = s->num_trials;
	double *x = calloc((size_t)(n ? n : 1), sizeof *x);
	*sps_rel = *ratio_half = INFINITY;
	*ratio_mean = 0;
	if (!x)
		return;
	double m, h;
	for (int i = 0; i < n; i++)
		x[i] = s->trials[i].sps;
	dalic_tune_mean_ci(x, n, &m, &h);
	*sps_rel = m > 0 ? h / m : INFINITY;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (s->trials[i].sps > 0 && s->trials[i].pair_sps > 0)
			x[k++] = log(s->trials[i].sps / s->trials[i].pair_sps);
	dalic_tune_mean_ci_at(x, k, tune_pair_level(t), ratio_mean, ratio_half);
	free(x);
}

/* Converged (either interval narrower than ±ci) or decided (the ratio's interval wholly
 * beyond ±ci), after min_trials; or out of trials. */
static bool tune_setting_done(const dalic_tune_t *t, const dalic_tune_setting_t *s)
{
	if (s->num_trials < t->opt.min_trials)
		return false;
	if (s->num_trials >= t->opt.max_trials)
		return true;
	double sps_rel, m, h;
	tune_widths(t, s, &sps_rel, &m, &h);
	double ci = log1p(t->opt.ci);
	return sps_rel <= t->opt.ci || h <= ci || m - h > ci || m + h < -ci;
}

static bool tune_out_of_time(dalic_tune_t *t)
{
	t->elapsed_s = (double)(dalic_clock_ns() - t->t_start) * 1e-9;
	if (t->opt.cancel && *t->opt.cancel)
		t->cancelled = true;
	if (t->elapsed_s >= t->budget_s)
		t->budget_spent = true;
	return t->cancelled || t->budget_spent;
}

/* Baseline and setting i, in the order asked; the pair is recorded on both. */
static int tune_pair(dalic_tune_t *t, int i, bool baseline_first)
{
	tune_trial_plan_t plan = {.warmup = t->opt.warmup,
	                          .iterations = tune_trial_iterations(t),
	                          .record_times = true};
	dalic_tune_trial_t rb, rs;
	int rc_s = DALIC_OK, rc_b;
	if (!baseline_first)
		rc_s = dalic_tune_trial(t, &t->s[i], &plan, &rs, NULL);
	if (rc_s) {
		tune_mark_failed(&t->s[i], rc_s);
		return DALIC_OK;
	}
	rc_b = dalic_tune_trial(t, &t->s[0], &plan, &rb, NULL);
	if (rc_b) {
		tune_mark_failed(&t->s[0], rc_b);
		return rc_b;
	}
	if (baseline_first && (rc_s = dalic_tune_trial(t, &t->s[i], &plan, &rs, NULL))) {
		tune_mark_failed(&t->s[i], rc_s);
		return DALIC_OK;
	}
	t->trials_run += 2;
	rs.pair_sps = rb.sps;
	rb.pair_sps = 0;
	DALIC_TRY(tune_push_trial(&t->s[0], &rb));
	DALIC_TRY(tune_push_trial(&t->s[i], &rs));
	t->s[i].done = tune_setting_done(t, &t->s[i]);
	return DALIC_OK;
}

static int tune_round(dalic_tune_t *t, int *active, int nact)
{
	int start = t->rounds % nact;
	for (int k = 0; k < nact; k++) {
		if (tune_out_of_time(t))
			return DALIC_OK;
		int i = active[(start + k) % nact];
		DALIC_TRY(tune_pair(t, i, (t->rounds + k) % 2 == 0));
		if (t->opt.progress)
			t->opt.progress(t->opt.user, t, i);
	}
	t->rounds++;
	return DALIC_OK;
}

int dalic_tune_run(dalic_tune_t *t)
{
	if (!t->base)
		DALIC_TRY(dalic_tune_calibrate(t));
	int *active = malloc((size_t)t->n * sizeof *active);
	if (!active)
		return dalic_fail(DALIC_ENOMEM, "dalic tune: out of memory");
	t->t_start = dalic_clock_ns();
	t->budget_s = tune_budget_s(t);
	int rc = DALIC_OK;
	while (!rc && !tune_out_of_time(t)) {
		int nact = 0;
		for (int i = 1; i < t->n; i++)
			if (!t->s[i].done)
				active[nact++] = i;
		if (!nact)
			break;
		rc = tune_round(t, active, nact);
	}
	free(active);
	t->elapsed_s = (double)(dalic_clock_ns() - t->t_start) * 1e-9;
	dalic_tune_summarize(t);
	dalic_tune_decide(t);
	return rc;
}

/* Means of the trials' mechanism numbers; memory and growth: the largest seen. */
static void tune_mean_trial(dalic_tune_setting_t *s)
{
	dalic_tune_trial_t *m = &s->mean;
	memset(m, 0, sizeof *m);
	int n = s->num_trials;
	for (int i = 0; i < n; i++) {
		const dalic_tune_trial_t *r = &s->trials[i];
		m->consumer_wait += r->consumer_wait / n;
		m->free_slot_wait += r->free_slot_wait / n;
		for (int k = 0; k < 3; k++) {
			m->stage_busy[k] += r->stage_busy[k] / n;
			m->stage_share[k] += r->stage_share[k] / n;
		}
		m->first_iteration_ms += r->first_iteration_ms / n;
		m->iterations += r->iterations;
#define TUNE_MAX(f) m->f = r->f > m->f ? r->f : m->f
		TUNE_MAX(growth_events);
		TUNE_MAX(growth_bytes);
		TUNE_MAX(steady_allocations);
		TUNE_MAX(reserved_total);
		TUNE_MAX(bytes_live);
#undef TUNE_MAX
	}
}

void dalic_tune_summarize(dalic_tune_t *t)
{
	for (int i = 0; i < t->n; i++) {
		dalic_tune_setting_t *s = &t->s[i];
		int n = s->num_trials;
		double *x = malloc((size_t)(n ? n : 1) * sizeof *x);
		if (!x)
			continue;
		for (int k = 0; k < n; k++)
			x[k] = s->trials[k].sps;
		double h;
		s->median_sps = dalic_tune_median(x, n);
		dalic_tune_mean_ci(x, n, &s->mean_sps, &h);
		s->ci = s->mean_sps > 0 ? h / s->mean_sps : INFINITY;
		free(x);
		double sps_rel, m, rh;
		tune_widths(t, s, &sps_rel, &m, &rh);
		s->gain = i ? expm1(m) : 0;
		s->gain_lo = i ? expm1(m - rh) : 0;
		s->gain_hi = i ? expm1(m + rh) : 0;
		s->p50_ms = dalic_tune_quantile(s->times_ms, s->num_times, 0.5);
		s->p99_ms = dalic_tune_quantile(s->times_ms, s->num_times, 0.99);
		tune_mean_trial(s);
		s->iterations = s->mean.iterations;
	}
}
