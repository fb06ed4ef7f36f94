/*
 * The tuner's verdicts and recommendation (stats/tune.h). A change counts only when the
 * paired ratio's whole 95% interval lies beyond the noise floor (±ci): a lucky narrow
 * interval of a few trials around +ci is not enough; "as fast" means the interval does not
 * reach below -ci.
 */
#include "stats/tune_trial.h"

#include <math.h>
#include <stdio.h>

const char *dalic_tune_verdict_name(dalic_tune_verdict_t v)
{
	switch (v) {
	case DALIC_TUNE_SAME:
		return "no measurable difference";
	case DALIC_TUNE_FASTER:
		return "faster";
	case DALIC_TUNE_SLOWER:
		return "slower";
	default:
		return "not measured";
	}
}

static dalic_tune_verdict_t tune_verdict_of(const dalic_tune_t *t, const dalic_tune_setting_t *s)
{
	if (s->status || s->num_trials < 2 || !isfinite(s->gain_lo) || !isfinite(s->gain_hi))
		return DALIC_TUNE_UNMEASURED;
	double noise = t->opt.ci;
	if (s->gain_lo > noise)
		return DALIC_TUNE_FASTER;
	if (s->gain_hi < -noise)
		return DALIC_TUNE_SLOWER;
	return DALIC_TUNE_SAME;
}

static double tune_mib(int64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

/* a is better than b at the same speed: less memory held by output buffers (every queue
 * slot: executor_statistics' reserved bytes count one buffer per output, so they cannot see
 * a deeper queue), then shallower queues, then fewer threads. */
static bool tune_leaner(const dalic_tune_setting_t *a, const dalic_tune_setting_t *b)
{
	if (a->mean.bytes_live != b->mean.bytes_live)
		return a->mean.bytes_live < b->mean.bytes_live;
	int da = a->params.prefetch_cpu + a->params.prefetch_gpu;
	int db = b->params.prefetch_cpu + b->params.prefetch_gpu;
	if (da != db)
		return da < db;
	return a->params.num_threads < b->params.num_threads;
}

static int tune_pick_faster(const dalic_tune_t *t)
{
	int best = -1;
	for (int i = 1; i < t->n; i++)
		if (t->s[i].verdict == DALIC_TUNE_FASTER &&
		    (best < 0 || t->s[i].gain > t->s[best].gain))
			best = i;
	if (best < 0)
		return -1;
	int pick = best; /* among those the data cannot tell from the fastest, the leanest */
	for (int i = 1; i < t->n; i++)
		if (t->s[i].verdict == DALIC_TUNE_FASTER && t->s[i].gain_hi >= t->s[best].gain_lo &&
		    tune_leaner(&t->s[i], &t->s[pick]))
			pick = i;
	return pick;
}

static int tune_pick_leaner(const dalic_tune_t *t)
{
	const dalic_tune_setting_t *b = &t->s[0];
	int pick = -1;
	for (int i = 1; i < t->n; i++) {
		const dalic_tune_setting_t *s = &t->s[i];
		if (s->verdict != DALIC_TUNE_SAME || s->gain_lo < -t->opt.ci ||
		    s->mean.bytes_live > b->mean.bytes_live * 0.95 ||
		    b->mean.bytes_live - s->mean.bytes_live < 4096)
			continue;
		if (pick < 0 || tune_leaner(s, &t->s[pick]))
			pick = i;
	}
	return pick;
}

static void tune_ci_text(char *buf, size_t n, int *w, const dalic_tune_setting_t *s)
{
	dalic_tune_appendf(buf, n, w,
	                   "%+.1f%% samples/s (95%% CI %+.1f%% .. %+.1f%%, %d paired trials)",
	                   100 * s->gain, 100 * s->gain_lo, 100 * s->gain_hi, s->num_trials);
}

static void tune_reason_keep(dalic_tune_t *t)
{
	char *r = t->reason;
	size_t n = sizeof t->reason;
	int best = -1, open = 0;
	for (int i = 1; i < t->n; i++) {
		if (t->s[i].verdict == DALIC_TUNE_UNMEASURED)
			continue;
		if (best < 0 || t->s[i].gain > t->s[best].gain)
			best = i;
		open += t->s[i].verdict == DALIC_TUNE_SAME && !t->s[i].done;
	}
	int w = 0;
	dalic_tune_appendf(r, n, &w, "keep the current settings: no setting is faster beyond the noise "
	                       "(±%.1f%%) and none is as fast with less memory",
	                 100 * t->opt.ci);
	if (best > 0) {
		dalic_tune_appendf(r, n, &w, "; the best, %s, measured ", t->s[best].name);
		tune_ci_text(r, n, &w, &t->s[best]);
	}
	if (open > 0)
		dalic_tune_appendf(r, n, &w,
		         "; %d setting%s did not narrow to ±%.1f%% within the budget (%.0f s): "
		         "a longer --budget may resolve %s",
		         open, open > 1 ? "s" : "", 100 * t->opt.ci, t->elapsed_s,
		         open > 1 ? "them" : "it");
}

void dalic_tune_decide(dalic_tune_t *t)
{
	for (int i = 0; i < t->n; i++)
		t->s[i].verdict = i ? tune_verdict_of(t, &t->s[i]) : DALIC_TUNE_SAME;
	t->recommended = 0;
	if (t->s[0].status) {
		snprintf(t->reason, sizeof t->reason, "the pipeline as defined fails: %s",
		         t->s[0].error);
		return;
	}
	int pick = tune_pick_faster(t);
	bool faster = pick > 0;
	if (!faster)
		pick = tune_pick_leaner(t);
	if (pick <= 0) {
		tune_reason_keep(t);
		return;
	}
	t->recommended = pick;
	const dalic_tune_setting_t *s = &t->s[pick], *b = &t->s[0];
	int w = 0;
	size_t n = sizeof t->reason;
	dalic_tune_appendf(t->reason, n, &w, "%s is %s: ", s->name,
	                   faster ? "faster beyond the noise" : "as fast and holds less memory");
	tune_ci_text(t->reason, n, &w, s);
	dalic_tune_appendf(t->reason, n, &w,
	         ", %.1f against %.1f samples/s (medians); its output buffers hold %.2f MiB "
	         "against %.2f MiB (executor_statistics reserved: %.2f against %.2f MiB)",
	         s->median_sps, b->median_sps, tune_mib(s->mean.bytes_live),
	         tune_mib(b->mean.bytes_live), tune_mib(s->mean.reserved_total),
	         tune_mib(b->mean.reserved_total));
}
