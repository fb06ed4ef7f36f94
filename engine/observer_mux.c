/*
 * The observer mux (observer_mux.h): each fan-out hook calls the members' hook in order.
 */
#include "engine/observer_mux.h"

#include "engine/error.h"

#include <stddef.h>
#include <string.h>

#define MUX_EACH(m, hook, ...)                                                                     \
	do {                                                                                       \
		const dalic_observer_mux_t *mux_ = (m);                                            \
		for (int i_ = 0; i_ < mux_->n; i_++)                                               \
			if (mux_->members[i_].hook)                                                \
				mux_->members[i_].hook(mux_->members[i_].user, __VA_ARGS__);       \
	} while (0)

static void mux_node_gpu(void *u, const dalic_node_t *node, int64_t iteration, int64_t gpu_ns)
{
	MUX_EACH(u, node_gpu, node, iteration, gpu_ns);
}

static void mux_node_run(void *u, const dalic_node_t *node, int64_t iteration, int batch,
			 int64_t t0, int64_t t1, int64_t cpu_ns)
{
	MUX_EACH(u, node_run, node, iteration, batch, t0, t1, cpu_ns);
}

static void mux_work_chunk(void *u, const dalic_node_t *node, int64_t iteration, int thread,
			   int first, int count, int64_t t0, int64_t t1, int64_t cpu_ns)
{
	MUX_EACH(u, work_chunk, node, iteration, thread, first, count, t0, t1, cpu_ns);
}

static void mux_stage_run(void *u, int stage, int64_t iteration, int64_t t0, int64_t t1)
{
	MUX_EACH(u, stage_run, stage, iteration, t0, t1);
}

static void mux_iteration_ready(void *u, int64_t iteration, int64_t t_scheduled, int64_t t_ready)
{
	MUX_EACH(u, iteration_ready, iteration, t_scheduled, t_ready);
}

static void mux_output_memory(void *u, const dalic_node_t *node, int output,
			      const dalic_batch_t *batch, int64_t iteration)
{
	MUX_EACH(u, output_memory, node, output, batch, iteration);
}

static void mux_buffer_growth(void *u, const dalic_node_t *node, int output, int64_t iteration,
			      int sample, const char *source, size_t old_capacity,
			      size_t new_capacity)
{
	MUX_EACH(u, buffer_growth, node, output, iteration, sample, source, old_capacity,
		 new_capacity);
}

static void mux_queue_level(void *u, int queue, int occupancy, int depth, int64_t t)
{
	MUX_EACH(u, queue_level, queue, occupancy, depth, t);
}

static void mux_wait(void *u, int kind, int64_t t0, int64_t t1)
{
	MUX_EACH(u, wait, kind, t0, t1);
}

static void mux_warning(void *u, const dalic_node_t *node, const dalic_warning_t *w)
{
	MUX_EACH(u, warning, node, w);
}

static void mux_node_begin(void *u, const dalic_node_t *node, int64_t iteration)
{
	MUX_EACH(u, node_begin, node, iteration);
}

static void mux_node_end(void *u, const dalic_node_t *node, int64_t iteration, int status)
{
	MUX_EACH(u, node_end, node, iteration, status);
}

static void mux_stage_begin(void *u, int stage, int64_t iteration)
{
	MUX_EACH(u, stage_begin, stage, iteration);
}

static void mux_stage_end(void *u, int stage, int64_t iteration, int status)
{
	MUX_EACH(u, stage_end, stage, iteration, status);
}

int dalic_observer_mux_add(dalic_observer_mux_t *m, const dalic_observer_t *obs)
{
	if (m->n >= DALIC_OBSERVER_MUX_MAX)
		return dalic_fail(DALIC_ESTATE, "at most %d observers (tracers) per pipeline",
				  DALIC_OBSERVER_MUX_MAX);
	m->members[m->n++] = *obs;
	return DALIC_OK;
}

int dalic_observer_mux_remove(dalic_observer_mux_t *m, const void *user)
{
	int kept = 0, removed = 0;
	for (int i = 0; i < m->n; i++) {
		if (m->members[i].user == user)
			removed++;
		else
			m->members[kept++] = m->members[i];
	}
	m->n = kept;
	return removed;
}

/* Does any member have the hook at byte offset `off` of dalic_observer_t? */
static bool mux_any(const dalic_observer_mux_t *m, size_t off)
{
	for (int i = 0; i < m->n; i++) {
		void *hook;
		memcpy(&hook, (const char *)&m->members[i] + off, sizeof hook);
		if (hook)
			return true;
	}
	return false;
}

#define MUX_HOOK(m, field, fn) (mux_any((m), offsetof(dalic_observer_t, field)) ? (fn) : NULL)

const dalic_observer_t *dalic_observer_mux_view(const dalic_observer_mux_t *m,
						 dalic_observer_t *out)
{
	if (m->n == 0)
		return NULL;
	if (m->n == 1)
		return &m->members[0];
	*out = (dalic_observer_t){
		.user = (void *)m,
		.node_run = MUX_HOOK(m, node_run, mux_node_run),
		.node_gpu = MUX_HOOK(m, node_gpu, mux_node_gpu),
		.work_chunk = MUX_HOOK(m, work_chunk, mux_work_chunk),
		.stage_run = MUX_HOOK(m, stage_run, mux_stage_run),
		.iteration_ready = MUX_HOOK(m, iteration_ready, mux_iteration_ready),
		.output_memory = MUX_HOOK(m, output_memory, mux_output_memory),
		.buffer_growth = MUX_HOOK(m, buffer_growth, mux_buffer_growth),
		.queue_level = MUX_HOOK(m, queue_level, mux_queue_level),
		.wait = MUX_HOOK(m, wait, mux_wait),
		.warning = MUX_HOOK(m, warning, mux_warning),
		.node_begin = MUX_HOOK(m, node_begin, mux_node_begin),
		.node_end = MUX_HOOK(m, node_end, mux_node_end),
		.stage_begin = MUX_HOOK(m, stage_begin, mux_stage_begin),
		.stage_end = MUX_HOOK(m, stage_end, mux_stage_end),
	};
	return out;
}
