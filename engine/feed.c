/* External-source input queues (see feed.h). */
#include "engine/feed.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/schema.h"

#include <stdlib.h>
#include <string.h>

int dalic_feed_queue_init(dalic_feed_queue_t *q, const char *name, int max_batch)
{
	memset(q, 0, sizeof *q);
	q->name = strdup(name);
	if (!q->name)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	q->max_batch = max_batch;
	return DALIC_OK;
}

void dalic_feed_queue_set_def(dalic_feed_queue_t *q, const dalic_opdef_t *def)
{
	if (def && def->schema->feed_split) {
		q->split_schema = def->schema;
		q->split_def = def;
	}
}

/* Called with mu held. */
static void feed_blobs_free(dalic_feed_queue_t *q)
{
	while (q->blobs) {
		dalic_feed_blob_t *b = q->blobs;
		q->blobs = b->next;
		free(b->data);
		free(b);
	}
}

void dalic_feed_queue_destroy(dalic_feed_queue_t *q)
{
	if (!q->name)
		return;
	feed_blobs_free(q);
	for (size_t i = 0; i < q->names.cap; i++)
		free((char *)q->names.slots[i].key);
	dalic_strmap_clear(&q->names);
	for (int i = 0; i < q->cap; i++) {
		dalic_batch_free(q->ring[i]);
		free(q->ring[i]);
	}
	free(q->ring);
	free(q->name);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->cv);
	memset(q, 0, sizeof *q);
}

/* Called with mu held. Batches stay where they are (a stage may be reading the front one
 * unlocked); only the array of pointers to them is replaced. */
static int grow_ring(dalic_feed_queue_t *q)
{
	int cap = q->cap ? q->cap * 2 : 4;
	dalic_batch_t **r = calloc((size_t)cap, sizeof *r);
	if (!r)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = q->cap; i < cap; i++) {
		r[i] = malloc(sizeof **r);
		if (!r[i]) {
			while (--i >= q->cap)
				free(r[i]);
			free(r);
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		}
		dalic_batch_init(r[i], DALIC_MEM_HOST, true, NULL);
	}
	/* queued batches first, in order; free slots keep their buffers for reuse */
	for (int i = 0; i < q->cap; i++)
		r[i] = q->ring[(q->head + i) % q->cap];
	free(q->ring);
	q->ring = r;
	q->head = 0;
	q->cap = cap;
	return DALIC_OK;
}

/* The queue's copy of source name s (NULL for NULL), kept until the queue is destroyed. The
 * set grows with the distinct names fed, as a reader's file list does. */
static int feed_intern(dalic_feed_queue_t *q, const char *s, const char **out)
{
	*out = NULL;
	if (!s)
		return DALIC_OK;
	pthread_mutex_lock(&q->mu);
	const char *k = dalic_strmap_get(&q->names, s);
	int rc = DALIC_OK;
	if (!k) {
		char *c = strdup(s);
		rc = c ? dalic_strmap_put(&q->names, c, c) : dalic_fail(DALIC_ENOMEM, "out of memory");
		if (rc)
			free(c);
		k = c;
	}
	pthread_mutex_unlock(&q->mu);
	if (!rc)
		*out = k;
	return rc;
}

int dalic_feed_queue_push_plain(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
				const int64_t *shapes, const void *data, const char *layout,
				const char *const *sources)
{
	if (batch < 0 || batch > q->max_batch)
		return dalic_fail(DALIC_EINVAL,
				  "external_source '%s': batch of %d samples, max batch size is %d",
				  q->name, batch, q->max_batch);
	if (ndim < 0 || ndim > DALIC_MAX_NDIM || !dalic_dtype_size(dtype))
		return dalic_fail(DALIC_EINVAL, "external_source '%s': invalid dtype or ndim (%d)",
				  q->name, ndim);
	if (layout && *layout && (int)strlen(layout) != ndim)
		return dalic_fail(DALIC_EINVAL,
				  "external_source '%s': layout '%s' does not have %d dimensions",
				  q->name, layout, ndim);
	for (int i = 0; i < batch * ndim; i++)
		if (shapes[i] < 0)
			return dalic_fail(DALIC_EINVAL, "external_source '%s': negative extent in "
					  "sample %d", q->name, i / (ndim ? ndim : 1));
	pthread_mutex_lock(&q->mu);
	int rc = q->count == q->cap ? grow_ring(q) : DALIC_OK;
	if (rc) {
		pthread_mutex_unlock(&q->mu);
		return rc;
	}
	dalic_batch_t *b = q->ring[(q->head + q->count) % q->cap];
	pthread_mutex_unlock(&q->mu);
	/* only the feeding thread touches a free slot, so the copy runs unlocked */
	rc = dalic_batch_set_meta(b, batch, dtype, ndim);
	for (int i = 0; !rc && i < batch; i++)
		dalic_batch_set_shape(b, i, shapes + (size_t)i * ndim);
	dalic_batch_set_layout(b, layout);
	for (int i = 0; !rc && sources && i < batch; i++)
		rc = feed_intern(q, sources[i], &b->sources[i]);
	if (!rc)
		rc = dalic_batch_alloc(b);
	const char *src = data;
	for (int i = 0; !rc && i < batch; i++) {
		size_t n = dalic_batch_sample_bytes(b, i);
		if (n)
			memcpy(b->ptrs[i], src, n);
		src += n;
	}
	if (rc)
		return rc;
	pthread_mutex_lock(&q->mu);
	q->count++;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	return DALIC_OK;
}

