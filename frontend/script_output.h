/*
 * Where print() in pipeline scripts writes. DALI prints while a pipeline definition is
 * traced, to stdout; a command whose stdout carries machine-readable output (dalic run
 * --json, dalic stats --json) sends script prints elsewhere with this.
 */
#ifndef DALIC_FRONTEND_SCRIPT_OUTPUT_H
#define DALIC_FRONTEND_SCRIPT_OUTPUT_H

#include <stdio.h>

/* Stream for print() of scripts loaded afterwards on this thread (NULL = stdout).
 * Borrowed: must stay open while scripts load. */
void dalic_script_set_print_stream(FILE *f);
/* Stream for the load's warning about skipped display code (NULL = stderr), as above. */
void dalic_script_set_warning_stream(FILE *f);

#endif
