/*
 * The tuner's standard sweep (stats/tune.h): from the baseline it changes one thing at a
 * time — prefetch_queue_depth 1-4 (uniform), separated cpu/gpu sizes when the pipeline has
 * mixed/gpu stages, num_threads 1, 2, 4 and the core count, bytes_per_sample 0 and the
 * largest measured hint, and per-operator bytes_per_sample_hint from the calibration.
 */
#include "stats/tune.h"

#include <stdio.h>
#include <unistd.h>

static int64_t tune_max_hint(const dalic_stats_snapshot_t *snap)
{
	int64_t m = 0;
	for (int i = 0; i < snap->num_operators; i++)
		for (int o = 0; o < snap->operators[i].num_outputs; o++)
			if (snap->operators[i].outputs[o].suggested_hint > m)
				m = snap->operators[i].outputs[o].suggested_hint;
	return m;
}

static void tune_plan_prefetch(dalic_tune_t *t, const dalic_pipeline_params_t *b)
{
	char flags[64];
	for (int d = 1; d <= 4; d++) {
		if (!b->separated_queues && b->prefetch_cpu == d)
			continue;
		dalic_pipeline_params_t p = *b;
		p.separated_queues = false;
		p.prefetch_cpu = p.prefetch_gpu = d;
		snprintf(flags, sizeof flags, "--prefetch-queue-depth %d", d);
		dalic_tune_add(t, &p, flags, "prefetch_queue_depth=%d", d);
	}
	static const int sep[][2] = {{2, 1}, {3, 2}, {4, 2}};
	if (!t->base->stages[1].present && !t->base->stages[2].present)
		return;
	for (int i = 0; i < 3; i++) {
		if (b->separated_queues && b->prefetch_cpu == sep[i][0] &&
		    b->prefetch_gpu == sep[i][1])
			continue;
		dalic_pipeline_params_t p = *b;
		p.separated_queues = p.exec_async = p.exec_pipelined = true;
		p.prefetch_cpu = sep[i][0];
		p.prefetch_gpu = sep[i][1];
		snprintf(flags, sizeof flags, "--prefetch-queue-depth cpu=%d,gpu=%d", sep[i][0],
		         sep[i][1]);
		dalic_tune_add(t, &p, flags, "prefetch_queue_depth=cpu:%d,gpu:%d", sep[i][0],
		               sep[i][1]);
	}
}

static void tune_plan_threads(dalic_tune_t *t, const dalic_pipeline_params_t *b)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int threads[] = {1, 2, 4, ncpu > 0 ? (int)ncpu : 1};
	char flags[64];
	for (int i = 0; i < 4; i++) {
		bool dup = threads[i] == b->num_threads;
		for (int k = 0; k < i; k++)
			dup |= threads[k] == threads[i];
		if (dup)
			continue;
		dalic_pipeline_params_t p = *b;
		p.num_threads = threads[i];
		snprintf(flags, sizeof flags, "--num-threads %d", threads[i]);
		dalic_tune_add(t, &p, flags, "num_threads=%d", threads[i]);
	}
}

void dalic_tune_plan(dalic_tune_t *t, unsigned axes)
{
	const dalic_pipeline_params_t b = t->s[0].params;
	if (axes & DALIC_TUNE_AXIS_PREFETCH)
		tune_plan_prefetch(t, &b);
	if (axes & DALIC_TUNE_AXIS_THREADS)
		tune_plan_threads(t, &b);
	if (!(axes & DALIC_TUNE_AXIS_BYTES))
		return;
	int64_t hint = tune_max_hint(t->base);
	dalic_pipeline_params_t p = b;
	char flags[64];
	if (b.bytes_per_sample != 0) {
		p.bytes_per_sample = 0;
		dalic_tune_add(t, &p, "--bytes-per-sample 0", "bytes_per_sample=0");
	}
	if (hint > 0 && hint != b.bytes_per_sample) {
		p.bytes_per_sample = hint;
		snprintf(flags, sizeof flags, "--bytes-per-sample %lld", (long long)hint);
		dalic_tune_add(t, &p, flags, "bytes_per_sample=%lld (largest measured)",
		               (long long)hint);
	}
	if (hint > 0) {
		dalic_tune_setting_t *s = dalic_tune_add(t, &b, "", "bytes_per_sample_hint=measured, per operator");
		if (s)
			s->per_op_hints = true;
	}
}
