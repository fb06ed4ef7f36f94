/*
 * The tuner's trial engine (`dalic tune`, the workbench's tune view): measures settings of one
 * pipeline definition against its baseline until the comparison is trustworthy.
 *
 * A trial builds a fresh pipeline from a clone of the definition with one setting's
 * parameters, runs `warmup` then `iterations` iterations (a simulated consumer may hold each
 * batch for a while) and yields one samples/s figure. Trials are paired and interleaved:
 * each round visits every setting still measuring, in an order that rotates by round, as
 * (baseline, setting) or (setting, baseline) alternately, so slow drift of the machine's load
 * hits both sides of a pair alike. The ratio's intervals are 95% for the whole family of
 * comparisons (Bonferroni), so the settings that cannot matter all stay "no measurable
 * difference" 95% of the time, however many there are. A setting stops when it has min_trials trials and either
 * its samples/s or its paired ratio to the baseline has a 95% confidence interval narrower
 * than ±ci, or the ratio's interval lies wholly outside ±ci (decided); everything stops when
 * the budget is spent or every setting has stopped.
 *
 * Verdicts (tune_verdict.c): faster / slower only when the ratio's whole interval lies beyond
 * ±ci (the noise floor asked for); otherwise no measurable difference. The
 * recommendation is a faster setting, or one as fast (its interval not below -ci) holding
 * less memory; else the baseline, with the reason.
 *
 * Uses the public API only (dalic.h, dalic_stats.h). Not thread-safe: one thread drives a
 * tune; the progress callback runs on it.
 */
#ifndef DALIC_STATS_TUNE_H
#define DALIC_STATS_TUNE_H

#include "dalic.h"
#include "dalic_stats.h"

#include <stdio.h>

typedef struct dalic_tune dalic_tune_t;

typedef enum {
	DALIC_TUNE_UNMEASURED = 0, /* fewer than two trials */
	DALIC_TUNE_SAME,           /* no measurable difference */
	DALIC_TUNE_FASTER,
	DALIC_TUNE_SLOWER,
} dalic_tune_verdict_t;

/* One trial: its throughput and the mechanism numbers of its measured phase. */
typedef struct dalic_tune_trial {
	double sps;      /* samples/s over the measured iterations */
	double pair_sps; /* the baseline's samples/s in the same pair (0 for the baseline) */
	int64_t iterations;
	double wall_s; /* of the measured iterations */
	double consumer_wait;      /* share of the wall time the consumer waited in run() */
	double free_slot_wait;     /* share the pipeline waited for a free queue slot */
	double stage_busy[3];      /* stage busy time / wall time (cpu, mixed, gpu) */
	double stage_share[3];     /* of the summed stage time */
	double first_iteration_ms; /* clone + build + first run() */
	int64_t growth_events;     /* buffer growths, warm-up included */
	int64_t growth_bytes;      /* capacity they added (the growths kept) */
	int64_t steady_allocations; /* after warm-up */
	int64_t reserved_total;     /* executor_statistics reserved bytes, all outputs */
	int64_t bytes_live;         /* held by all output buffers (every queue slot) */
} dalic_tune_trial_t;

typedef struct dalic_tune_setting {
	char name[96];
	char flags[160]; /* command-line flags that apply it */
	dalic_pipeline_params_t params;
	bool per_op_hints; /* bytes_per_sample_hint of each output := the baseline's measure */
	/* results */
	int status; /* DALIC_OK, or why it failed (error[]) */
	char error[256];
	int num_trials, cap_trials;
	dalic_tune_trial_t *trials;
	int num_times, cap_times;
	double *times_ms; /* consumer-side time per iteration (run() to run()), every trial */
	bool done;        /* stopped measuring (converged, decided or failed) */
	/* summary (dalic_tune_summarize) */
	double median_sps, mean_sps, ci;       /* ci: 95% half-width of the mean, relative */
	double gain, gain_lo, gain_hi; /* ratio to the baseline - 1, with its CI: 95% family-wise
	                                  (each at 1 - 0.05/k for k settings, Bonferroni) */
	double p50_ms, p99_ms;
	int64_t iterations; /* measured, all trials */
	dalic_tune_trial_t mean; /* the trials' mechanism numbers: means (memory: the largest) */
	dalic_tune_verdict_t verdict;
} dalic_tune_setting_t;

typedef struct dalic_tune_options {
	double ci;         /* target 95% half-width, relative; default 0.02 */
	double budget_s;   /* wall-clock budget for the trials; 0 = sized for the pipeline */
	int min_trials;    /* per setting before it may stop; default 4 */
	int max_trials;    /* per setting; default 40 */
	long iterations;   /* measured per trial; 0 = about trial_s worth (at least 5) */
	long warmup;       /* per trial, not measured; default 2 */
	double trial_s;    /* measured time per trial when iterations = 0; default 0.3 */
	double consumer_ms, consumer_jitter_ms; /* simulated consumer per batch: uniform in
	                                           mean ± jitter, the same sequence every trial */
	uint64_t consumer_seed;
	/* after every trial: what ran, with the tune's state (may be NULL) */
	void (*progress)(void *user, const dalic_tune_t *t, int setting);
	void *user;
	volatile int *cancel; /* set non-zero (any thread) to stop after the current trial */
} dalic_tune_options_t;

