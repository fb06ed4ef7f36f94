/*
 * The executor's device path (docs/gpu.md, "The device backend"). On a backend that is not
 * emulated, every mixed and gpu stage with a node on the device gets its own stream, created
 * with the executor, so stages of different iterations overlap on the GPU as DALI's do. A
 * node with a dispatch entry (kernels/common/gpu_dispatch.c) records an event, queues its
 * kernels, records a second event and waits for it: the elapsed time between the two is the
 * operator's GPU time, and the outputs are complete when the node returns, so the CPU path
 * of the next operator (or the next stage, on its own stream) may read them without more
 * synchronisation. Waiting per operator costs the overlap of an operator's launch overhead
 * with the previous kernel; deferring the wait to the stage's end is left for when it is
 * measured on hardware.
 */
#include "engine/exec_internal.h"

#include "engine/device.h"
#include "kernels/common/gpu_op.h"

#include <stdlib.h>

const dalic_gpu_op_t *dalic_exec_gpu_op(const dalic_node_t *n)
{
	if (n->device == DALIC_DEV_CPU || dalic_device_backend()->emulated)
		return NULL;
	return dalic_gpu_op_find(n->schema->name);
}

bool dalic_exec_node_emulated(const dalic_node_t *n)
{
	return n->device != DALIC_DEV_CPU && !dalic_exec_gpu_op(n);
}

static int exec_gpu_device(const dalic_device_backend_t *dev, int device)
{
	if (device < 0 || !dev->set_device || !dev->set_device(device))
		return DALIC_OK;
	return dalic_fail(DALIC_EDEVICE,
	                  "cannot use device %d on the %s backend (the CUDA error is "
	                  "on stderr)",
	                  device, dev->name);
}

int dalic_exec_streams_init(dalic_exec_t *e)
{
	const dalic_device_backend_t *dev = dalic_device_backend();
	if (dev->emulated || !dev->stream_create)
		return DALIC_OK;
	for (int k = 0; k < e->num_stages; k++) {
		exec_stage_t *st = &e->stages[k];
		bool on_device = false;
		for (int i = st->begin; i < st->end; i++)
			on_device |= e->nodes[i].gpu != NULL;
		if (st->stage == DALIC_STAGE_CPU || !on_device)
			continue;
		int rc = exec_gpu_device(dev, e->g->params.device_id);
		if (rc)
			return rc;
		if (dev->stream_create(&st->stream))
			return dalic_fail(DALIC_EDEVICE,
			                  "cannot create a stream for the %s stage (the "
			                  "CUDA error is on stderr)",
			                  dalic_graph_stage_name(st->stage));
	}
	return DALIC_OK;
}

void dalic_exec_streams_free(dalic_exec_t *e)
{
	const dalic_device_backend_t *dev = dalic_device_backend();
	for (int k = 0; k < e->num_stages; k++) {
		if (e->stages[k].stream)
			dev->stream_destroy(e->stages[k].stream);
		e->stages[k].stream = NULL;
	}
}

static int exec_gpu_events(dalic_exec_node_t *x, const dalic_device_backend_t *dev)
{
	for (int k = 0; k < 2; k++)
		if (!x->gpu_events[k] && dev->event_create(&x->gpu_events[k]))
			return dalic_fail(DALIC_EDEVICE,
			                  "operator '%s': cannot create an event (the "
			                  "CUDA error is on stderr)",
			                  x->node->inst);
	if (!x->gpu_scratch && !(x->gpu_scratch = calloc(1, sizeof *x->gpu_scratch)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	return DALIC_OK;
}

int dalic_exec_node_run_gpu(dalic_exec_node_t *x, const dalic_exec_run_t *r, const dalic_ws_t *ws,
                            int64_t *gpu_ns)
{
	const dalic_device_backend_t *dev = dalic_device_backend();
	*gpu_ns = -1;
	int rc = exec_gpu_device(dev, r->device);
	if (!rc)
		rc = exec_gpu_events(x, dev);
	if (rc)
		return rc;
	if (dev->event_record(x->gpu_events[0], r->stream))
		return dalic_fail(DALIC_EDEVICE,
		                  "operator '%s': cannot record an event (the CUDA "
		                  "error is on stderr)",
		                  x->node->inst);
	dalic_gpu_run_t g = {dev, r->stream, x->gpu_scratch, 0};
	rc = x->gpu->run(&g, x->ctx, ws);
	/* recorded and waited for after a failure too: no kernel may still write the outputs */
	int64_t ns = 0;
	bool timed = !dev->event_record(x->gpu_events[1], r->stream) &&
	             !dev->event_elapsed_ns(x->gpu_events[0], x->gpu_events[1], &ns);
	if (rc)
		return rc;
	if (!timed)
		return dalic_fail(DALIC_EDEVICE,
		                  "operator '%s': its kernels failed (the CUDA error "
		                  "is on stderr)",
		                  x->node->inst);
	*gpu_ns = ns;
	return x->gpu->finish ? x->gpu->finish(&g, x->ctx, ws) : DALIC_OK;
}

void dalic_exec_node_gpu_free(dalic_exec_node_t *x)
{
	const dalic_device_backend_t *dev = dalic_device_backend();
	for (int k = 0; k < 2; k++)
		if (x->gpu_events[k])
			dev->event_destroy(x->gpu_events[k]);
	if (x->gpu_scratch)
		dalic_gpu_scratch_free(x->gpu_scratch);
	free(x->gpu_scratch);
}
