/*
 * The run summary `dalic run` prints, for the full engine and for debug mode alike (same
 * lines, same JSON keys, so scripts read both): parameters, iterations, throughput, and per
 * output the name, dtype, layout, device and the sample shapes of the last batch.
 */
#ifndef DALIC_CLI_SUMMARY_H
#define DALIC_CLI_SUMMARY_H

#include "cli/dump.h"

typedef struct dalic_cli_summary {
	const char *path;
	const dalic_pipeline_params_t *params;
	bool debug; /* run by debug mode */
	long iterations, samples;
	double seconds;
	double full_seconds; /* debug: the full engine's time on the same run, <= 0 unknown */
	int num_outputs;
	dalic_cli_output_fn output; /* output o of the last iteration, or NULL */
	const char *(*output_name)(void *ctx, int o);
	void *ctx;
	/* the pipeline whose warnings log is summed up (NULL: none), its entries listed too when
	 * `list_warnings` (dalic run --warnings) */
	const dalic_pipeline_t *warnings_of;
	bool list_warnings;
} dalic_cli_summary_t;

/* `key: value` lines to stdout. */
void dalic_cli_summary_text(const dalic_cli_summary_t *m);
/* One JSON object to stdout. */
int dalic_cli_summary_json(const dalic_cli_summary_t *m);

#endif
