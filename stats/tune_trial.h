/* One trial of the tuner (tune_trial.c), shared by the engine files of stats/tune_*. */
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

#endif
