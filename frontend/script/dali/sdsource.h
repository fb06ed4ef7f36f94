/*
 * external_source(source=...) in pipeline scripts (sdsource.c, sdsource_run.c,
 * sdsource_conv.c): the Python source runs in dalic's interpreter, every iteration, with
 * DALI 2.4's semantics (nvidia/dali/_utils/external_source_impl.py, external_source.py,
 * pipeline.py):
 *
 * - when the pipeline is defined, the source is classified as DALI does — a generator
 *   function (or a callable whose __call__ is one, or a partial of one), an iterable or
 *   iterator (a generator object, a list, a class with __iter__ / __next__), or a callable —
 *   and DALI's definition-time checks and calls happen then: `cycle` validated, a generator
 *   function called (no cycle) and iter() taken of the iterable, the callable's positional
 *   parameters counted (0 or 1);
 * - every iteration, the group (one source feeding num_outputs external sources) is polled
 *   once: next() of the iterator, or the callable with the batch index / BatchInfo(iteration,
 *   epoch_idx) (batch=True) or once per sample with SampleInfo(idx_in_epoch, idx_in_batch,
 *   iteration, epoch_idx) (batch=False); StopIteration ends the epoch (the pipeline's run
 *   ends, reset starts the next: epoch_idx + 1, indices back to 0); cycle="quiet" / True
 *   rewinds silently, "raise" rewinds and ends the epoch;
 * - the data are numpy arrays (a batch: one array whose first axis is the samples, or a list
 *   of arrays; a sample: an array), tuples of them with num_outputs.
 *
 * State lives in the script's interpreter, kept alive with the definition (sdruntime.h): the
 * interpreter's runtime heap holds what the source keeps between iterations — a suspended
 * generator, an iterator's attributes — and a collection after each poll gives back the rest.
 * A source whose code uses values dalic does not model (torch, PIL, cupy) is not run: the
 * load warns with the line and --feed, and running without data is an error naming --feed.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDSOURCE_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDSOURCE_H

#include "engine/graphdef.h"
#include "frontend/script/dali/sdali.h"
#include "frontend/script/dali/sdops.h"

enum { SDSRC_CALLABLE, SDSRC_ITERABLE, SDSRC_GENFUNC };
enum { SDSRC_CYCLE_NO, SDSRC_CYCLE_QUIET, SDSRC_CYCLE_RAISE };

typedef struct sdsource sdsource_t;

/* One external source fed by a group: the group and its output index. */
typedef struct sdsrc_member {
	sdsource_t *src;
	const char *name; /* the ExternalSource operator's instance name */
	int index;
	int64_t taken; /* batches handed to its queue this epoch */
	bool seen_end; /* it was told of the epoch's end */
} sdsrc_member_t;

/* One output batch, packed (malloc'd). */
typedef struct sdsrc_batch {
	dalic_dtype_t dtype;
	int ndim, n;
	int64_t *shapes;
	unsigned char *data;
	size_t bytes, cap;
} sdsrc_batch_t;

/* Lives in the load's arena (its Python pointers are roots of every collection); the
 * batches are malloc'd and freed with the load (dalic_sdsource_free). */
struct sdsource {
	sdsource_t *next;
	struct sdpipe *pipe;
	pyval_t *source; /* as given */
	pyval_t *iter;   /* the iterator polled (iterables, generator functions) */
	int kind, cycle;
	bool batch, batch_info, accepts_arg, tuple;
	int num_outputs; /* members */
	sdsrc_member_t *members;
	const char *what;    /* "external_source 'es'" for messages */
	pynode_t at;         /* the external_source call */
	const char *refused; /* why it does not run (outside the subset), or NULL */
	/* run state */
	struct sdruntime *rt;
	int installs, batch_size;
	int64_t produced, ended_at; /* ended_at: the batch index that raised StopIteration, -1 */
	int64_t iteration, sample, epoch;
	bool restart; /* installed again (a new pipeline): start over as a new definition would */
	sdsrc_batch_t *out; /* num_outputs batches: the last produced */
};

/* external_source(source=...) at `at` (pipeline P, call c) made `out` (a node, or a tuple of
 * num_outputs nodes when num_outputs > 0): classifies and checks the source as DALI does. */
int dalic_sdsource_add(pyinterp_t *I, const pynode_t *at, struct sdpipe *P, const sdopcall_t *c,
                       pyval_t *out, int num_outputs);
/* The runtime hook (dalic_runtime_class_t.sources): installs every runnable source of the
 * runtime's pipeline. */
int dalic_sdsource_install(dalic_shared_t *rt, int batch_size,
                           int (*install)(void *ctx, const char *name, dalic_source_fn fn,
                                          void *user),
                           void *ctx);
/* iter() of the source again (a generator function called again): a rewind, a new install. */
int dalic_sdsource_reiter(pyinterp_t *I, sdsource_t *src);
/* The source callback of a member (dalic_source_fn; sdsource_run.c). */
int dalic_sdsource_run(void *user, int64_t iteration, dalic_feed_t *feed);
/* The load ends: frees the batches of every source. */
void dalic_sdsource_free(sdstate_t *S);

/* ---- conversions (sdsource_conv.c) ---- */
/* v as sample s of batch b (a numpy array: dtype and ndim must agree with the batch's). */
int dalic_sdsource_put_sample(pyinterp_t *I, const sdsource_t *src, pyval_t *v, int s, int n,
                              sdsrc_batch_t *b);
/* v as a whole batch (one array whose first axis is the samples, or a list of arrays). */
int dalic_sdsource_put_batch(pyinterp_t *I, const sdsource_t *src, pyval_t *v, sdsrc_batch_t *b);
/* types.SampleInfo / types.BatchInfo values. */
pyval_t *dalic_sdsource_sample_info(pyinterp_t *I, int64_t idx_in_epoch, int64_t idx_in_batch,
                                    int64_t iteration, int64_t epoch_idx);
pyval_t *dalic_sdsource_batch_info(pyinterp_t *I, int64_t iteration, int64_t epoch_idx);
/* Sets types.SampleInfo and types.BatchInfo (constructible by scripts too) in module `types`. */
int dalic_sdsource_types(pyinterp_t *I, pyval_t *types);

#endif