struct dalic_tune {
	dalic_pipeline_t *def; /* borrowed definition, never built */
	dalic_tune_options_t opt;
	dalic_stats_snapshot_t *base; /* the calibration run's snapshot: hints, stages, growth */
	double base_iteration_s;      /* measured by the calibration */
	dalic_tune_setting_t *s;      /* s[0] is the baseline */
	int n, cap;
	int64_t t_start;
	double budget_s; /* in effect: the option, or the one sized for the pipeline */
	double elapsed_s;
	int trials_run, rounds;
	bool budget_spent, cancelled;
	int recommended; /* index; 0 = keep the current settings */
	char reason[1024];
};

void dalic_tune_options_init(dalic_tune_options_t *o);
/* A tune of `def` (borrowed) whose baseline is def's parameters; adds s[0]. */
int dalic_tune_create(dalic_pipeline_t *def, const dalic_tune_options_t *o, dalic_tune_t **out);
void dalic_tune_free(dalic_tune_t *t);
/* Runs the baseline once: its snapshot (hints, stages, growth), the iteration time that sizes
 * the trials and the default budget. Fails when the pipeline as defined fails. */
int dalic_tune_calibrate(dalic_tune_t *t);
/* A setting to compare; NULL when out of memory. */
dalic_tune_setting_t *dalic_tune_add(dalic_tune_t *t, const dalic_pipeline_params_t *p,
                                     const char *flags, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The standard sweep (tune_plan.c) over the axes asked: prefetch depths and separated
 * queues, threads, bytes_per_sample and per-operator hints. After calibrate. */
enum {
	DALIC_TUNE_AXIS_PREFETCH = 1u << 0,
	DALIC_TUNE_AXIS_THREADS = 1u << 1,
	DALIC_TUNE_AXIS_BYTES = 1u << 2,
	DALIC_TUNE_AXES_ALL = 7u,
};
void dalic_tune_plan(dalic_tune_t *t, unsigned axes);
/* The interleaved trials; then summarizes and decides. A setting that fails is marked and
 * skipped; DALIC_OK unless the baseline itself fails. */
int dalic_tune_run(dalic_tune_t *t);
/* Medians, CIs, percentiles, mechanism means; verdicts; the recommendation (tune_verdict.c). */
void dalic_tune_summarize(dalic_tune_t *t);
void dalic_tune_decide(dalic_tune_t *t);
const char *dalic_tune_verdict_name(dalic_tune_verdict_t v);
/* One line on why setting i moves the throughput, from the collector's numbers against the
 * baseline's (tune_mechanism.c): consumer/free-slot waits and stage busy time for prefetch
 * depth, stage shares for threads, buffer growths and the first iteration for
 * bytes_per_sample. Empty for the baseline or an unmeasured setting; returns the length. */
int dalic_tune_mechanism(const dalic_tune_t *t, int i, char *buf, size_t n);
/* Applies the per-operator hints of the calibration snapshot to an unbuilt pipeline. */
int dalic_tune_apply_hints(dalic_pipeline_t *p, const dalic_stats_snapshot_t *base);

/* ---- results as Python (tune_hints.c, tune_apply.c) ------------------------------------ */
/* The calibration's suggested bytes_per_sample_hint of each user operator, as lines to paste
 * into the operator calls, then the pipeline-wide flag. Nothing when no output was measured.
 * Returns the number of operators written. */
int dalic_tune_write_hints(const dalic_tune_t *t, FILE *f);
/* `src` (the text of script `path`) with the parameters of `chosen` that differ from `base`
 * written as arguments of the call of its first @pipeline_def function: a keyword given is
 * replaced, a new one appended. New text in *out (free()). DALIC_EUNSUPPORTED when the
 * script has no such call, DALIC_EPARSE when its argument list does not close. */
int dalic_tune_rewrite_script(const char *src, const char *path,
                              const dalic_pipeline_params_t *base,
                              const dalic_pipeline_params_t *chosen, char **out);
/* The definition with setting `s` as DALI's serialized bytes; DALIC_EUNSUPPORTED for
 * per-operator hints, which DALI never serializes. *buf is new: free(). */
int dalic_tune_serialize(const dalic_tune_t *t, const dalic_tune_setting_t *s, void **buf,
                         size_t *len);

/* ---- statistics of small samples (tune_math.c) ---------------------------------------- */
/* The p-quantile of Student's t with `df` degrees of freedom (inverted from the incomplete
 * beta function); t95 is the two-sided 95% one, p = 0.975. */
double dalic_tune_t_quantile(int df, double p);
double dalic_tune_t95(int df);
/* Mean and 95% (or `level`) half-width of x[0..n) from Student's t; INFINITY for n < 2. */
void dalic_tune_mean_ci(const double *x, int n, double *mean, double *half);
void dalic_tune_mean_ci_at(const double *x, int n, double level, double *mean, double *half);
/* Median of x[0..n) (sorts a copy); 0 when n == 0. */
double dalic_tune_median(const double *x, int n);
/* The q-quantile (0..1, nearest rank) of x[0..n), sorted in place. */
double dalic_tune_quantile(double *x, int n, double q);

#endif
