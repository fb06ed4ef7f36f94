/*
 * Polling a script's external source every iteration (see sdsource.h): DALI's
 * _ExternalSourceGroup.get_batch with the iterators of get_callback_from_source (_CycleIter,
 * _CycleGenFunc). One poll serves every member of the group: the first member asked for an
 * iteration polls, the others take the batch kept for them.
 */
#include "frontend/script/dali/sdsource.h"

#include "engine/error.h"
#include "frontend/script/dali/sdruntime.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyiter.h"

#include <stdlib.h>
#include <string.h>

/* next() of the iterator with the cycle mode's rewinds; *end at the end of the epoch. */
static int sdsource_next(pyinterp_t *I, sdsource_t *src, pyval_t **out, bool *end)
{
	*end = false;
	for (int attempt = 0;; attempt++) {
		int rc = dalic_pyiter_next_of(I, &src->at, src->iter, out);
		if (rc >= 0 || !dalic_pyexc_pending_is(I, "StopIteration"))
			return rc;
		dalic_pyexc_clear(I);
		if (src->cycle == SDSRC_CYCLE_NO || attempt) {
			*end = true;
			return DALIC_OK;
		}
		/* _CycleIter / _CycleGenFunc: a fresh iterator, then "raise" ends the epoch */
		DALIC_TRY(dalic_sdsource_reiter(I, src));
		if (src->cycle == SDSRC_CYCLE_RAISE) {
			*end = true;
			return DALIC_OK;
		}
	}
}

/* The callable with DALI's callback_args: sample s's SampleInfo (s >= 0), else the batch
 * index or BatchInfo; *end when it raised StopIteration. */
static int sdsource_call(pyinterp_t *I, sdsource_t *src, int s, pyval_t **out, bool *end)
{
	*end = false;
	pyval_t *arg = NULL;
	if (!src->accepts_arg)
		arg = NULL;
	else if (s >= 0)
		arg = dalic_sdsource_sample_info(I, src->sample + s, s, src->iteration, src->epoch);
	else if (src->batch_info)
		arg = dalic_sdsource_batch_info(I, src->iteration, src->epoch);
	else
		arg = dalic_pyval_int(I->a, src->iteration);
	if (src->accepts_arg && !arg)
		return dalic_pyeval_oom(I, &src->at);
	pyargs_t args = {.pos = arg ? &arg : NULL, .npos = arg ? 1 : 0};
	int rc = dalic_pyeval_call(I, &src->at, src->source, &args, out);
	if (rc < 0 && dalic_pyexc_pending_is(I, "StopIteration")) {
		dalic_pyexc_clear(I);
		*end = true;
		return DALIC_OK;
	}
	return rc;
}

static int sdsource_value(pyinterp_t *I, sdsource_t *src, int s, pyval_t **out, bool *end)
{
	if (src->kind == SDSRC_CALLABLE)
		return sdsource_call(I, src, s, out, end);
	return sdsource_next(I, src, out, end);
}

/* Output o of a polled value (the value itself without num_outputs). */
static int sdsource_output(pyinterp_t *I, sdsource_t *src, pyval_t *v, int o, pyval_t **out)
{
	if (!src->tuple) {
		*out = v;
		return DALIC_OK;
	}
	int n = v->kind == PV_TUPLE ? v->tuple.n : v->kind == PV_LIST ? v->list->n : -1;
	if (n < 0)
		return dalic_pyeval_error(
		    I, &src->at, DALIC_EINVAL,
		    "TypeError: %s: with num_outputs=%d the source must give a "
		    "tuple or list of %d items, not '%s'",
		    src->what, src->num_outputs, src->num_outputs, dalic_pyval_type_name(v));
	if (o >= n)
		return dalic_pyeval_error(
		    I, &src->at, DALIC_EINVAL,
		    "IndexError: tuple index out of range (%s: num_outputs=%d, "
		    "the source gave %d items)",
		    src->what, src->num_outputs, n);
	*out = v->kind == PV_TUPLE ? v->tuple.items[o] : v->list->items[o];
	return DALIC_OK;
}

