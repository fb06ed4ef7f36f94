/*
 * The dalic command: shared pieces for subcommands. Each subcommand lives in its own file in
 * cli/ and registers itself with a line starting `DALIC_COMMAND(id) = { ... };` (the
 * Makefile collects them into the command table, as it does for operators).
 */
#ifndef DALIC_CLI_H
#define DALIC_CLI_H

#include "dalic.h"
#include "engine/graphdef.h"

#include <stdio.h>

typedef struct dalic_command {
	const char *name;
	const char *summary; /* one line for `dalic help` */
	const char *usage;   /* full usage text */
	int (*main)(int argc, char **argv); /* argv[0] is the subcommand name */
} dalic_command_t;

#define DALIC_COMMAND(id) const dalic_command_t dalic_command_##id

/* Pipeline flags shared by every subcommand that takes PIPELINE (DESIGN.md §1):
 * --batch-size N, --num-threads N, --device-id none|N, --seed N,
 * --prefetch-queue-depth N | cpu=N,gpu=M, --exec-pipelined=BOOL, --exec-async=BOOL,
 * --bytes-per-sample N, --set-affinity, --memory-stats, --pipeline NAME, --debug. */
typedef struct dalic_cli_pipeline_opts {
	const char *path;      /* PIPELINE: script (.py), serialized (.pb) or @sample */
	const char *pipeline;  /* --pipeline NAME */
	bool debug;            /* --debug */
	/* overrides; a field applies when its `set_` flag is true */
	bool set_batch_size, set_num_threads, set_device_id, set_seed, set_prefetch,
	     set_pipelined, set_async, set_bytes_per_sample, set_affinity, set_memory_stats;
	dalic_pipeline_params_t params;
} dalic_cli_pipeline_opts_t;

/* Consumes the pipeline flags it knows from argv[1..], compacting argv; the first
 * non-flag argument becomes opts->path. Unknown flags are left for the caller. Returns
 * DALIC_OK or prints the error and returns a status. */
int dalic_cli_parse_pipeline_opts(int *argc, char **argv, dalic_cli_pipeline_opts_t *opts);
/* Loads opts->path into a graph definition and applies the overrides (later wins).
 * New: free with dalic_graphdef_free. Prints the error on failure. */
int dalic_cli_load(const dalic_cli_pipeline_opts_t *opts, dalic_graphdef_t **out);
/* Loads and creates a pipeline (not built). New: free with dalic_pipeline_destroy. */
int dalic_cli_open(const dalic_cli_pipeline_opts_t *opts, dalic_pipeline_t **out);
/* Prints "dalic: <message>" for the last error to stderr; returns status. */
int dalic_cli_error(int status);

#endif
