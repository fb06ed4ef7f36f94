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
#include "cli/feed.h"
#include "cli/stop.h"
#include "dalic_stats.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct stats_args {
	long iterations, warmup;
	bool json;
	const char *trace;
	const char *stats_dir; /* --stats-dir: this rank's document there (ranks.h) */
	bool ranks;            /* --ranks: gathered to rank 0 through MPI (ranks_mpi.c) */
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
		} else if (!strcmp(argv[i], "--ranks")) {
			a->ranks = true;
		} else if (!strcmp(argv[i], "--trace") && has_value) {
			a->trace = argv[++i];
		} else if (!strcmp(argv[i], "--stats-dir") && has_value) {
			a->stats_dir = argv[++i];
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
	cJSON *doc = dalic_cli_stats_doc(snap, path, warmup);
	if (!doc)
		return dalic_cli_error(DALIC_ENOMEM);
	char *text = cJSON_Print(doc);
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
		if (dalic_pipeline_num_outputs(p))
			dalic_cli_rank_test_delay(dalic_batch_num_samples(dalic_pipeline_output(p, 0)));
	}
	return DALIC_OK;
}

/* The command as one rank: with `mpi` (--ranks), the rank's document into *doc instead of
 * the report on stdout. */
static int stats_body(int argc, char **argv, const dalic_cli_rank_t *mpi, cJSON **doc_out)
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
	so.trace = a.trace != NULL || a.stats_dir; /* a rank's trace goes with its stats */
	dalic_cli_rank_t rank = {.rank = 0, .world = 1, .local_rank = -1};
	if (mpi)
		rank = *mpi;
	else if (a.stats_dir && dalic_cli_rank_from_env(&rank)) {
		dalic_pipeline_destroy(p);
		return 2;
	}
	dalic_cli_rank_run_t run = {.path = o.path, .warmup = 0};
	dalic_stats_t *s = NULL;
	dalic_cli_feed_t *feeds = NULL;
	rc = dalic_stats_create(p, &so, &s);
	if (!rc)
		rc = dalic_pipeline_build(p);
	/* --feed, as dalic run (the feed functions print their own errors) */
	if (!rc && (dalic_cli_feeds_open(o.feeds, o.num_feeds,
	                                 dalic_pipeline_params(p)->batch_size, &feeds) ||
	            dalic_cli_feeds_attach(feeds, p))) {
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		dalic_stats_pipeline_destroyed(s);
		dalic_stats_destroy(s);
		return 1;
	}
	dalic_cli_stop_catch(); /* Ctrl-C: the stats of what ran, then exit 130 */
	long warm = 0, done = 0;
	run.start_unix_ns = dalic_cli_unix_ns();
	if (!rc)
		rc = stats_run_iterations(p, a.warmup, &warm);
	if (!rc && a.warmup > 0) {
		dalic_stats_reset(s); /* judge the steady state: buffers grown, queues filled */
		run.start_unix_ns = dalic_cli_unix_ns();
	}
	if (!rc)
		rc = stats_run_iterations(p, a.iterations, &done);
	if (!rc && (a.stats_dir || mpi))
		run.coverage = dalic_cli_rank_coverage(p);
	if (rc)
		dalic_cli_error(rc);
	/* the pipeline first: it stops the executor threads, so nothing races the export */
	dalic_pipeline_destroy(p);
	dalic_cli_feeds_close(feeds);
	dalic_stats_pipeline_destroyed(s);
	if (rc) {
		dalic_stats_destroy(s);
		return 1;
	}
	dalic_stats_snapshot_t *snap = NULL;
	bool printed = false;
	rc = dalic_stats_snapshot(s, &snap);
	if (mpi) {
		/* rank 0 prints the merged view */
	} else if (!rc && a.json) {
		rc = stats_print_json(snap, o.path, warm);
	} else if (!rc) {
		printf("# Run\npipeline: %s\nwarmup_iterations: %ld\niterations_run: %ld\n\n",
		       o.path, warm, done);
		rc = dalic_stats_write_report(snap, stdout);
		/* a report longer than stdout's buffer fails inside: name the stream */
		if (rc == DALIC_EIO)
			rc = dalic_cli_check_stdout();
	}
	if (!rc && (a.stats_dir || mpi)) {
		run.warmup = warm;
		cJSON *doc = dalic_cli_rank_doc(snap, &rank, &run);
		rc = doc ? DALIC_OK : DALIC_ENOMEM;
		if (doc && a.stats_dir)
			rc = dalic_cli_rank_save(a.stats_dir, doc, rank.rank, s);
		printed = rc != DALIC_OK; /* the rank's files printed their own errors */
		if (!rc && doc_out)
			*doc_out = doc;
		else
			cJSON_Delete(doc);
		if (!rc && !a.json && !mpi)
			printf("\n# Rank\nrank: %d of %d\nstats_dir: %s\n", rank.rank, rank.world,
			       a.stats_dir);
	}
	if (!rc && a.trace) {
		rc = dalic_stats_save_trace(s, a.trace);
		if (!rc && !a.json && !mpi)
			printf("\n# Output\ntrace_file: %s\n", a.trace);
	}
	if (rc && !printed)
		dalic_cli_error(rc);
	cJSON_Delete(run.coverage);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	return rc ? 1 : dalic_cli_stop_status();
}

static int stats_main(int argc, char **argv)
{
	bool ranks = false, json = false, trace = false;
	for (int i = 1; i < argc; i++) {
		ranks |= !strcmp(argv[i], "--ranks");
		json |= !strcmp(argv[i], "--json");
		trace |= !strcmp(argv[i], "--trace");
	}
	if (ranks && trace) /* every rank would write the one FILE */
		return dalic_cli_fail(2, "--ranks with --trace FILE: give --stats-dir DIR instead "
		                         "(each rank's trace), then dalic stats-merge DIR --trace "
		                         "FILE");
	if (ranks) /* under mpirun: every rank runs, rank 0 prints the merged view */
		return dalic_cli_ranks_run(argc, argv, stats_body, json);
	return stats_body(argc, argv, NULL, NULL);
}

DALIC_COMMAND(stats) = {
    .name = "stats",
    .summary = "executor_statistics, timings, queues and allocations of a run",
    .usage = "usage: dalic stats PIPELINE [-n N] [--warmup W] [--json] [--trace FILE]\n"
             "                   [--stats-dir DIR] [--ranks]\n"
             "                   [pipeline flags]\n"
             "  -n N             iterations to measure (default 10)\n"
             "  --warmup W       iterations to run first and leave out of the numbers\n"
             "  --json           the stats document (docs/stats-schema.md) instead of the\n"
             "                   `key: value` report\n"
             "  --trace FILE     also write a Chrome trace-event file (open it in Perfetto)\n"
             "  --stats-dir DIR  also write DIR/stats-rank-N.json and trace-rank-N.json, N the\n"
             "                   launcher's rank (merge them: dalic stats-merge DIR)\n"
             "  --ranks          under mpirun: the ranks' statistics are gathered to rank 0\n"
             "                   through MPI, which prints the merged view (stats-merge's)\n"
             "Memory statistics (executor_statistics) are always collected here.\n",
    .pipeline_flags = true,
    .main = stats_main,
};
