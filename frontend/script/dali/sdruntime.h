/*
 * A script that keeps running after it was loaded (sdruntime.c): when a debug pipeline
 * prints values computed from its batches (sdprint.c) or an external source takes its data
 * from a Python `source=` (sdsource.c), the interpreter stays alive with the graph
 * definition as its runtime (graphdef.h), shared by the definition's clones; python_function
 * calls (sdpyfn.c) then run in the same interpreter. Every call into it is serialized
 * (rt->mu), strict (an error is the pipeline's error, never a skipped statement), bounded
 * like the load (steps, stack) and allocates in the runtime heap (py/pyarena.h): after the
 * call, a collection gives back everything it made that nothing reaches any more (py/pygc.h),
 * while a source's state — a suspended generator, an iterator's attributes — stays. A print
 * rendered or a source polled every iteration runs in constant memory.
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
	struct sdpipe *pipe; /* the pipeline of the definition (its external sources) */
} sdruntime_t;

typedef struct sdcall {
	/* set by the caller: errors are Python exceptions that the script's try / except may
	 * catch (an external source's code), not the pipeline's error at once (a print) */
	bool catchable;
	uintptr_t stack_base;
} sdcall_t;

/* The runtime owning `load` (freed with free_load when the last reference goes). */
int dalic_sdruntime_new(pyinterp_t *I, void (*free_load)(void *load), void *load,
                        sdruntime_t **out);
/* Around every call into the script: locks, resets the interpreter's bounds, turns the
 * runtime heap on; end turns it off and collects. */
void dalic_sdruntime_begin(sdruntime_t *rt, sdcall_t *c);
void dalic_sdruntime_end(sdruntime_t *rt, sdcall_t *c);

extern const dalic_runtime_class_t dalic_sdruntime_class;

#endif
