/*
 * `dalic stats PIPELINE -n N`: runs N iterations with a stats collector attached and prints
 * what it saw — DALI's executor_statistics with a suggested bytes_per_sample_hint, time per
 * operator and stage with the bottleneck, waits and the input-bound verdict, queue
 * occupancy, allocations and buffer growth — as `key: value` sections, or with --json as the
 * document of docs/stats-schema.md; --trace FILE also writes a Chrome trace (Perfetto).
 * Memory statistics are always on here (the point of the command), in every executor mode.
 * SIGINT or SIGTERM stops it after the iteration in flight and reports what ran (cli/stop.h).
 */
#include "cli/cli.h"
#include "cli/stop.h"
#include "dalic_stats.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct stats_args {
	long iterations, warmup;
	bool json;
	const char *trace;
} stats_args_t;

static int stats_parse_count(const char *flag, const char *v, long *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || n < 0 || end == v) {
		fprintf(stderr, "dalic stats: invalid %s '%s'\n", flag, v);
		return 2;
	}
	*out = n;
	return 0;
}

static int stats_parse_args(int argc, char **argv, stats_args_t *a)
{
	*a = (stats_args_t){.iterations = 10};
	for (int i = 1; i < argc; i++) {
		bool has_value = i + 1 < argc;
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--iterations")) && has_value) {
			if (stats_parse_count("iteration count", argv[++i], &a->iterations))
				return 2;
		} else if (!strcmp(argv[i], "--warmup") && has_value) {
			if (stats_parse_count("warm-up count", argv[++i], &a->warmup))
				return 2;
		} else if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--trace") && has_value) {
			a->trace = argv[++i];
		} else {
			fprintf(stderr,
			        "dalic stats: unknown option '%s' (see dalic stats --help)\n",
			        argv[i]);
			return 2;
		}
	}
	return 0;
}

/* The library's document plus where the pipeline came from. */
static int stats_print_json(const dalic_stats_snapshot_t *snap, const char *path, long warmup)
{
	char *text = dalic_stats_json(snap);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!doc)
		return dalic_cli_error(DALIC_ENOMEM);
	cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "pipeline");
	cJSON_AddStringToObject(p, "source", path);
	cJSON_AddNumberToObject(p, "warmup_iterations", (double)warmup);
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text)
		return dalic_cli_error(DALIC_ENOMEM);
	puts(text);
	free(text);
	return 0;
}

/* Runs `n` iterations; DALIC_EEND (end of data) is not an error. Counts what ran. */
static int stats_run_iterations(dalic_pipeline_t *p, long n, long *done)
{
	for (*done = 0; *done < n && !dalic_cli_stop_signal(); (*done)++) {
		int rc = dalic_pipeline_run(p);
		if (rc == DALIC_EEND)
			return DALIC_OK;
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

static int stats_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	stats_args_t a;
	if (stats_parse_args(argc, argv, &a))
		return 2;
	if (o.debug) {
		fprintf(stderr,
		        "dalic stats: --debug: stats watch the full engine; use dalic debug\n");
		return 2;
	}
	o.override.params.enable_memory_stats = true;
	o.override.fields |= DALIC_PARAM_MEMORY_STATS;
	dalic_pipeline_t *p;
	if (a.json) /* script print() must not land inside the JSON on stdout */
		dalic_set_script_output(stderr);
	int rc = dalic_cli_open(&o, &p);
	if (rc) {
		dalic_cli_error(rc);
		return 1;
	}
	dalic_stats_options_t so;
	dalic_stats_options_init(&so);
	so.trace = a.trace != NULL;
	dalic_stats_t *s = NULL;
	rc = dalic_stats_create(p, &so, &s);
	if (!rc)
		rc = dalic_pipeline_build(p);
	dalic_cli_stop_catch(); /* Ctrl-C: the stats of what ran, then exit 130 */
	long warm = 0, done = 0;
	if (!rc)
		rc = stats_run_iterations(p, a.warmup, &warm);
	if (!rc && a.warmup > 0)
		dalic_stats_reset(s); /* judge the steady state: buffers grown, queues filled */
	if (!rc)
		rc = stats_run_iterations(p, a.iterations, &done);
	if (rc)
		dalic_cli_error(rc);
	/* the pipeline first: it stops the executor threads, so nothing races the export */
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(s);
	if (rc) {
		dalic_stats_destroy(s);
		return 1;
	}
	dalic_stats_snapshot_t *snap = NULL;
	rc = dalic_stats_snapshot(s, &snap);
	if (!rc && a.json) {
		rc = stats_print_json(snap, o.path, warm);
	} else if (!rc) {
		printf("# Run\npipeline: %s\nwarmup_iterations: %ld\niterations_run: %ld\n\n",
		       o.path, warm, done);
		rc = dalic_stats_write_report(snap, stdout);
		/* a report longer than stdout's buffer fails inside: name the stream */
		if (rc == DALIC_EIO)
			rc = dalic_cli_check_stdout();
	}
	if (!rc && a.trace) {
		rc = dalic_stats_save_trace(s, a.trace);
		if (!rc && !a.json)
			printf("\n# Output\ntrace_file: %s\n", a.trace);
	}
	if (rc)
		dalic_cli_error(rc);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	return rc ? 1 : dalic_cli_stop_status();
}

DALIC_COMMAND(stats) = {
    .name = "stats",
    .summary = "executor_statistics, timings, queues and allocations of a run",
    .usage = "usage: dalic stats PIPELINE [-n N] [--warmup W] [--json] [--trace FILE]\n"
             "                   [pipeline flags]\n"
             "  -n N             iterations to measure (default 10)\n"
             "  --warmup W       iterations to run first and leave out of the numbers\n"
             "  --json           the stats document (docs/stats-schema.md) instead of the\n"
             "                   `key: value` report\n"
             "  --trace FILE     also write a Chrome trace-event file (open it in Perfetto)\n"
             "Memory statistics (executor_statistics) are always collected here.\n",
    .pipeline_flags = true,
    .main = stats_main,
};
