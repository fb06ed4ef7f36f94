/*
 * `dalic run PIPELINE`: runs iterations with the full engine and prints throughput and the
 * outputs' names, dtypes, layouts and the sample shapes of the last batch; --json prints the
 * same as one JSON object (keys are a stable interface: iterations, samples_per_second,
 * outputs[].name/dtype/layout/shapes); --dump DIR writes every output sample. SIGINT or
 * SIGTERM stops it after the iteration in flight, with the summary of what ran (cli/stop.h).
 */
#include "cli/cli.h"
#include "cli/ckpt.h"
#include "cli/cmd_debug.h"
#include "cli/dump.h"
#include "cli/feed.h"
#include "cli/stop.h"
#include "cli/summary.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const dalic_batch_t *run_output(void *ctx, int o)
{
	return dalic_pipeline_output(ctx, o);
}

static const char *run_output_name(void *ctx, int o)
{
	return dalic_pipeline_output_name(ctx, o);
}

/* `dalic scan` (cmd_scan.c), which `dalic run --scan` is. */
extern const dalic_command_t dalic_command_scan;
/* `dalic stats`, which `dalic run --ranks` is (under mpirun, cli/ranks_mpi.c). */
extern const dalic_command_t dalic_command_stats;

/* Parses run's own options; 2 (usage error) or 0. */
static int run_parse_args(int argc, char **argv, long *iters, bool *json, const char **dump,
                          bool *warnings, dalic_cli_ckpt_opts_t *ck)
{
	for (int i = 1; i < argc; i++) {
		int used = dalic_cli_ckpt_parse(argc, argv, i, ck);
		if (used < 0)
			return 2;
		if (used) {
			i += used - 1;
			continue;
		}
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--iterations")) && i + 1 < argc) {
			char *end;
			*iters = strtol(argv[++i], &end, 10);
			if (*end || *iters < 0 || end == argv[i]) {
				fprintf(stderr, "dalic run: invalid iteration count '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--json")) {
			*json = true;
		} else if (!strcmp(argv[i], "--warnings")) {
			*warnings = true;
		} else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
			*dump = argv[++i];
		} else {
			fprintf(stderr, "dalic run: unknown option '%s' (see dalic run --help)\n",
				argv[i]);
			return 2;
		}
	}
	return 0;
}

static int run_main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--scan"))
			return dalic_command_scan.main(argc, argv);
		if (!strcmp(argv[i], "--ranks")) /* the merged statistics of every rank */
			return dalic_command_stats.main(argc, argv);
	}
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	long iters = 10;
	bool json = false, warnings = false;
	const char *dump = NULL;
	dalic_cli_ckpt_opts_t ck = {.at = -1};
	if (run_parse_args(argc, argv, &iters, &json, &dump, &warnings, &ck))
		return 2;
	dalic_cli_ckpt_override(&ck, &o.override);
	if (json) /* script print() must not land inside the JSON on stdout */
		dalic_set_script_output(stderr);
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(&o, &p);
	if (rc)
		return dalic_cli_error(rc), 1;
	/* eager, one operator at a time: debug mode's runner (cli/cmd_debug_run.c) */
	if (o.debug || dalic_pipeline_debug_requested(p)) /* or @pipeline_def(debug=True) */
		return dalic_cli_debug_run(&o, p, iters, json, dump, &ck);
	dalic_cli_feed_t *feeds = NULL;
	if (dalic_cli_feeds_open(o.feeds, o.num_feeds, dalic_pipeline_params(p)->batch_size,
	                         &feeds) ||
	    dalic_cli_feeds_attach(feeds, p)) {
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	rc = dalic_cli_ckpt_open(&ck, p);
	if (rc) {
		dalic_cli_error(rc);
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	long done = 0, samples = 0;
	int64_t first = dalic_pipeline_position(p); /* dumps are numbered from the seek's end */
	int64_t t0 = dalic_clock_ns();
	bool dump_failed = false;
	dalic_cli_stop_catch(); /* Ctrl-C: the summary of what ran, then exit 130 */
	for (; done < iters && !dalic_cli_stop_signal(); done++) {
		rc = dalic_pipeline_run(p);
		if (rc)
			break;
		samples += dalic_pipeline_num_outputs(p)
				   ? dalic_batch_num_samples(dalic_pipeline_output(p, 0))
				   : 0;
		if (dump && (rc = dalic_cli_dump_outputs(dump, first + done,
							 dalic_pipeline_num_outputs(p),
							 run_output, p))) {
			dump_failed = true; /* the dump printed its error */
			break;
		}
	}
	double secs = dalic_cli_seconds_since(t0);
	if ((!rc || rc == DALIC_EEND) && ck.save)
		rc = dalic_cli_ckpt_save(p, ck.save);
	if (rc && rc != DALIC_EEND) {
		if (!dump_failed)
			dalic_cli_error(rc);
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	dalic_cli_summary_t m = {
	    .path = o.path,
	    .params = dalic_pipeline_params(p),
	    .iterations = done,
	    .samples = samples,
	    .seconds = secs,
	    .num_outputs = dalic_pipeline_num_outputs(p),
	    .output = run_output,
	    .output_name = run_output_name,
	    .ctx = p,
	    .warnings_of = p,
	    .list_warnings = warnings,
	};
	if (json)
		rc = dalic_cli_summary_json(&m);
	else
		dalic_cli_summary_text(&m);
	dalic_pipeline_destroy(p);
	dalic_cli_feeds_close(feeds);
	return rc ? 1 : dalic_cli_stop_status();
}

DALIC_COMMAND(run) = {
	.name = "run",
	.summary = "run iterations, print throughput and output shapes",
	.usage = "usage: dalic run PIPELINE [-n N] [--json] [--dump DIR] [--warnings]\n"
		 "                 [pipeline flags]\n"
		 "       dalic run PIPELINE --scan [--json] [pipeline flags]   (dalic scan)\n"
		 "  -n N             iterations to run (default 10)\n"
		 "  --json           one JSON object: iterations, samples_per_second, outputs,\n"
		 "                   warning_count (and warnings[] with --warnings)\n"
		 "  --dump DIR       write every output sample (.npy, and .png for images)\n"
		 "  --warnings       list every data-quality warning (damaged files the decoders\n"
		 "                   decoded anyway); the summary always counts them\n"
		 "  --scan           decode one epoch, report every file that warns or fails\n"
		 "  --ranks          under mpirun: dalic stats --ranks (the ranks' merged statistics)\n"
		 DALIC_CLI_CKPT_USAGE,
	.pipeline_flags = true,
	.main = run_main,
};
