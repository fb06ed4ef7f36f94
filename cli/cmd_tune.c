/*
 * `dalic tune PIPELINE`: what-if sweeps of the settings DALI users tune by hand. From the
 * pipeline as defined (the baseline) it changes one thing at a time — prefetch_queue_depth
 * (uniform, and separated cpu/gpu sizes when the pipeline has mixed/gpu stages),
 * num_threads, bytes_per_sample (0 against the hint the baseline measured, pipeline-wide and
 * per operator) — builds a fresh pipeline from the same graph definition for each, runs
 * warm-up + measured iterations with a stats collector, and prints samples/s, p50/p99 of the
 * consumer's run() time, the memory held by output buffers and the allocations per
 * iteration after warm-up. It recommends the setting that is within 3% of the fastest and
 * holds the least memory, and says why, with the flags that apply it.
 */
#include "cli/cli.h"
#include "dalic_stats.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SETTINGS 24
#define NEAR_BEST 0.97 /* within 3% of the fastest counts as as fast (run-to-run noise) */

typedef struct setting {
	char name[96];
	char flags[160]; /* command-line flags that apply it */
	dalic_pipeline_params_t params;
	bool per_op_hints;
	/* results */
	int status;
	char error[200];
	double samples_per_second, p50_ms, p99_ms;
	int64_t bytes_live, reserved_total, allocations, steady_allocations;
	long measured;
	char verdict[24];
} setting_t;

typedef struct tune {
	const dalic_pipeline_t *def; /* as loaded, never built */
	long iterations, warmup, repeat;
	dalic_stats_snapshot_t *base; /* the baseline's last snapshot: hints, stages, memory */
	setting_t s[MAX_SETTINGS];
	int n;
} tune_t;

static int tune_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static setting_t *tune_add(tune_t *t, const dalic_pipeline_params_t *p, const char *flags,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static setting_t *tune_add(tune_t *t, const dalic_pipeline_params_t *p, const char *flags,
                      const char *fmt, ...)
{
	if (t->n == MAX_SETTINGS)
		return NULL;
	setting_t *s = &t->s[t->n++];
	memset(s, 0, sizeof *s);
	s->params = *p;
	snprintf(s->flags, sizeof s->flags, "%s", flags);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->name, sizeof s->name, fmt, ap);
	va_end(ap);
	return s;
}

/* bytes_per_sample_hint of every user operator := what the baseline measured per output. */
static int tune_apply_hints(dalic_pipeline_t *p, const dalic_stats_snapshot_t *base)
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

/* Runs `n` iterations; the consumer-side time of each run() goes to `times` (ms). */
static int tune_run_timed(dalic_pipeline_t *p, long n, double *times, long *done, long *samples)
{
	for (*done = 0; *done < n; (*done)++) {
		int64_t t0 = dalic_clock_ns();
		int rc = dalic_pipeline_run(p);
		if (rc)
			return rc == DALIC_EEND ? DALIC_OK : rc;
		if (times)
			times[*done] = dalic_cli_seconds_since(t0) * 1e3;
		if (samples && dalic_pipeline_num_outputs(p) > 0)
			*samples += dalic_batch_num_samples(dalic_pipeline_output(p, 0));
	}
	return DALIC_OK;
}

