/*
 * The pipeline's warnings log as the commands print it (issue 20): `dalic run`'s one-line count
 * and --warnings list, `dalic scan`'s report, the "warnings" arrays of their JSON.
 */
#ifndef DALIC_CLI_WARNINGS_H
#define DALIC_CLI_WARNINGS_H

#include "dalic.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* Entries of the log that count: those of the first `iterations` iterations (0: all) — a
 * pipelined executor runs ahead of what was asked for — and in a scan those of the first
 * `epoch` samples (iteration * batch + sample < epoch; batch 0: no such limit). */
typedef struct dalic_cli_warn_filter {
	int64_t iterations;
	int batch;
	int64_t epoch;
} dalic_cli_warn_filter_t;

bool dalic_cli_warning_counts(const dalic_warning_t *w, const dalic_cli_warn_filter_t *f);
/* Entries that count, the distinct samples they name, and how many of those were refused. */
void dalic_cli_warnings_tally(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f,
                              int64_t *entries, int64_t *samples, int64_t *refused);
/* One line per entry: "iteration I sample S <source>: <op>: <message> (xN)". */
void dalic_cli_warnings_list(FILE *out, const dalic_pipeline_t *p,
                             const dalic_cli_warn_filter_t *f);
/* The entries as a JSON array of {op, schema, iteration, sample, source, record, message,
 * repeats, error}. */
cJSON *dalic_cli_warnings_json(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f);

#endif
