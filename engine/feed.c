/* External-source input queues (see feed.h). */
#include "engine/feed.h"

#include "engine/dtype.h"
#include "engine/error.h"

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

void dalic_feed_queue_destroy(dalic_feed_queue_t *q)
{
	if (!q->name)
		return;
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

int dalic_feed_queue_push(dalic_feed_queue_t *q, dalic_dtype_t dtype, int ndim, int batch,
			  const int64_t *shapes, const void *data, const char *layout)
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

int dalic_feed_batch(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
		     const int64_t *shapes, const void *data, const char *layout)
{
	int rc = dalic_feed_queue_push(f->q, dtype, ndim, batch, shapes, data, layout);
	if (!rc)
		f->pushed++;
	if (!rc && f->tap)
		rc = f->tap(f->tap_ctx, dtype, ndim, batch, shapes, data, layout);
	return rc;
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

void dalic_feed_queue_pop(dalic_feed_queue_t *q)
{
	pthread_mutex_lock(&q->mu);
	if (q->count > 0) {
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