/* One measurement of a setting; keeps the snapshot when `keep` is given. */
static int tune_measure_once(tune_t *t, setting_t *s, setting_t *out, dalic_stats_snapshot_t **keep)
{
	dalic_pipeline_t *p = NULL;
	int rc = dalic_pipeline_clone(t->def, &s->params, &p);
	if (!rc && s->per_op_hints)
		rc = tune_apply_hints(p, t->base);
	if (rc) {
		dalic_pipeline_destroy(p);
		return rc;
	}
	dalic_stats_t *st = NULL;
	double *times = calloc((size_t)t->iterations + 1, sizeof *times);
	rc = times ? dalic_stats_create(p, NULL, &st) : DALIC_ENOMEM;
	long warm = 0, done = 0, samples = 0;
	int64_t warm_allocs = 0;
	if (!rc)
		rc = tune_run_timed(p, t->warmup, NULL, &warm, NULL);
	dalic_stats_snapshot_t *snap = NULL;
	if (!rc && !(rc = dalic_stats_snapshot(st, &snap))) {
		warm_allocs = snap->allocations;
		dalic_stats_snapshot_free(snap);
		snap = NULL;
	}
	int64_t t0 = dalic_clock_ns();
	if (!rc)
		rc = tune_run_timed(p, t->iterations, times, &done, &samples);
	double secs = dalic_cli_seconds_since(t0);
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(st);
	if (!rc)
		rc = dalic_stats_snapshot(st, &snap);
	if (!rc) {
		*out = *s;
		out->measured = done;
		out->samples_per_second = secs > 0 ? (double)samples / secs : 0;
		qsort(times, (size_t)done, sizeof *times, tune_cmp_double);
		out->p50_ms = done ? times[(done - 1) / 2] : 0;
		out->p99_ms = done ? times[(long)((double)(done - 1) * 0.99 + 0.5)] : 0;
		out->bytes_live = snap->bytes_live;
		out->reserved_total = snap->reserved_total;
		out->allocations = snap->allocations;
		out->steady_allocations = snap->allocations - warm_allocs;
		snprintf(out->verdict, sizeof out->verdict, "%s", snap->verdict_name);
		if (keep)
			*keep = snap, snap = NULL;
	}
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(st);
	free(times);
	return rc;
}

/* Best of `repeat` runs (fastest), since the machine's noise only ever slows a run down. */
static void tune_measure(tune_t *t, setting_t *s, dalic_stats_snapshot_t **keep)
{
	setting_t best = *s, cur;
	bool have = false;
	for (long r = 0; r < t->repeat; r++) {
		dalic_stats_snapshot_t *snap = NULL;
		int rc = tune_measure_once(t, s, &cur, keep ? &snap : NULL);
		if (rc) {
			s->status = rc;
			snprintf(s->error, sizeof s->error, "%s", dalic_last_error());
			dalic_stats_snapshot_free(snap);
			return;
		}
		if (!have || cur.samples_per_second > best.samples_per_second) {
			best = cur;
			have = true;
			if (keep) {
				dalic_stats_snapshot_free(*keep);
				*keep = snap;
				snap = NULL;
			}
		}
		dalic_stats_snapshot_free(snap);
	}
	*s = best;
}

static bool tune_has_stage(const dalic_stats_snapshot_t *snap, int stage)
{
	return snap->stages[stage].present;
}

static int64_t tune_max_hint(const dalic_stats_snapshot_t *snap)
{
	int64_t m = 0;
	for (int i = 0; i < snap->num_operators; i++)
		for (int o = 0; o < snap->operators[i].num_outputs; o++)
			if (snap->operators[i].outputs[o].suggested_hint > m)
				m = snap->operators[i].outputs[o].suggested_hint;
	return m;
}

/* Pinned or device output buffers: the only ones DALI (and dalic) presize from hints. */
static bool tune_has_presizable(const dalic_stats_snapshot_t *snap)
{
	for (int i = 0; i < snap->num_operators; i++)
		for (int o = 0; o < snap->operators[i].num_outputs; o++)
			if (snap->operators[i].outputs[o].memory_kind > 0)
				return true;
	return false;
}