/* A streaming input: sample 0 is kept as a blob and split into iterations (DALI's input
 * operators take one sample per feed: the rest of the batch is not read). */
static int feed_queue_push_split(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
				 const int64_t *shapes, const void *data, const char *source,
				 int *iterations)
{
	const char *op = q->split_schema->fn;
	if (batch < 1)
		return dalic_fail(DALIC_EINVAL, "%s '%s': fed an empty batch; it takes one sample",
				  op, q->name);
	if (dtype != DALIC_UINT8 || ndim != 1)
		return dalic_fail(DALIC_EINVAL,
				  "%s '%s': fed %s data with %d dims; it takes encoded bytes (uint8, "
				  "1 dim)",
				  op, q->name, dalic_dtype_name(dtype), ndim);
	const char *name;
	int rc = feed_intern(q, source, &name);
	if (rc)
		return rc;
	dalic_feed_blob_t *b = calloc(1, sizeof *b);
	size_t n = (size_t)shapes[0];
	if (!b || !(b->data = malloc(n ? n : 1))) {
		free(b);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	b->source = name;
	memcpy(b->data, data, n);
	b->n = n;
	b->splitting = true;
	pthread_mutex_lock(&q->mu);
	b->serial = ++q->next_serial;
	b->next = q->blobs;
	q->blobs = b;
	pthread_mutex_unlock(&q->mu);
	int k = 0;
	rc = q->split_schema->feed_split(q, q->split_def, q->max_batch, b->serial, b->data, n,
					     &k);
	pthread_mutex_lock(&q->mu);
	/* iterations queued stay valid even when the split failed; a stage may have popped
	 * some of them already */
	b->left += k;
	b->splitting = false;
	if (b->left <= 0) {
		for (dalic_feed_blob_t **p = &q->blobs; *p; p = &(*p)->next)
			if (*p == b) {
				*p = b->next;
				break;
			}
		free(b->data);
		free(b);
	}
	pthread_mutex_unlock(&q->mu);
	*iterations = k;
	return rc;
}

int dalic_feed_queue_push(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
			  const int64_t *shapes, const void *data, const char *layout,
			  const char *const *sources, int *iterations)
{
	int k = 0;
	int rc;
	if (q->split_schema) {
		rc = feed_queue_push_split(q, dtype, ndim, batch, shapes, data,
					   sources && batch > 0 ? sources[0] : NULL, &k);
	} else {
		rc = dalic_feed_queue_push_plain(q, dtype, ndim, batch, shapes, data, layout,
						 sources);
		k = !rc;
	}
	if (iterations)
		*iterations = k;
	return rc;
}

int dalic_feed_queue_blob(dalic_feed_queue_t *q, uint64_t serial, const uint8_t **data,
			  size_t *n, const char **source)
{
	pthread_mutex_lock(&q->mu);
	dalic_feed_blob_t *b = q->blobs;
	while (b && b->serial != serial)
		b = b->next;
	if (b) {
		*data = b->data;
		*n = b->n;
		if (source)
			*source = b->source;
	}
	pthread_mutex_unlock(&q->mu);
	return b ? DALIC_OK
		 : dalic_fail(DALIC_ESTATE, "input '%s': fed sample %llu is no longer queued",
			      q->name, (unsigned long long)serial);
}

int dalic_feed_batch_sources(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
			     const int64_t *shapes, const void *data, const char *layout,
			     const char *const *sources)
{
	int k = 0;
	int rc = dalic_feed_queue_push(f->q, dtype, ndim, batch, shapes, data, layout, sources,
				       &k);
	f->pushed += k;
	if (rc)
		f->refused = rc;
	if (!rc && f->tap)
		rc = f->tap(f->tap_ctx, dtype, ndim, batch, shapes, data, layout, sources);
	return rc;
}

int dalic_feed_batch(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
		     const int64_t *shapes, const void *data, const char *layout)
{
	return dalic_feed_batch_sources(f, dtype, ndim, batch, shapes, data, layout, NULL);
}

int dalic_feed_queue_front(dalic_feed_queue_t *q, int64_t iteration, bool wait,
			   const dalic_batch_t **out)
{
	pthread_mutex_lock(&q->mu);
	if (q->count == 0 && q->fn && !q->ended) {
		pthread_mutex_unlock(&q->mu);
		dalic_feed_t f = {.q = q};
		int rc = q->fn(q->user, iteration, &f);
		pthread_mutex_lock(&q->mu);
		if (rc == DALIC_EEND) {
			q->ended = true;
		} else if (rc && f.refused) { /* the queue's own reason (a video it cannot open) */
			pthread_mutex_unlock(&q->mu);
			return dalic_fail_wrap(DALIC_EOP, "external_source '%s', iteration %lld",
					       q->name, (long long)iteration);
		} else if (rc == DALIC_EOP) { /* a callback of dalic's own said why */
			pthread_mutex_unlock(&q->mu);
			return dalic_fail_wrap(DALIC_EOP, "external_source '%s' (iteration %lld)",
					       q->name, (long long)iteration);
		} else if (rc) {
			pthread_mutex_unlock(&q->mu);
			return dalic_fail(DALIC_EOP,
					  "external_source '%s': source callback failed at iteration "
					  "%lld (status %d: %s)",
					  q->name, (long long)iteration, rc, dalic_strerror(rc));
		} else if (!f.pushed) {
			pthread_mutex_unlock(&q->mu);
			return dalic_fail(DALIC_EOP,
					  "external_source '%s': source callback returned no batch at "
					  "iteration %lld",
					  q->name, (long long)iteration);
		}
	}
	while (q->count == 0 && wait && !q->ended && !q->stopped && !q->fn)
		pthread_cond_wait(&q->cv, &q->mu);
	int rc = DALIC_OK;
	if (q->count > 0)
		*out = q->ring[q->head];
	else if (q->ended)
		rc = DALIC_EEND;
	else if (q->stopped)
		rc = dalic_fail(DALIC_ESTATE, "external_source '%s': pipeline stopped", q->name);
	else
		rc = dalic_fail(DALIC_ESTATE,
				"external_source '%s': no data was fed for iteration %lld (feed it "
				"with feed_input or give it a source)",
				q->name, (long long)iteration);
	pthread_mutex_unlock(&q->mu);
	return rc;
}

/* Called with mu held: one iteration of the blob is done. */
static void feed_blob_release(dalic_feed_queue_t *q, uint64_t serial)
{
	for (dalic_feed_blob_t **p = &q->blobs; *p; p = &(*p)->next) {
		dalic_feed_blob_t *b = *p;
		if (b->serial != serial)
			continue;
		if (--b->left <= 0 && !b->splitting) {
			*p = b->next;
			free(b->data);
			free(b);
		}
		return;
	}
}

void dalic_feed_queue_pop(dalic_feed_queue_t *q)
{
	pthread_mutex_lock(&q->mu);
	if (q->count > 0) {
		const dalic_batch_t *b = q->ring[q->head];
		if (q->split_schema && b->num_samples > 0 && b->dtype == DALIC_INT64)
			feed_blob_release(q, (uint64_t)((const int64_t *)b->ptrs[0])[0]);
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	pthread_mutex_unlock(&q->mu);
}

void dalic_feed_queue_clear(dalic_feed_queue_t *q)
{
	pthread_mutex_lock(&q->mu);
	q->head = 0;
	q->count = 0;
	feed_blobs_free(q);
	q->ended = false;
	q->stopped = false;
	pthread_mutex_unlock(&q->mu);
}

void dalic_feed_queue_stop(dalic_feed_queue_t *q)
{
	pthread_mutex_lock(&q->mu);
	q->stopped = true;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

int dalic_feed_queue_size(dalic_feed_queue_t *q)
{
	pthread_mutex_lock(&q->mu);
	int n = q->count;
	pthread_mutex_unlock(&q->mu);
	return n;
}
