/*
 * normalize on the GPU (kernels/cuda/normalize.cuh): the arguments as the CPU operator's setup
 * resolved them (dalic_normalize_op_args: axes, given or computed statistics, batch), turned
 * into per-sample plans, chunk lists and launches by dalic_cu_normalize_prepare and
 * dalic_cu_normalize_stages, as the grid-runner suite does. Each stage is one launch on the
 * stage's stream, in order. The node's device scratch holds the chunk lists, copies of the
 * per-sample mean / stddev tensors (argument inputs live in host memory, pageable or not) and
 * the statistics.
 */
#include "kernels/common/normalize_op.h"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

#include <string.h>

DALIC_GPU_KERNEL(normalize);

/* The most launches dalic_cu_normalize_stages lists. */
#define DALIC_GPU_NORMALIZE_STAGES 8

/* Host arrays of one run, in scratch slot 0: per sample its plan, shape, data pointers and
 * the device addresses of its parameter tensors. */
typedef struct dalic_gpu_normalize_host {
	dalic_cu_normalize_sample_t *s;
	int64_t *shapes;
	const void **in;
	void **out;
	const float **tmean, **tsd;
} dalic_gpu_normalize_host_t;

static int dalic_gpu_normalize_host(dalic_gpu_run_t *r, int n, int nd,
                                    dalic_gpu_normalize_host_t *h)
{
	size_t un = (size_t)(n ? n : 1);
	size_t bytes = sizeof *h->s * un + sizeof(int64_t) * un * (size_t)(nd ? nd : 1) +
	               4 * sizeof(void *) * un;
	char *p = dalic_gpu_scratch(r, 0, bytes);
	if (!p)
		return DALIC_ENOMEM;
	memset(p, 0, bytes);
	h->s = (dalic_cu_normalize_sample_t *)p;
	p += sizeof *h->s * un;
	h->shapes = (int64_t *)p;
	p += sizeof(int64_t) * un * (size_t)(nd ? nd : 1);
	h->in = (const void **)p;
	h->out = (void **)(p + sizeof(void *) * un);
	h->tmean = (const float **)(p + 2 * sizeof(void *) * un);
	h->tsd = (const float **)(p + 3 * sizeof(void *) * un);
	return DALIC_OK;
}

/* Elements of the tensor argument `name` over the batch (0 when not a tensor). */
static int64_t dalic_gpu_normalize_tensor_elems(const dalic_ws_t *ws, const char *name, bool on)
{
	const dalic_batch_t *t = on ? dalic_arg_input(ws, name) : NULL;
	int64_t e = 0;
	for (int i = 0; t && i < ws->batch_size; i++)
		e += (int64_t)dalic_batch_sample_elems(t, i);
	return e;
}

/* Copies the tensor argument `name` into device floats at *at, sample by sample, recording
 * each sample's device address in ptrs. */
static int dalic_gpu_normalize_upload_tensor(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                             const dalic_ws_t *ws, const char *name, float **at,
                                             const float **ptrs)
{
	const dalic_batch_t *t = dalic_arg_input(ws, name);
	for (int i = 0; i < ws->batch_size; i++) {
		size_t e = dalic_batch_sample_elems(t, i);
		ptrs[i] = *at;
		if (e && r->dev->copy(*at, t->ptrs[i], sizeof(float) * e))
			return dalic_op_fail(ctx, ws, i,
			                     "uploading `%s` failed (the CUDA error is on stderr)",
			                     name);
		*at += e;
	}
	return DALIC_OK;
}

static int dalic_gpu_normalize_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size, nd = in->ndim;
	dalic_cu_normalize_args_t a;
	dalic_normalize_op_args(ctx, ws, &a);
	dalic_gpu_normalize_host_t h;
	int rc = dalic_gpu_normalize_host(r, n, nd, &h);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		memcpy(h.shapes + (size_t)i * (size_t)nd, dalic_batch_shape(in, i),
		       sizeof(int64_t) * (size_t)nd);
		h.in[i] = in->ptrs[i];
		h.out[i] = out->ptrs[i];
	}
	/* sizes first: the statistics' floats and the chunk lists */
	int64_t nfloats, nnodes;
	dalic_cu_normalize_prepare(&a, h.s, n, h.shapes, h.in, h.out, h.tmean, h.tsd, NULL, NULL,
	                           NULL, &nfloats, &nnodes);
	int64_t em = dalic_gpu_normalize_tensor_elems(ws, "mean", a.tensor_mean),
	        es = dalic_gpu_normalize_tensor_elems(ws, "stddev", a.tensor_stddev);
	size_t node_bytes = sizeof(dalic_norm_node_t) * (size_t)nnodes;
	size_t bytes = node_bytes + sizeof(float) * (size_t)(em + es + nfloats);
	char *dev = dalic_gpu_device_scratch(r, bytes);
	dalic_norm_node_t *nodes = dalic_gpu_scratch(r, 1, node_bytes);
	if (!dev || !nodes)
		return DALIC_ENOMEM;
	float *at = (float *)(dev + node_bytes);
	if (a.tensor_mean &&
	    (rc = dalic_gpu_normalize_upload_tensor(r, ctx, ws, "mean", &at, h.tmean)))
		return rc;
	if (a.tensor_stddev &&
	    (rc = dalic_gpu_normalize_upload_tensor(r, ctx, ws, "stddev", &at, h.tsd)))
		return rc;
	int64_t nf2, nn2;
	dalic_cu_normalize_prepare(&a, h.s, n, h.shapes, h.in, h.out, h.tmean, h.tsd, at, nodes,
	                           (const dalic_norm_node_t *)dev, &nf2, &nn2);
	if (node_bytes && r->dev->copy(dev, nodes, node_bytes))
		return dalic_fail(DALIC_EDEVICE,
		                  "operator '%s': uploading the reduction chunks failed (the CUDA "
		                  "error is on stderr)",
		                  ctx->inst);
	dalic_cu_normalize_params_t st[DALIC_GPU_NORMALIZE_STAGES];
	int ns = dalic_cu_normalize_stages(&a, h.s, n, st);
	/* every stage's block map in one host array: each launch reads its own */
	int64_t total = 0;
	for (int k = 0; k < ns; k++) {
		dalic_cu_normalize_grid(&st[k], NULL, 0);
		total += st[k].nblocks;
	}
	dalic_cu_block_t *blocks = dalic_gpu_scratch(r, 2, sizeof *blocks * (size_t)total);
	if (!blocks)
		return DALIC_ENOMEM;
	for (int k = 0; !rc && k < ns; k++) {
		dalic_cu_launch_t l = dalic_cu_normalize_grid(&st[k], blocks, st[k].nblocks);
		blocks += st[k].nblocks;
		rc = dalic_gpu_launch(r, &dalic_gpu_normalize_kernel, &st[k], &l);
	}
	return rc;
}

const dalic_gpu_op_t dalic_gpu_op_normalize = {"Normalize", dalic_gpu_normalize_run};
