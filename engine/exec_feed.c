/*
 * External-source inputs of the executor. DALI's Python run loop calls input callbacks in the
 * thread that calls schedule_run, before handing the iteration to the executor; dalic does
 * the same, so a callback never runs on a stage thread and end of data is known at schedule
 * time (nothing is scheduled for it, iterations in flight still come out).
 *
 * Each input counts the batches the caller provided since the last reset — through
 * feed_input or its callback — so a callback runs exactly once per scheduled iteration even
 * when the async stages have not consumed earlier batches yet (DALI's "prophet" look-ahead).
 * The stage that runs an input node then finds this iteration's batch at the front of its
 * queue, since stages consume in iteration order.
 */
#include "engine/exec_internal.h"

#include <stdlib.h>

int dalic_exec_feeds_init(dalic_exec_t *e)
{
	int n = 0;
	for (int i = 0; i < e->num_nodes; i++)
		n += e->feeds[i] != NULL;
	e->inputs = calloc((size_t)n + 1, sizeof *e->inputs);
	if (!e->inputs)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < e->num_stages; k++) {
		exec_stage_t *st = &e->stages[k];
		st->feeds = calloc((size_t)(st->end - st->begin) + 1, sizeof *st->feeds);
		if (!st->feeds)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		for (int i = st->begin; i < st->end; i++)
			if (e->feeds[i])
				st->feeds[st->num_feeds++] = i;
	}
	for (int i = 0; i < e->num_nodes; i++) {
		if (!e->feeds[i])
			continue;
		exec_feed_t *in = &e->inputs[e->num_inputs++];
		in->q = e->feeds[i];
		in->node = i;
		in->fed = dalic_feed_queue_size(in->q); /* fed before the build */
	}
	return DALIC_OK;
}

void dalic_exec_feeds_free(dalic_exec_t *e)
{
	for (int k = 0; k < DALIC_NUM_STAGES; k++)
		free(e->stages[k].feeds);
	free(e->inputs);
}

void dalic_exec_note_fed(dalic_exec_t *e, const dalic_feed_queue_t *q)
{
	for (int i = 0; i < e->num_inputs; i++)
		if (e->inputs[i].q == q)
			e->inputs[i].fed++;
}

static int exec_call_source(dalic_exec_t *e, exec_feed_t *in)
{
	dalic_feed_queue_t *q = in->q;
	dalic_feed_t f = {.q = q};
	int rc = q->fn(q->user, e->epoch_iteration, &f);
	if (rc == DALIC_EEND) {
		pthread_mutex_lock(&q->mu);
		q->ended = true;
		pthread_mutex_unlock(&q->mu);
		return DALIC_EEND;
	}
	in->fed += f.pushed; /* even on failure: what it pushed is queued */
	if (rc && f.refused) /* the queue's own reason (a video it cannot open) */
		return dalic_fail_wrap(DALIC_EOP, "input '%s', iteration %lld", q->name,
				       (long long)e->epoch_iteration);
	if (rc == DALIC_EOP) /* a callback of dalic's own (a script's source) said why */
		return dalic_fail_wrap(DALIC_EOP, "external_source '%s' (iteration %lld)", q->name,
				       (long long)e->epoch_iteration);
	if (rc)
		return dalic_fail(DALIC_EOP,
				  "external_source '%s': source callback failed at iteration %lld "
				  "(status %d: %s)",
				  q->name, (long long)e->epoch_iteration, rc, dalic_strerror(rc));
	if (!f.pushed)
		return dalic_fail(DALIC_EOP,
				  "external_source '%s': source callback returned no batch at "
				  "iteration %lld",
				  q->name, (long long)e->epoch_iteration);
	return DALIC_OK;
}

int dalic_exec_feeds_prepare(dalic_exec_t *e)
{
	for (int i = 0; i < e->num_inputs; i++) {
		exec_feed_t *in = &e->inputs[i];
		if (in->fed > e->epoch_iteration)
			continue;
		if (!in->q->fn)
			return dalic_fail(DALIC_ESTATE,
					  "external_source '%s': no data was fed for iteration %lld "
					  "(feed it with feed_input or give it a source)",
					  in->q->name, (long long)e->epoch_iteration);
		int rc = exec_call_source(e, in);
		if (rc == DALIC_EOP)
			e->epoch_iteration++;
		if (rc)
			return rc;
	}
	e->epoch_iteration++;
	return DALIC_OK;
}

int dalic_exec_feeds_batch(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec)
{
	for (int k = 0; k < st->num_feeds; k++) {
		int node = st->feeds[k];
		const dalic_batch_t *b;
		int rc = dalic_feed_queue_front(e->feeds[node], rec->iteration, false, &b);
		if (rc)
			return rc;
		if (rec->batch >= 0 && b->num_samples != rec->batch)
			return dalic_fail(DALIC_EOP,
					  "Batch size must be uniform across an iteration: input "
					  "'%s' has %d samples, another input has %d (iteration %lld)",
					  e->nodes[node].node->inst, b->num_samples, rec->batch,
					  (long long)rec->iteration);
		rec->batch = b->num_samples;
	}
	return DALIC_OK;
}
