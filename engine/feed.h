/*
 * Input queues of external sources. Data given with dalic_pipeline_feed_input() or produced
 * by a source callback is copied into a ring of recycled host batches, so feeding a fixed
 * shape allocates nothing after the first iterations. The ExternalSource kernel takes the
 * oldest batch each iteration. Thread-safe: the application feeds while stages run.
 */
#ifndef DALIC_ENGINE_FEED_H
#define DALIC_ENGINE_FEED_H

#include "engine/batch.h"

#include <pthread.h>

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
} dalic_feed_queue_t;

struct dalic_feed {
	dalic_feed_queue_t *q;
	int pushed;
	/* also given every batch pushed, when set (debug mode records a source's batches) */
	int (*tap)(void *ctx, dalic_dtype_t dtype, int ndim, int batch, const int64_t *shapes,
		   const void *data, const char *layout);
	void *tap_ctx;
};

int dalic_feed_queue_init(dalic_feed_queue_t *q, const char *name, int max_batch);
void dalic_feed_queue_destroy(dalic_feed_queue_t *q);
/* Copies one batch in (see dalic_pipeline_feed_input for the layout). */
int dalic_feed_queue_push(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
			  const int64_t *shapes, const void *data, const char *layout);
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
