/* `dalic tune` output (cli/tune_report.c): the table with intervals and verdicts, the
 * mechanism lines, the recommendation, and the same as JSON. */
#ifndef DALIC_CLI_TUNE_REPORT_H
#define DALIC_CLI_TUNE_REPORT_H

#include "stats/tune.h"

#include <stdio.h>

void dalic_tune_print_table(FILE *f, const dalic_tune_t *t, const char *path);
void dalic_tune_print_json(FILE *f, const dalic_tune_t *t, const char *path);

#endif