static void tune_plan(tune_t *t, const dalic_pipeline_params_t *b)
{
	char flags[64];
	for (int d = 1; d <= 4; d++) {
		if (!b->separated_queues && b->prefetch_cpu == d)
			continue;
		dalic_pipeline_params_t p = *b;
		p.separated_queues = false;
		p.prefetch_cpu = p.prefetch_gpu = d;
		snprintf(flags, sizeof flags, "--prefetch-queue-depth %d", d);
		tune_add(t, &p, flags, "prefetch_queue_depth=%d", d);
	}
	static const int sep[][2] = {{2, 1}, {3, 2}, {4, 2}};
	if (tune_has_stage(t->base, 1) || tune_has_stage(t->base, 2))
		for (int i = 0; i < 3; i++) {
			dalic_pipeline_params_t p = *b;
			p.separated_queues = p.exec_async = p.exec_pipelined = true;
			p.prefetch_cpu = sep[i][0];
			p.prefetch_gpu = sep[i][1];
			snprintf(flags, sizeof flags, "--prefetch-queue-depth cpu=%d,gpu=%d",
			         sep[i][0], sep[i][1]);
			tune_add(t, &p, flags, "prefetch_queue_depth=cpu:%d,gpu:%d", sep[i][0],
			    sep[i][1]);
		}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int threads[] = {1, 2, 4, ncpu > 0 ? (int)ncpu : 1};
	for (int i = 0; i < 4; i++) {
		bool dup = threads[i] == b->num_threads;
		for (int k = 0; k < i; k++)
			dup |= threads[k] == threads[i];
		if (dup)
			continue;
		dalic_pipeline_params_t p = *b;
		p.num_threads = threads[i];
		snprintf(flags, sizeof flags, "--num-threads %d", threads[i]);
		tune_add(t, &p, flags, "num_threads=%d", threads[i]);
	}
	int64_t hint = tune_max_hint(t->base);
	dalic_pipeline_params_t p = *b;
	if (b->bytes_per_sample != 0) {
		p.bytes_per_sample = 0;
		tune_add(t, &p, "--bytes-per-sample 0", "bytes_per_sample=0");
	}
	if (hint > 0 && hint != b->bytes_per_sample) {
		p.bytes_per_sample = hint;
		snprintf(flags, sizeof flags, "--bytes-per-sample %lld", (long long)hint);
		tune_add(t, &p, flags, "bytes_per_sample=%lld (largest measured)", (long long)hint);
	}
	if (hint > 0) {
		setting_t *s = tune_add(t, b, "bytes_per_sample_hint per operator (see below)",
		                   "bytes_per_sample_hint=measured, per operator");
		if (s)
			s->per_op_hints = true;
	}
}

/* Within 3% of the fastest, the least memory held; then fewer allocations after warm-up,
 * then fewer threads. Returns the index, -1 if nothing ran. */
static int tune_recommend(const tune_t *t)
{
	int fastest = -1;
	for (int i = 0; i < t->n; i++)
		if (!t->s[i].status &&
		    (fastest < 0 || t->s[i].samples_per_second > t->s[fastest].samples_per_second))
			fastest = i;
	if (fastest < 0)
		return -1;
	int pick = -1;
	for (int i = 0; i < t->n; i++) {
		const setting_t *s = &t->s[i];
		if (s->status ||
		    s->samples_per_second < NEAR_BEST * t->s[fastest].samples_per_second)
			continue;
		if (pick < 0) {
			pick = i;
			continue;
		}
		const setting_t *p = &t->s[pick];
		if (s->bytes_live != p->bytes_live) {
			if (s->bytes_live < p->bytes_live)
				pick = i;
		} else if (s->steady_allocations != p->steady_allocations) {
			if (s->steady_allocations < p->steady_allocations)
				pick = i;
		} else if (s->params.num_threads < p->params.num_threads) {
			pick = i;
		}
	}
	return pick;
}

