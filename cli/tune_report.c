/* `dalic tune` output: see cli/tune_report.h. */
#include "cli/tune_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

static double report_mib(int64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

static void report_header(FILE *f, const dalic_tune_t *t, const char *path)
{
	const dalic_pipeline_params_t *b = &t->s[0].params;
	fprintf(f, "# Tune\npipeline: %s\nbaseline: batch_size=%d,num_threads=%d,"
	           "prefetch_queue_depth=%d/%d%s,bytes_per_sample=%lld\n",
	        path, b->batch_size, b->num_threads, b->prefetch_cpu, b->prefetch_gpu,
	        b->separated_queues ? " (separated)" : "", (long long)b->bytes_per_sample);
	long iters = t->s[0].num_trials ? (long)(t->s[0].mean.iterations / t->s[0].num_trials) : 0;
	fprintf(f, "trials: %ld measured iterations after %ld warm-up each, paired with the "
	           "baseline and interleaved; %d rounds, %d trials in %.1f s of a %.0f s budget%s\n",
	        iters, t->opt.warmup, t->rounds, t->trials_run, t->elapsed_s, t->budget_s,
	        t->budget_spent ? " (budget spent)" : t->cancelled ? " (cancelled)" : "");
	fprintf(f, "target: 95%% confidence interval within ±%.1f%%\n", 100 * t->opt.ci);
	if (t->opt.consumer_ms > 0 || t->opt.consumer_jitter_ms > 0)
		fprintf(f, "consumer: %.1f ms ± %.1f ms per batch (simulated)\n", t->opt.consumer_ms,
		        t->opt.consumer_jitter_ms);
	fprintf(f, "\n");
}

void dalic_tune_print_table(FILE *f, const dalic_tune_t *t, const char *path)
{
	report_header(f, t, path);
	fprintf(f, "%-46s %10s %7s %24s %8s %8s %9s %9s %6s  %s\n", "setting", "samples/s",
	        "±CI", "vs baseline [95% CI]", "p50 ms", "p99 ms", "held MiB", "rsvd MiB", "trials",
	        "verdict");
	for (int i = 0; i < t->n; i++) {
		const dalic_tune_setting_t *s = &t->s[i];
		if (s->status) {
			fprintf(f, "%-46s failed: %s\n", s->name, s->error);
			continue;
		}
		char vs[64] = "", ci[16] = "-";
		if (i && s->verdict != DALIC_TUNE_UNMEASURED)
			snprintf(vs, sizeof vs, "%+.1f%% [%+.1f, %+.1f]", 100 * s->gain,
			         100 * s->gain_lo, 100 * s->gain_hi);
		if (isfinite(s->ci))
			snprintf(ci, sizeof ci, "%.1f%%", 100 * s->ci);
		fprintf(f, "%-46s %10.1f %7s %24s %8.2f %8.2f %9.3f %9.3f %6d  %s%s\n", s->name,
		        s->median_sps, ci, vs, s->p50_ms, s->p99_ms, report_mib(s->mean.bytes_live),
		        report_mib(s->mean.reserved_total), s->num_trials,
		        i ? dalic_tune_verdict_name(s->verdict) : "(baseline)",
		        i && i == t->recommended ? "  <- recommended" : "");
	}
	fprintf(f, "\n# Mechanism (measured phase of the trials, means)\n");
	char why[1024];
	for (int i = 1; i < t->n; i++)
		if (dalic_tune_mechanism(t, i, why, sizeof why) > 0)
			fprintf(f, "%s: %s\n", t->s[i].name, why);
	fprintf(f, "\n");
	if (dalic_tune_write_hints(t, f))
		fprintf(f, "\n");
	fprintf(f, "# Recommendation\n");
	const dalic_tune_setting_t *r = &t->s[t->recommended];
	fprintf(f, "setting: %s\nwhy: %s\n",
	        t->recommended ? r->name : "keep the current settings", t->reason);
	if (t->recommended && r->flags[0])
		fprintf(f, "flags: %s\n", r->flags);
}

static void report_json_mechanism(cJSON *o, const dalic_tune_t *t, int i)
{
	const dalic_tune_trial_t *m = &t->s[i].mean;
	cJSON *j = cJSON_AddObjectToObject(o, "mechanism");
	char why[1024];
	if (dalic_tune_mechanism(t, i, why, sizeof why) > 0)
		cJSON_AddStringToObject(j, "text", why);
	cJSON_AddNumberToObject(j, "consumer_wait", m->consumer_wait);
	cJSON_AddNumberToObject(j, "free_slot_wait", m->free_slot_wait);
	static const char *const names[3] = {"cpu", "mixed", "gpu"};
	cJSON *busy = cJSON_AddObjectToObject(j, "stage_busy");
	cJSON *share = cJSON_AddObjectToObject(j, "stage_share");
	for (int k = 0; k < 3; k++) {
		cJSON_AddNumberToObject(busy, names[k], m->stage_busy[k]);
		cJSON_AddNumberToObject(share, names[k], m->stage_share[k]);
	}
	cJSON_AddNumberToObject(j, "first_iteration_ms", m->first_iteration_ms);
	cJSON_AddNumberToObject(j, "growth_events", (double)m->growth_events);
	cJSON_AddNumberToObject(j, "growth_bytes", (double)m->growth_bytes);
}

static void report_json_setting(cJSON *o, const dalic_tune_setting_t *s)
{
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
		return;
	}
	cJSON_AddNumberToObject(o, "trials", s->num_trials);
	cJSON_AddNumberToObject(o, "samples_per_second", s->median_sps);
	cJSON_AddNumberToObject(o, "mean_samples_per_second", s->mean_sps);
	if (isfinite(s->ci))
		cJSON_AddNumberToObject(o, "ci", s->ci);
	if (s->verdict != DALIC_TUNE_UNMEASURED) {
		cJSON_AddNumberToObject(o, "gain", s->gain);
		cJSON_AddNumberToObject(o, "gain_lo", s->gain_lo);
		cJSON_AddNumberToObject(o, "gain_hi", s->gain_hi);
	}
	cJSON_AddNumberToObject(o, "p50_ms", s->p50_ms);
	cJSON_AddNumberToObject(o, "p99_ms", s->p99_ms);
	cJSON_AddNumberToObject(o, "reserved_total", (double)s->mean.reserved_total);
	cJSON_AddNumberToObject(o, "bytes_held", (double)s->mean.bytes_live);
	cJSON_AddNumberToObject(o, "allocations_after_warmup", (double)s->mean.steady_allocations);
	cJSON_AddStringToObject(o, "verdict", dalic_tune_verdict_name(s->verdict));
}

