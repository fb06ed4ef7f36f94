/*
 * `dalic tune PIPELINE`: compares settings DALI users tune by hand against the pipeline as
 * defined, with the trial engine of stats/tune.h — paired, interleaved trials repeated until
 * each comparison has a 95% confidence interval within ±--ci or --budget runs out — and
 * recommends a change only when it is faster beyond the noise or as fast with less memory.
 */
#include "cli/cli.h"
#include "cli/tune_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tune_cli {
	dalic_tune_options_t opt;
	unsigned axes;
	const char *apply; /* --apply OUT */
	bool json, tty;
} tune_cli_t;

/* One line per trial pair: a bar of the budget spent and the pair just measured. */
static void tune_progress(void *user, const dalic_tune_t *t, int i)
{
	const tune_cli_t *c = user;
	double budget = t->budget_s;
	int done = 0;
	for (int k = 1; k < t->n; k++)
		done += t->s[k].done;
	char bar[21];
	int fill = budget > 0 ? (int)(20 * t->elapsed_s / budget) : 0;
	for (int k = 0; k < 20; k++)
		bar[k] = k < fill ? '#' : '.';
	bar[20] = 0;
	const dalic_tune_setting_t *s = &t->s[i];
	fprintf(stderr, "%sdalic tune: [%s] %5.1f/%.0f s  round %d  settings done %d/%d  %-40.40s %d trials%s",
	        c->tty ? "\r" : "", bar, t->elapsed_s, budget, t->rounds + 1, done, t->n - 1, s->name,
	        s->num_trials, c->tty ? "" : "\n");
	fflush(stderr);
}

/* "2" or "2%" -> 0.02 */
static int tune_parse_ci(const char *v, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (*end == '%')
		end++;
	if (*end || !(x > 0) || x >= 100)
		return -1;
	*out = x / 100;
	return 0;
}

/* MEAN[,JITTER] in ms */
static int tune_parse_consumer(const char *v, double *mean, double *jitter)
{
	char *end;
	*mean = strtod(v, &end);
	*jitter = 0;
	if (*end == ',')
		*jitter = strtod(end + 1, &end);
	if (*end || !(*mean >= 0) || !(*jitter >= 0) || *mean > 60000 || *jitter > 60000)
		return -1;
	return 0;
}

/* prefetch,threads,bytes */
static int tune_parse_axes(const char *v, unsigned *axes)
{
	static const char *const names[] = {"prefetch", "threads", "bytes"};
	*axes = 0;
	while (*v) {
		size_t len = strcspn(v, ",");
		int k = 0;
		while (k < 3 && (strlen(names[k]) != len || strncmp(v, names[k], len)))
			k++;
		if (k == 3)
			return -1;
		*axes |= 1u << k;
		v += len + (v[len] == ',');
	}
	return *axes ? 0 : -1;
}

static int tune_parse_long(const char *v, long min, long *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (*end || end == v || x < min)
		return -1;
	*out = x;
	return 0;
}

static int tune_parse_args(int argc, char **argv, tune_cli_t *c)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			c->json = true;
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "dalic tune: unknown option '%s' (see dalic tune --help)\n", a);
			return 2;
		}
		const char *v = argv[++i];
		long n = 0;
		int bad = 0;
		if (!strcmp(a, "-n") || !strcmp(a, "--iterations"))
			bad = tune_parse_long(v, 1, &c->opt.iterations);
		else if (!strcmp(a, "--warmup"))
			bad = tune_parse_long(v, 0, &c->opt.warmup);
		else if (!strcmp(a, "--min-trials"))
			bad = tune_parse_long(v, 2, &n), c->opt.min_trials = (int)(n > 1000 ? 1000 : n);
		else if (!strcmp(a, "--max-trials"))
			bad = tune_parse_long(v, 2, &n), c->opt.max_trials = (int)(n > 1000 ? 1000 : n);
		else if (!strcmp(a, "--ci"))
			bad = tune_parse_ci(v, &c->opt.ci);
		else if (!strcmp(a, "--budget")) {
			char *end;
			c->opt.budget_s = strtod(v, &end);
			bad = *end || !(c->opt.budget_s > 0);
		} else if (!strcmp(a, "--apply"))
			c->apply = v;
		else if (!strcmp(a, "--axes"))
			bad = tune_parse_axes(v, &c->axes);
		else if (!strcmp(a, "--consumer-ms"))
			bad = tune_parse_consumer(v, &c->opt.consumer_ms, &c->opt.consumer_jitter_ms);
		else {
			fprintf(stderr, "dalic tune: unknown option '%s' (see dalic tune --help)\n", a);
			return 2;
		}
		if (bad) {
			fprintf(stderr, "dalic tune: invalid value '%s' for %s\n", v, a);
			return 2;
		}
	}
	if (c->opt.min_trials > c->opt.max_trials) {
		fprintf(stderr, "dalic tune: --min-trials %d exceeds --max-trials %d\n",
		        c->opt.min_trials, c->opt.max_trials);
		return 2;
	}
	return 0;
}

