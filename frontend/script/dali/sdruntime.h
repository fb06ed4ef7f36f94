/*
 * A script that keeps running after it was loaded (sdruntime.c): when a debug pipeline
 * prints values computed from its batches (sdprint.c), the interpreter stays alive with the
 * graph definition as its runtime (graphdef.h), shared by the definition's clones. Every
 * call into it is serialized, strict (an error is the pipeline's error, never a skipped
 * statement), bounded like the load (steps, stack) and, where nothing it made is still
 * referenced, gives back the memory it allocated, so a print rendered every iteration runs
 * in constant memory.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDRUNTIME_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDRUNTIME_H

#include "frontend/script/dali/sdali.h"

#include <pthread.h>

typedef struct sdruntime {
	dalic_shared_t base;
	pthread_mutex_t mu;
	pyinterp_t *I;
	void (*free_load)(void *load); /* frees the interpreter and what it read */
	void *load;
} sdruntime_t;

typedef struct sdcall {
	pyarena_mark_t mark;
	uintptr_t stack_base;
} sdcall_t;

/* The runtime owning `load` (freed with free_load when the last reference goes). */
int dalic_sdruntime_new(pyinterp_t *I, void (*free_load)(void *load), void *load,
                        sdruntime_t **out);
/* Around every call into the script: locks, resets the interpreter's bounds, marks the
 * arena; end releases the call's memory unless something older points into it. */
void dalic_sdruntime_begin(sdruntime_t *rt, sdcall_t *c);
void dalic_sdruntime_end(sdruntime_t *rt, sdcall_t *c);

extern const dalic_runtime_class_t dalic_sdruntime_class;

#endif
