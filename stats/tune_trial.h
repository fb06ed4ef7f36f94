/* Internals shared by the files of stats/tune_*: one trial (tune_trial.c), text helpers. */
#ifndef DALIC_STATS_TUNE_TRIAL_H
#define DALIC_STATS_TUNE_TRIAL_H

#include "stats/tune.h"

typedef struct tune_trial_plan {
	long warmup, iterations;
	bool record_times; /* append each iteration's time to the setting's times_ms */
	int64_t t0;        /* set by the trial: its start */
} tune_trial_plan_t;

/* Runs one trial of `s`; keeps the final snapshot in *keep when given. Sets dalic_last_error
 * on failure. */
int dalic_tune_trial(dalic_tune_t *t, dalic_tune_setting_t *s, const tune_trial_plan_t *plan,
                     dalic_tune_trial_t *r, dalic_stats_snapshot_t **keep);

/* Grows *arr (elements of `size` bytes, *cap of them) to hold at least `need`, doubling. */
int dalic_tune_reserve(void **arr, int *cap, int need, size_t size);

/* Appends to buf (size n) at *w, like snprintf; *w grows by what would have been written,
 * and nothing is written past n. */
void dalic_tune_appendf(char *buf, size_t n, int *w, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