static double tune_mib(int64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

static double tune_per_iter(const setting_t *s)
{
	return s->measured ? (double)s->steady_allocations / (double)s->measured : 0;
}

/* One paragraph: why this setting, with the numbers. */
static void tune_explain(const tune_t *t, int best, char *buf, size_t n)
{
	const setting_t *b = &t->s[best], *base = &t->s[0];
	int fastest = best;
	for (int i = 0; i < t->n; i++)
		if (!t->s[i].status &&
		    t->s[i].samples_per_second > t->s[fastest].samples_per_second)
			fastest = i;
	double gain = base->samples_per_second > 0
	                  ? 100 * (b->samples_per_second / base->samples_per_second - 1)
	                  : 0;
	int w = snprintf(buf, n, "%s runs at %.1f samples/s (%+.1f%% against the baseline)",
	                 b->name, b->samples_per_second, gain);
	if (fastest != best)
		w += snprintf(buf + w, n - (size_t)w,
		              ", within 3%% of the fastest setting (%s, %.1f samples/s), and holds "
		              "%.2f MiB of output buffers against %.2f MiB",
		              t->s[fastest].name, t->s[fastest].samples_per_second,
		              tune_mib(b->bytes_live), tune_mib(t->s[fastest].bytes_live));
	else
		w += snprintf(buf + w, n - (size_t)w,
		              ", the fastest setting, holding %.2f MiB of output buffers",
		              tune_mib(b->bytes_live));
	w += snprintf(buf + w, n - (size_t)w, "; %.2f allocations per iteration after warm-up",
	              tune_per_iter(b));
	if (best == 0)
		w += snprintf(buf + w, n - (size_t)w,
		              "; no change beats the pipeline as defined by more than noise");
	if (!tune_has_presizable(t->base) && tune_max_hint(t->base) > 0)
		snprintf(buf + w, n - (size_t)w,
		         ". bytes_per_sample presizes only pinned and device buffers (DALI's rule) "
		         "and this pipeline has none, so hints cannot change its allocations");
}

static void tune_print_hints(const tune_t *t)
{
	printf("bytes_per_sample_hint:");
	for (int i = 0; i < t->base->num_operators; i++) {
		const dalic_stats_operator_t *op = &t->base->operators[i];
		if (op->internal)
			continue;
		printf(" %s=[", op->name);
		for (int o = 0; o < op->num_outputs; o++)
			printf("%s%lld", o ? ", " : "", (long long)op->outputs[o].suggested_hint);
		printf("]");
	}
	printf("\n");
}

static void tune_print_table(const tune_t *t, const char *path, int best)
{
	const dalic_pipeline_params_t *b = &t->s[0].params;
	printf("# Tune\npipeline: %s\nbaseline: batch_size=%d,num_threads=%d,"
	       "prefetch_queue_depth=%d/%d%s,bytes_per_sample=%lld\n",
	       path, b->batch_size, b->num_threads, b->prefetch_cpu, b->prefetch_gpu,
	       b->separated_queues ? " (separated)" : "", (long long)b->bytes_per_sample);
	printf("iterations: %ld measured after %ld warm-up, best of %ld\n\n", t->iterations,
	       t->warmup, t->repeat);
	printf("%-46s %11s %8s %9s %9s %11s %10s  %s\n", "setting", "samples/s", "vs base",
	       "p50 ms", "p99 ms", "held MiB", "allocs/it", "verdict");
	for (int i = 0; i < t->n; i++) {
		const setting_t *s = &t->s[i];
		if (s->status) {
			printf("%-46s failed: %s\n", s->name, s->error);
			continue;
		}
		double vs = t->s[0].samples_per_second > 0
		                ? 100 * (s->samples_per_second / t->s[0].samples_per_second - 1)
		                : 0;
		printf("%-46s %11.1f %+7.1f%% %9.3f %9.3f %11.3f %10.2f  %s%s\n", s->name,
		       s->samples_per_second, vs, s->p50_ms, s->p99_ms, tune_mib(s->bytes_live),
		       tune_per_iter(s), s->verdict, i == best ? "  <- recommended" : "");
	}
	printf("\n# Recommendation\n");
	if (best < 0) {
		printf("setting: none (every setting failed)\n");
		return;
	}
	char why[1024];
	tune_explain(t, best, why, sizeof why);
	printf("setting: %s\nwhy: %s\n", t->s[best].name, why);
	if (t->s[best].per_op_hints)
		tune_print_hints(t);
	else if (best > 0)
		printf("flags: %s\n", t->s[best].flags);
}

static void tune_print_json(const tune_t *t, const char *path, int best)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", path);
	cJSON_AddNumberToObject(root, "iterations", (double)t->iterations);
	cJSON_AddNumberToObject(root, "warmup", (double)t->warmup);
	cJSON_AddNumberToObject(root, "repeat", (double)t->repeat);
	cJSON *arr = cJSON_AddArrayToObject(root, "settings");
	for (int i = 0; i < t->n; i++) {
		const setting_t *s = &t->s[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddStringToObject(o, "flags", s->flags);
		cJSON_AddNumberToObject(o, "num_threads", s->params.num_threads);
		cJSON_AddNumberToObject(o, "prefetch_cpu", s->params.prefetch_cpu);
		cJSON_AddNumberToObject(o, "prefetch_gpu", s->params.prefetch_gpu);
		cJSON_AddBoolToObject(o, "separated_queues", s->params.separated_queues);
		cJSON_AddNumberToObject(o, "bytes_per_sample", (double)s->params.bytes_per_sample);
		cJSON_AddBoolToObject(o, "per_operator_hints", s->per_op_hints);
		if (s->status) {
			cJSON_AddStringToObject(o, "error", s->error);
		} else {
			cJSON_AddNumberToObject(o, "samples_per_second", s->samples_per_second);
			cJSON_AddNumberToObject(o, "p50_ms", s->p50_ms);
			cJSON_AddNumberToObject(o, "p99_ms", s->p99_ms);
			cJSON_AddNumberToObject(o, "bytes_held", (double)s->bytes_live);
			cJSON_AddNumberToObject(o, "reserved_total", (double)s->reserved_total);
			cJSON_AddNumberToObject(o, "allocations", (double)s->allocations);
			cJSON_AddNumberToObject(o, "allocations_after_warmup",
			                        (double)s->steady_allocations);
			cJSON_AddStringToObject(o, "verdict", s->verdict);
		}
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(root, "recommended", best);
	if (best >= 0) {
		char why[1024];
		tune_explain(t, best, why, sizeof why);
		cJSON_AddStringToObject(root, "reason", why);
	}
	char *text = cJSON_Print(root);
	if (text)
		puts(text);
	free(text);
	cJSON_Delete(root);
}

static int tune_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	tune_t t = {.iterations = 30, .warmup = 5, .repeat = 1};
	bool json = false;
	for (int i = 1; i < argc; i++) {
		long *target = NULL;
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--iterations")) && i + 1 < argc)
			target = &t.iterations;
		else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
			target = &t.warmup;
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			target = &t.repeat;
		else if (!strcmp(argv[i], "--json")) {
			json = true;
			continue;
		} else {
			fprintf(stderr, "dalic tune: unknown option '%s' (see dalic tune --help)\n",
			        argv[i]);
			return 2;
		}
		char *end;
		*target = strtol(argv[++i], &end, 10);
		if (*end || *target < (target == &t.warmup ? 0 : 1)) {
			fprintf(stderr, "dalic tune: invalid value '%s'\n", argv[i]);
			return 2;
		}
	}
	o.override.params.enable_memory_stats = true;
	o.override.fields |= DALIC_PARAM_MEMORY_STATS;
	if (json) /* script print() must not land inside the JSON on stdout */
		dalic_set_script_output(stderr);
	dalic_pipeline_t *def;
	int rc = dalic_cli_open(&o, &def);
	if (rc) {
		dalic_cli_error(rc);
		return 1;
	}
	t.def = def;
	const dalic_pipeline_params_t *params = dalic_pipeline_params(def);
	setting_t *base = tune_add(&t, params, "", "baseline");
	/* a first run measures the hints and stages; it also warms the process (page faults,
	 * first thread starts), so the baseline is measured again like every other setting */
	tune_measure(&t, base, &t.base);
	if (base->status) {
		fprintf(stderr, "dalic tune: the pipeline as defined fails: %s\n", base->error);
		dalic_pipeline_destroy(def);
		return 1;
	}
	tune_plan(&t, params);
	for (int i = 0; i < t.n; i++) {
		if (!json)
			fprintf(stderr, "dalic tune: %d/%d %s\n", i + 1, t.n, t.s[i].name);
		tune_measure(&t, &t.s[i], NULL);
	}
	int best = tune_recommend(&t);
	if (json)
		tune_print_json(&t, o.path, best);
	else
		tune_print_table(&t, o.path, best);
	dalic_stats_snapshot_free(t.base);
	dalic_pipeline_destroy(def);
	return 0;
}

DALIC_COMMAND(tune) = {
    .name = "tune",
    .summary = "sweep prefetch depth, threads and bytes_per_sample; recommend a setting",
    .usage = "usage: dalic tune PIPELINE [-n N] [--warmup W] [--repeat R] [--json]\n"
             "                  [pipeline flags]\n"
             "  -n N             measured iterations per setting (default 30)\n"
             "  --warmup W       iterations run first in each setting, not measured (default 5)\n"
             "  --repeat R       runs per setting; the fastest counts (default 1)\n"
             "  --json           settings, results and the recommendation as one JSON object\n"
             "The pipeline flags set the baseline; each setting changes one thing from it.\n",
    .pipeline_flags = true,
    .main = tune_main,
};