static int tune_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	tune_cli_t c = {.tty = isatty(STDERR_FILENO), .axes = DALIC_TUNE_AXES_ALL};
	dalic_tune_options_init(&c.opt);
	int bad = tune_parse_args(argc, argv, &c);
	if (bad)
		return bad;
	c.opt.progress = tune_progress;
	c.opt.user = &c;
	o.override.params.enable_memory_stats = true;
	o.override.fields |= DALIC_PARAM_MEMORY_STATS;
	if (c.json) /* script print() must not land inside the JSON on stdout */
		dalic_set_script_output(stderr);
	dalic_pipeline_t *def = NULL;
	dalic_tune_t *t = NULL;
	int rc = dalic_cli_open(&o, &def);
	if (!rc)
		rc = dalic_tune_create(def, &c.opt, &t);
	if (!rc && (rc = dalic_tune_calibrate(t)))
		dalic_cli_fail(rc, "the pipeline as defined fails: %s", dalic_last_error());
	else if (rc)
		dalic_cli_error(rc);
	if (rc) {
		dalic_tune_free(t);
		dalic_pipeline_destroy(def);
		return 1;
	}
	dalic_tune_plan(t, c.axes);
	rc = dalic_tune_run(t);
	if (c.tty)
		fprintf(stderr, "\n");
	if (rc)
		dalic_cli_fail(rc, "the pipeline as defined fails: %s", t->s[0].error);
	else if (c.json)
		dalic_tune_print_json(stdout, t, o.path);
	else
		dalic_tune_print_table(stdout, t, o.path);
	if (!rc)
		rc = dalic_cli_check_stdout();
	if (!rc && c.apply)
		rc = dalic_tune_apply(&o, t, c.apply);
	dalic_tune_free(t);
	dalic_pipeline_destroy(def);
	return rc ? 1 : 0;
}

DALIC_COMMAND(tune) = {
    .name = "tune",
    .summary = "compare prefetch depth, threads and bytes_per_sample; recommend beyond noise",
    .usage = "usage: dalic tune PIPELINE [--ci PCT] [--budget S] [--consumer-ms MEAN[,JITTER]]\n"
             "                  [--axes LIST] [-n N] [--warmup W] [--min-trials K] [--max-trials K]\n"
             "                  [--apply OUT] [--json]\n"
             "                  [pipeline flags]\n"
             "  --ci PCT         stop a setting once its 95% confidence interval is within\n"
             "                   ±PCT percent (default 2); also the smallest change that counts\n"
             "  --budget S       seconds for all trials (default: sized for the pipeline)\n"
             "  --consumer-ms MEAN[,JITTER]  simulate a consumer that holds each batch for\n"
             "                   MEAN ± JITTER ms (uniform; the same sequence in every trial)\n"
             "  --axes LIST      what to vary: prefetch,threads,bytes (default all three)\n"
             "  -n N             measured iterations per trial (default: about 0.3 s worth)\n"
             "  --warmup W       iterations run first in each trial, not measured (default 2)\n"
             "  --min-trials K   trials per setting before it may stop (default 4)\n"
             "  --max-trials K   trials per setting at most (default 40)\n"
             "  --apply OUT      write the recommended setting into a copy of the script\n"
             "                   (pipeline_def arguments) or, for a .pb, a new .pb\n"
             "  --json           settings, intervals, verdicts and the recommendation as JSON\n"
             "The pipeline flags set the baseline; each setting changes one thing from it and\n"
             "is measured in trials paired with the baseline, interleaved in rotating order.\n",
    .pipeline_flags = true,
    .main = tune_main,
};
