/* Built-in sample pipelines built through the public C API (`dalic run @name`). */
#ifndef DALIC_CLI_SAMPLES_H
#define DALIC_CLI_SAMPLES_H

#include "engine/graphdef.h"

typedef struct dalic_cli_sample {
	const char *name;
	const char *summary;
	/* Adds operators and outputs to an empty pipeline. */
	int (*define)(dalic_pipeline_t *p);
	int batch_size;
} dalic_cli_sample_t;

/* NULL-terminated list. */
extern const dalic_cli_sample_t *const dalic_cli_samples[];
const dalic_cli_sample_t *dalic_cli_sample_find(const char *name);

#endif
