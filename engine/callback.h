/*
 * Callables a front end lends to operators that call back into it (python_function): the
 * front end registers an object and its call function under an id, the definition carries
 * the id as an argument (DALI's function_id), and the kernel finds the callable at build.
 * A definition keeps its front end alive through `dalic_keep_t`, a reference-counted handle
 * the definition's copies share; the front end removes its ids when the last one goes.
 *
 * The registry is process-wide and locked; a callable serializes its own calls.
 */
#ifndef DALIC_ENGINE_CALLBACK_H
#define DALIC_ENGINE_CALLBACK_H

#include "engine/kernel.h"

#include <stddef.h>

/* One sample a callable produced: malloc'd data the kernel copies into its output. */
typedef struct dalic_cb_sample {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	void *data;
	size_t bytes;
} dalic_cb_sample_t;

/* Runs the callable for one iteration: out[o * batch_size + s] gets output o of sample s.
 * Errors name the function; the kernel adds the operator. */
typedef int (*dalic_cb_call_fn)(void *obj, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                int num_outputs, dalic_cb_sample_t *out);

/* An id for (call, obj); 0 when out of memory. */
int64_t dalic_callback_add(dalic_cb_call_fn call, void *obj);
/* The callable with this id: false when none (a definition read back from bytes). */
bool dalic_callback_get(int64_t id, dalic_cb_call_fn *call, void **obj);
void dalic_callback_remove(int64_t id);
/* Frees the data of n samples and zeroes them. */
void dalic_cb_samples_free(dalic_cb_sample_t *s, int n);

/* What a definition keeps alive; free runs when the last reference goes. */
typedef struct dalic_keep {
	int refs;
	void (*free)(struct dalic_keep *k);
} dalic_keep_t;

void dalic_keep_retain(dalic_keep_t *k);
void dalic_keep_release(dalic_keep_t *k); /* NULL is ignored */

#endif
