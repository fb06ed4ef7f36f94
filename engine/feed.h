/*
 * Input queues of external sources. Data given with dalic_pipeline_feed_input() or produced
 * by a source callback is copied into a ring of recycled host batches, so feeding a fixed
 * shape allocates nothing after the first iterations. The ExternalSource kernel takes the
 * oldest batch each iteration. Thread-safe: the application feeds while stages run.
 */
#ifndef DALIC_ENGINE_FEED_H
#define DALIC_ENGINE_FEED_H

#include "engine/batch.h"
#include "engine/strmap.h"

#include <pthread.h>

/* A fed sample a streaming input keeps while its iterations are queued. */
typedef struct dalic_feed_blob {
	uint64_t serial;
	uint8_t *data;
	size_t n;
	int left;       /* queued iterations that still read it (less those already popped) */
	bool splitting; /* its iterations are being queued: not freed yet */
	const char *source; /* where it came from (interned in the queue), or NULL */
	struct dalic_feed_blob *next;
} dalic_feed_blob_t;

typedef struct dalic_feed_queue {
	char *name;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	dalic_batch_t **ring; /* pointers, so growing the ring never moves a batch a stage reads */
	int head, count, cap;
	dalic_source_fn fn;
	void *user;
	bool ended;          /* the callback reported end of data */
	bool stopped;        /* pipeline shutting down: wake and fail waiters */
	int max_batch;
	/* Streaming inputs (schema->feed_split): each fed sample is kept as a blob and split
	 * into iterations; those entries are INT64 descriptors whose first value is the blob's
	 * serial, and popping the last one frees the blob. */
	const struct dalic_schema *split_schema;
	const struct dalic_opdef *split_def;
	dalic_feed_blob_t *blobs;
	uint64_t next_serial;
	/* Fed samples' source names, each kept once for the queue's life: batches borrow them
	 * (outputs outlive the ring slot they came from), as readers' file names. */
	dalic_strmap_t names;
} dalic_feed_queue_t;

struct dalic_feed {
	dalic_feed_queue_t *q;
	int pushed;
	int refused; /* status of a batch the queue refused (its message is the current one) */
	/* also given every batch pushed, when set (debug mode records a source's batches) */
	int (*tap)(void *ctx, dalic_dtype_t dtype, int ndim, int batch, const int64_t *shapes,
		   const void *data, const char *layout, const char *const *sources);
	void *tap_ctx;
};

int dalic_feed_queue_init(dalic_feed_queue_t *q, const char *name, int max_batch);
/* Makes q a streaming input's queue when def's schema splits fed samples (no-op otherwise). */
void dalic_feed_queue_set_def(dalic_feed_queue_t *q, const struct dalic_opdef *def);
void dalic_feed_queue_destroy(dalic_feed_queue_t *q);
/* Copies one batch in (see dalic_pipeline_feed_input for the layout); a streaming input's
 * queue splits it. `sources`: `batch` names or NULL (see dalic_pipeline_feed_input_sources).
 * *iterations (may be NULL): how many iterations it queued. */
int dalic_feed_queue_push(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
			  const int64_t *shapes, const void *data, const char *layout,
			  const char *const *sources, int *iterations);
/* Queues one iteration's batch as given (the split hooks' way in). */
int dalic_feed_queue_push_plain(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
				const int64_t *shapes, const void *data, const char *layout,
				const char *const *sources);
/* The bytes of a streaming input's blob (borrowed until the last of its iterations is
 * popped) and its source name (NULL when none was given; may be NULL), or an error naming
 * the queue. */
int dalic_feed_queue_blob(dalic_feed_queue_t *q, uint64_t serial, const uint8_t **data,
			  size_t *n, const char **source);
/* The oldest batch, calling the source callback for `iteration` when empty. `wait`: block
 * until fed (async engine) instead of failing. Returns DALIC_EEND at end of data.
 * *out is borrowed until dalic_feed_queue_pop. */
int dalic_feed_queue_front(dalic_feed_queue_t *q, int64_t iteration, bool wait,
			   const dalic_batch_t **out);
void dalic_feed_queue_pop(dalic_feed_queue_t *q);
/* Drops queued batches and the end-of-data mark (pipeline reset). */
void dalic_feed_queue_clear(dalic_feed_queue_t *q);
/* Wakes waiters so shutdown never hangs. */
void dalic_feed_queue_stop(dalic_feed_queue_t *q);
int dalic_feed_queue_size(dalic_feed_queue_t *q);

#endif
