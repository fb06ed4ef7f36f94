/*
 * The dalic command: shared pieces for subcommands. Each subcommand lives in its own file in
 * cli/ and registers itself with a line starting `DALIC_COMMAND(id) = { ... };` (the
 * Makefile collects them into the command table, as it does for operators). The command is a
 * client of the public API (include/dalic*.h) and nothing else of the library.
 */
#ifndef DALIC_CLI_H
#define DALIC_CLI_H

#include "cli/ranks.h"
#include "dalic.h"

#include <stdio.h>

typedef struct dalic_command {
	const char *name;
	const char *summary; /* one line for `dalic help` */
	const char *usage;   /* full usage text */
	bool pipeline_flags; /* takes PIPELINE and the pipeline flags (usage adds their text) */
	int (*main)(int argc, char **argv); /* argv[0] is the subcommand name */
} dalic_command_t;

#define DALIC_COMMAND(id) const dalic_command_t dalic_command_##id

/* Pipeline flags shared by every subcommand that takes PIPELINE (README "Using it"). */
#define DALIC_CLI_MAX_ARGS 64
typedef struct dalic_cli_pipeline_opts {
	const char *path;     /* PIPELINE: script (.py), serialized (.pb) or @sample */
	const char *pipeline; /* --pipeline NAME */
	bool debug;           /* --debug */
	const char *tracers;  /* --tracers LIST (dalic_tracers_attach) */
	const char *stats_socket; /* --stats-socket PATH (dalic_stats_serve) */
	const char *args[DALIC_CLI_MAX_ARGS]; /* --arg NAME=VALUE, in override.params too */
	const char *feeds[DALIC_CLI_MAX_ARGS]; /* --feed NAME=PATH (cli/feed.h) */
	int num_feeds;
	dalic_cli_shard_opts_t shard; /* --shard-from-env, --shard-id, --num-shards (ranks.h) */
	dalic_pipeline_override_t override; /* the other flags */
} dalic_cli_pipeline_opts_t;

/* The usage text of the pipeline flags (printed after a command's own usage). */
extern const char dalic_cli_pipeline_usage[];

/* Consumes the pipeline flags it knows from argv[1..], compacting argv; the first
 * non-flag argument becomes opts->path. Unknown flags are left for the caller. Returns
 * DALIC_OK or prints the error and returns a status. */
int dalic_cli_parse_pipeline_opts(int *argc, char **argv, dalic_cli_pipeline_opts_t *opts);
/* Loads opts->path with the flags applied (not built). New: free with dalic_pipeline_destroy.
 * Sets dalic_last_error on failure. */
int dalic_cli_open(const dalic_cli_pipeline_opts_t *opts, dalic_pipeline_t **out);
/* Prints "dalic: <message>" for the last error to stderr; returns status. */
int dalic_cli_error(int status);
/* Prints "dalic: <formatted message>" to stderr; returns status. */
int dalic_cli_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- output files (output.c) ----------------------------------------------------------- */
/* A file being written: complete files only ever appear under their name. */
typedef struct dalic_cli_file {
	FILE *f;
	char *path; /* the name asked for */
	char *tmp;  /* the temporary name it is written under, NULL when written in place */
} dalic_cli_file_t;

/* Opens `path` for writing ("-" is stdout). A regular file is written under a temporary name
 * in the same directory and renamed by dalic_cli_file_close; a device or pipe is written in
 * place. Prints the error and returns DALIC_EIO on failure. */
int dalic_cli_file_open(dalic_cli_file_t *file, const char *path);
/* Flushes and closes, checking every write; renames the temporary file into place when
 * `ok` and nothing failed, removes it otherwise. Prints the error; returns DALIC_OK or
 * DALIC_EIO. */
int dalic_cli_file_close(dalic_cli_file_t *file, bool ok);
/* Writes len bytes to path as one complete file. */
int dalic_cli_save(const char *path, const void *buf, size_t len);
/* Reads a whole file ("-" is stdin). *buf is new: free(); a NUL follows the *len bytes.
 * Prints the error. */
int dalic_cli_slurp(const char *path, void **buf, size_t *len);
/* Flushes stdout; DALIC_EIO with a message when anything written to it was lost. */
int dalic_cli_check_stdout(void);

/* Elapsed seconds since `t0_ns` (dalic_clock_ns). */
static inline double dalic_cli_seconds_since(int64_t t0_ns)
{
	return (double)(dalic_clock_ns() - t0_ns) * 1e-9;
}

#endif
