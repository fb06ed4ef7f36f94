/*
 * Why a setting changes the throughput, in the numbers the collector measured (stats/tune.h):
 * prefetch depth by the consumer's waits and the stages' busy time, bytes_per_sample by the
 * buffer growths the hints remove and the first iteration's time, num_threads by each
 * stage's share of the work and how busy it is.
 */
#include "stats/tune_trial.h"

#include <stdio.h>
#include <string.h>

static const char *const tune_stage_names[3] = {"cpu", "mixed", "gpu"};

/* Shares as whole percents; stage time of iterations begun before the measured window can
 * push a busy share past 100%, which reads as "always busy". */
static int tune_pct(double x)
{
	int p = (int)(100 * x + 0.5);
	return p > 100 ? 100 : p;
}

/* The busiest stage's busy fraction and index. */
static double tune_busiest(const dalic_tune_trial_t *m, int *k)
{
	*k = 0;
	for (int i = 1; i < 3; i++)
		if (m->stage_busy[i] > m->stage_busy[*k])
			*k = i;
	return m->stage_busy[*k];
}

static int tune_mech_prefetch(char *buf, size_t n, const dalic_tune_trial_t *s,
                              const dalic_tune_trial_t *b)
{
	int ks, kb;
	double bs = tune_busiest(s, &ks), bb = tune_busiest(b, &kb);
	return snprintf(buf, n,
	                "consumer waits %d%% of the time (baseline %d%%), the pipeline waits for a "
	                "free slot %d%% (%d%%), the busiest stage (%s) works %d%% (%s %d%%)",
	                tune_pct(s->consumer_wait), tune_pct(b->consumer_wait),
	                tune_pct(s->free_slot_wait), tune_pct(b->free_slot_wait),
	                tune_stage_names[ks], tune_pct(bs), tune_stage_names[kb], tune_pct(bb));
}

static int tune_mech_threads(char *buf, size_t n, const dalic_tune_trial_t *s,
                             const dalic_tune_trial_t *b)
{
	int w = 0;
	dalic_tune_appendf(buf, n, &w, "share of the work per stage");
	for (int k = 0, first = 1; k < 3; k++)
		if (s->stage_share[k] > 0 || b->stage_share[k] > 0) {
			dalic_tune_appendf(buf, n, &w, "%s %s %d%% (baseline %d%%), busy %d%% (%d%%)",
			                   first ? ":" : ";", tune_stage_names[k],
			                   tune_pct(s->stage_share[k]), tune_pct(b->stage_share[k]),
			                   tune_pct(s->stage_busy[k]), tune_pct(b->stage_busy[k]));
			first = 0;
		}
	return w;
}

/* The growths the calibration run saw: how many, the bytes, and the first few causes. */
static void tune_mech_growth_causes(char *buf, size_t n, int *wp,
                                    const dalic_stats_snapshot_t *base)
{
	if (!base || base->growth_events == 0) {
		dalic_tune_appendf(buf, n, wp, "; the baseline's buffers never grew");
		return;
	}
	int64_t bytes = 0;
	for (int i = 0; i < base->num_growth; i++)
		bytes += base->growth[i].new_capacity - base->growth[i].old_capacity;
	int w = *wp;
	dalic_tune_appendf(buf, n, &w, "; the baseline's buffers grew %lld times (%.2f MiB",
	                   (long long)base->growth_events, (double)bytes / (1024.0 * 1024.0));
	for (int i = 0; i < base->num_growth && i < 3; i++) {
		const dalic_stats_growth_t *g = &base->growth[i];
		dalic_tune_appendf(buf, n, &w, "%s %s output %d at iteration %lld, sample %d%s%s%s",
		                   i ? ";" : ":", g->op, g->output, (long long)g->iteration, g->sample,
		                   g->source ? " from " : "", g->source ? g->source : "", "");
	}
	dalic_tune_appendf(buf, n, &w, ")");
	*wp = w;
}

static int tune_mech_bytes(char *buf, size_t n, const dalic_tune_t *t,
                           const dalic_tune_trial_t *s, const dalic_tune_trial_t *b)
{
	int w = 0;
	dalic_tune_appendf(buf, n, &w,
	                 "buffer growths per trial %lld (baseline %lld), allocations after warm-up "
	                 "%lld (%lld), first iteration %.1f ms (%.1f ms)",
	                 (long long)s->growth_events, (long long)b->growth_events,
	                 (long long)s->steady_allocations, (long long)b->steady_allocations,
	                 s->first_iteration_ms, b->first_iteration_ms);
	tune_mech_growth_causes(buf, n, &w, t->base);
	return w;
}

int dalic_tune_mechanism(const dalic_tune_t *t, int i, char *buf, size_t n)
{
	if (n)
		buf[0] = 0;
	if (i <= 0 || i >= t->n || t->s[i].status || t->s[i].num_trials == 0)
		return 0;
	const dalic_tune_setting_t *s = &t->s[i], *b = &t->s[0];
	const dalic_pipeline_params_t *p = &s->params, *q = &b->params;
	if (p->prefetch_cpu != q->prefetch_cpu || p->prefetch_gpu != q->prefetch_gpu ||
	    p->separated_queues != q->separated_queues)
		return tune_mech_prefetch(buf, n, &s->mean, &b->mean);
	if (p->num_threads != q->num_threads)
		return tune_mech_threads(buf, n, &s->mean, &b->mean);
	if (p->bytes_per_sample != q->bytes_per_sample || s->per_op_hints)
		return tune_mech_bytes(buf, n, t, &s->mean, &b->mean);
	return 0;
}
