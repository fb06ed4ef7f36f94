/* Built-in sample pipelines built through the public C API (`dalic run @name`, loaded by
 * dalic_pipeline_load). */
#ifndef DALIC_FRONTEND_SAMPLES_H
#define DALIC_FRONTEND_SAMPLES_H

#include "dalic.h"

typedef struct dalic_sample {
	const char *name;
	const char *summary;
	/* Adds operators and outputs to an empty pipeline. */
	int (*define)(dalic_pipeline_t *p);
	int batch_size;
} dalic_sample_t;

/* The sample called `name` (without the '@'), or NULL. */
const dalic_sample_t *dalic_samples_find(const char *name);

#endif
