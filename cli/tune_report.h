/* `dalic tune` output (cli/tune_report.c): the table with intervals and verdicts, the
 * mechanism lines, the recommendation, and the same as JSON. */
#ifndef DALIC_CLI_TUNE_REPORT_H
#define DALIC_CLI_TUNE_REPORT_H

#include "cli/cli.h"
#include "stats/tune.h"

#include <stdio.h>

void dalic_tune_print_table(FILE *f, const dalic_tune_t *t, const char *path);
void dalic_tune_print_json(FILE *f, const dalic_tune_t *t, const char *path);
/* --apply OUT (cli/tune_apply.c): writes the recommended setting into a copy of the script
 * or a new serialized pipeline and checks it loads with those parameters. Prints errors. */
int dalic_tune_apply(const dalic_cli_pipeline_opts_t *o, const dalic_tune_t *t, const char *out);

#endif