/* One batch of every output into src->out; *end at the end of the epoch. */
static int sdsource_poll(pyinterp_t *I, sdsource_t *src, bool *end)
{
	*end = false;
	if (!src->out && !(src->out = calloc((size_t)src->num_outputs, sizeof *src->out)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int n = src->batch_size;
	if (src->batch) {
		pyval_t *v;
		DALIC_TRY(sdsource_value(I, src, -1, &v, end));
		for (int o = 0; !*end && o < src->num_outputs; o++) {
			pyval_t *x;
			DALIC_TRY(sdsource_output(I, src, v, o, &x));
			DALIC_TRY(dalic_sdsource_put_batch(I, src, x, &src->out[o]));
		}
	} else {
		/* a sample at a time; StopIteration within the batch drops it (DALI) */
		for (int s = 0; !*end && s < n; s++) {
			pyval_t *v;
			DALIC_TRY(sdsource_value(I, src, s, &v, end));
			for (int o = 0; !*end && o < src->num_outputs; o++) {
				pyval_t *x;
				DALIC_TRY(sdsource_output(I, src, v, o, &x));
				DALIC_TRY(dalic_sdsource_put_sample(I, src, x, s, n, &src->out[o]));
			}
		}
	}
	if (*end) { /* _ExternalSourceGroup.reset_indices */
		src->iteration = src->sample = 0;
		return DALIC_OK;
	}
	src->iteration++;
	src->sample += n;
	return DALIC_OK;
}

/* After an end, the next poll belongs to the next epoch (the pipeline was reset). */
static void sdsource_new_epoch(sdsource_t *src)
{
	src->ended_at = -1;
	src->produced = 0;
	src->epoch++;
	for (int i = 0; i < src->num_outputs; i++) {
		src->members[i].taken = 0;
		src->members[i].seen_end = false;
	}
}

/* An error of the source, said as the external source's, with the way around it. */
static int sdsource_failed(sdsource_t *src, int rc)
{
	if (rc == DALIC_ENOMEM)
		return rc;
	dalic_fail_wrap(DALIC_EOP,
	                "its Python source (line %d) failed (dalic runs sources written in the "
	                "Python and numpy subset of pipeline scripts, docs/scripts.md; otherwise "
	                "give the data with --feed %s=PATH)",
	                src->at.line, src->members[0].name);
	return DALIC_EOP;
}

static int sdsource_serve(pyinterp_t *I, sdsrc_member_t *m, dalic_feed_t *feed)
{
	sdsource_t *src = m->src;
	if (src->restart) {
		/* a new pipeline of the same definition: DALI would have made the iterator again */
		src->restart = false;
		sdsource_new_epoch(src);
		src->epoch = src->iteration = src->sample = 0;
		if (src->kind != SDSRC_CALLABLE) {
			int rc = dalic_sdsource_reiter(I, src);
			if (rc)
				return sdsource_failed(src, rc);
		}
	}
	if (src->ended_at >= 0) {
		if (!m->seen_end && m->taken == src->ended_at) {
			m->seen_end = true;
			return DALIC_EEND;
		}
		sdsource_new_epoch(src);
	}
	if (m->taken == src->produced) {
		bool end;
		int rc = sdsource_poll(I, src, &end);
		if (rc)
			return sdsource_failed(src, rc);
		if (end) {
			src->ended_at = src->produced;
			m->seen_end = true;
			return DALIC_EEND;
		}
		src->produced++;
	} else if (m->taken != src->produced - 1) {
		return dalic_fail(
		    DALIC_ESTATE, "%s: output %d asked for batch %lld, the source is at %lld",
		    src->what, m->index, (long long)m->taken, (long long)src->produced);
	}
	const sdsrc_batch_t *b = &src->out[m->index];
	DALIC_TRY(dalic_feed_batch(feed, b->dtype, b->ndim, b->n, b->shapes, b->data, NULL));
	m->taken++;
	return DALIC_OK;
}

int dalic_sdsource_run(void *user, int64_t iteration, dalic_feed_t *feed)
{
	(void)iteration; /* the group counts its own batches (several queues poll it) */
	sdsrc_member_t *m = user;
	sdruntime_t *rt = m->src->rt;
	sdcall_t c = {.catchable = true};
	dalic_sdruntime_begin(rt, &c);
	int rc = sdsource_serve(rt->I, m, feed);
	dalic_sdruntime_end(rt, &c);
	return rc;
}