void dalic_tune_print_json(FILE *f, const dalic_tune_t *t, const char *path)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", path);
	cJSON_AddNumberToObject(root, "ci_target", t->opt.ci);
	cJSON_AddNumberToObject(root, "warmup", (double)t->opt.warmup);
	cJSON_AddNumberToObject(root, "rounds", t->rounds);
	cJSON_AddNumberToObject(root, "trials", t->trials_run);
	cJSON_AddNumberToObject(root, "seconds", t->elapsed_s);
	cJSON_AddNumberToObject(root, "budget", t->budget_s);
	cJSON_AddBoolToObject(root, "budget_spent", t->budget_spent);
	cJSON *arr = cJSON_AddArrayToObject(root, "settings");
	for (int i = 0; i < t->n; i++) {
		cJSON *o = cJSON_CreateObject();
		report_json_setting(o, &t->s[i]);
		if (!t->s[i].status)
			report_json_mechanism(o, t, i);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(root, "recommended", t->recommended);
	cJSON_AddStringToObject(root, "reason", t->reason);
	char *snippet = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&snippet, &len);
	if (mf) {
		bool any = dalic_tune_write_hints(t, mf) > 0;
		fclose(mf);
		if (any)
			cJSON_AddStringToObject(root, "bytes_per_sample_hint_python", snippet);
	}
	free(snippet);
	char *text = cJSON_Print(root);
	if (text)
		fprintf(f, "%s\n", text);
	free(text);
	cJSON_Delete(root);
}
