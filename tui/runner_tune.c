/*
 * The workbench's tune view: the trial engine of stats/tune.h (the one `dalic tune` uses),
 * run by the runner thread on the loaded definition with the parameters in effect. The full
 * engine is closed while it runs, so its threads do not compete with the trials; each trial
 * pair publishes a model whose tune text the QUEUES pane draws: per setting the change
 * against the baseline with its 95% interval and the verdict, then the recommendation. Any
 * key that posts a command stops the tune after the trial under way.
 */
#include "tui/runner_impl.h"

#include "stats/tune.h"

#include <stdio.h>
#include <string.h>

/* Setting names in the QUEUES pane's width: "prefetch=3", "threads=4", "hints per op". */
static void runner_tune_short(const char *name, char *out, size_t n)
{
	static const char *const from[][2] = {{"prefetch_queue_depth=", "prefetch="},
	                                      {"num_threads=", "threads="},
	                                      {"bytes_per_sample_hint=measured, per operator",
	                                       "hints per op"},
	                                      {"bytes_per_sample=", "bps="}};
	size_t len = strlen(name);
	len = len < n ? len : n - 1;
	memcpy(out, name, len);
	out[len] = 0;
	for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
		size_t k = strlen(from[i][0]);
		if (!strncmp(name, from[i][0], k)) {
			snprintf(out, n, "%s%.24s", from[i][1], name + k);
			break;
		}
	}
	char *paren = strstr(out, " (");
	if (paren)
		*paren = 0;
}

static const char *runner_tune_verdict(dalic_tune_verdict_t v)
{
	return v == DALIC_TUNE_FASTER ? "faster"
	       : v == DALIC_TUNE_SLOWER ? "slower"
	       : v == DALIC_TUNE_SAME   ? "same"
	                                : "-";
}

static void runner_tune_format(tui_runner_t *r, dalic_tune_t *t, bool done)
{
	char *b = r->tune_text;
	size_t n = sizeof r->tune_text;
	int w = 0;
#define RUNNER_TUNE_PUT(...)                                                                       \
	do {                                                                                       \
		if (w >= 0 && (size_t)w < n)                                                       \
			w += snprintf(b + w, n - (size_t)w, __VA_ARGS__);                          \
	} while (0)
	RUNNER_TUNE_PUT("%s %.0f/%.0f s, %d trials%s\n", done ? "tune done:" : "tuning:",
	                t->elapsed_s, t->budget_s, t->trials_run,
	                t->cancelled ? " (stopped)" : "");
	RUNNER_TUNE_PUT("%-16s %7s %6s %s\n", "vs baseline", "change", "95%CI", "verdict");
	if (!done)
		dalic_tune_summarize(t), dalic_tune_decide(t);
	for (int i = 1; i < t->n; i++) {
		const dalic_tune_setting_t *s = &t->s[i];
		char name[32];
		runner_tune_short(s->name, name, sizeof name);
		if (s->status)
			RUNNER_TUNE_PUT("%-16.16s failed\n", name);
		else if (s->verdict == DALIC_TUNE_UNMEASURED)
			RUNNER_TUNE_PUT("%-16.16s %7s %6s -\n", name, "-", "-");
		else if (50 * (s->gain_hi - s->gain_lo) < 99.95)
			RUNNER_TUNE_PUT("%-16.16s %+6.1f%% ±%4.1f%% %s\n", name, 100 * s->gain,
			                50 * (s->gain_hi - s->gain_lo), runner_tune_verdict(s->verdict));
		else
			RUNNER_TUNE_PUT("%-16.16s %+6.1f%% ±>99%% %s\n", name, 100 * s->gain,
			                runner_tune_verdict(s->verdict));
	}
	if (done)
		RUNNER_TUNE_PUT("-> %s\n", t->recommended ? t->s[t->recommended].name
		                                          : "keep the current settings");
#undef RUNNER_TUNE_PUT
}

static void runner_tune_progress(void *user, const dalic_tune_t *t, int setting)
{
	tui_runner_t *r = user;
	if (atomic_load(&r->pending))
		r->tune_cancel = 1;
	runner_tune_format(r, (dalic_tune_t *)t, false);
	dalic_tui_runner_publish(r);
}

void dalic_tui_tune_run(tui_runner_t *r, double budget_s)
{
	r->running = false;
	r->tune_cancel = 0;
	dalic_tui_full_close(r);
	dalic_pipeline_t *def = NULL;
	dalic_tune_t *t = NULL;
	dalic_tune_options_t o;
	dalic_tune_options_init(&o);
	o.budget_s = budget_s;
	o.trial_s = 0.1; /* short trials: the view fills in sooner, rounds come often */
	o.progress = runner_tune_progress;
	o.user = r;
	o.cancel = &r->tune_cancel;
	snprintf(r->tune_text, sizeof r->tune_text, "tuning: calibrating the baseline\n");
	dalic_tui_runner_publish(r);
	int rc = dalic_tui_runner_instantiate(r, &def);
	if (!rc)
		rc = dalic_tune_create(def, &o, &t);
	if (!rc)
		rc = dalic_tune_calibrate(t);
	if (!rc) {
		dalic_tune_plan(t, DALIC_TUNE_AXES_ALL);
		rc = dalic_tune_run(t);
	}
	if (rc) {
		dalic_tui_runner_fail(r, dalic_last_error());
		r->tune_text[0] = 0;
	} else {
		runner_tune_format(r, t, true);
		dalic_tui_runner_note(r, "tune%s: %s", t->cancelled ? " (stopped)" : "", t->reason);
	}
	dalic_tune_free(t);
	dalic_pipeline_destroy(def);
	if (r->engine == TUI_ENGINE_FULL)
		dalic_tui_full_open(r);
}
