/*
 * test-gpu: normalize's kernel on the GPU against the CPU operator (the cases of
 * test_cuda_normalize, tests/testlib/cuda_normalize.h), every stage launched on one stream.
 * Byte for byte where no reciprocal square root is involved; where the deviation is
 * computed or epsilon is given, the CPU's SSE estimate and the device's rsqrtf differ, and
 * outputs compare within 1e-5 relative (float) or 1 (integers), as docs/gpu.md states.
 */
#include "tests/gpu/gpu_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "tests/testlib/cuda_normalize.h"

#include <cuda_runtime_api.h>

static bool gpu_norm_ok(cudaError_t rc, const char *what)
{
	if (rc == cudaSuccess)
		return true;
	fprintf(stderr, "test-gpu: normalize: %s: %s\n", what, cudaGetErrorString(rc));
	return false;
}

/* The CPU operator on the case's host data; the pipeline in *pp. */
static const dalic_batch_t *gpu_norm_cpu(const tl_cu_norm_case_t *c, const gpu_check_batch_t *in,
                                         const gpu_check_batch_t *tm, const gpu_check_batch_t *ts,
                                         dalic_pipeline_t **pp)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = c->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_op_t *src, *op;
	bool ok = dalic_pipeline_create(&params, pp) == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, "external_source", "cpu", &src) == DALIC_OK &&
	          dalic_op_set_name(src, "in") == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, "normalize", "cpu", &op) == DALIC_OK &&
	          dalic_op_add_input(op, "in", NULL) == DALIC_OK &&
	          tl_cu_norm_set_args(op, c) == DALIC_OK;
	const gpu_check_batch_t *feeds[3] = {in, tm, ts};
	const char *names[3] = {"in", "mean", "stddev"};
	for (int k = 1; ok && k < 3; k++) {
		if (!feeds[k])
			continue;
		dalic_op_t *a;
		ok = dalic_pipeline_add_op(*pp, "external_source", "cpu", &a) == DALIC_OK &&
		     dalic_op_set_name(a, names[k]) == DALIC_OK &&
		     dalic_op_set_arg_input(op, names[k], names[k]) == DALIC_OK;
	}
	ok = ok && dalic_pipeline_add_output(*pp, dalic_op_output(op, 0), NULL) == DALIC_OK;
	for (int k = 0; ok && k < 3; k++) {
		const gpu_check_batch_t *b = feeds[k];
		if (!b)
			continue;
		size_t total = 0;
		for (int i = 0; i < b->n; i++)
			total += b->bytes[i];
		uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
		int64_t shapes[GPU_CHECK_MAX_SAMPLES * DALIC_MAX_NDIM];
		for (int i = 0; i < b->n; i++) {
			memcpy(q, b->host[i], b->bytes[i]);
			q += b->bytes[i];
			for (int d = 0; d < b->ndim; d++)
				shapes[i * b->ndim + d] = b->shape[i][d];
		}
		ok = dalic_pipeline_feed_input(*pp, names[k], b->dtype, b->ndim, b->n, shapes, all,
		                               k ? NULL : c->layout) == DALIC_OK;
		free(all);
	}
	ok = ok && dalic_pipeline_run(*pp) == DALIC_OK;
	if (!ok) {
		fprintf(stderr, "test-gpu: %s: %s\n", c->what, dalic_last_error());
		return NULL;
	}
	return dalic_pipeline_output(*pp, 0);
}

/* Outputs within the tolerance of docs/gpu.md: floats within 1e-5 of max(|CPU|, |CPU - shift|,
 * 1), integers within 1. Mismatching samples. */
static int gpu_norm_compare_near(const tl_cu_norm_case_t *c, const dalic_batch_t *cpu,
                                 gpu_check_batch_t *out)
{
	int bad = 0;
	if (!gpu_norm_ok(cudaDeviceSynchronize(), "synchronize"))
		return out->n ? out->n : 1;
	for (int i = 0; i < out->n; i++) {
		if (!gpu_norm_ok(cudaMemcpy(out->host[i], out->dev[i], out->bytes[i],
		                            cudaMemcpyDeviceToHost),
		                 "copy back") ||
		    dalic_batch_sample_bytes(cpu, i) != out->bytes[i]) {
			bad++;
			continue;
		}
		const void *want = dalic_batch_data(cpu, i);
		size_t n = out->bytes[i] / dalic_dtype_size(c->out);
		for (size_t k = 0; k < n; k++) {
			double w, g, tol = 1;
			switch (c->out) {
#define GPU_NORM_AT(ID, CT)                                                                        \
	case DALIC_##ID:                                                                           \
		w = ((const CT *)want)[k];                                                         \
		g = ((const CT *)out->host[i])[k];                                                 \
		break;
				GPU_NORM_AT(INT8, int8_t)
				GPU_NORM_AT(UINT8, uint8_t)
				GPU_NORM_AT(INT16, int16_t)
				GPU_NORM_AT(UINT16, uint16_t)
				GPU_NORM_AT(INT32, int32_t)
				GPU_NORM_AT(UINT32, uint32_t)
#undef GPU_NORM_AT
			default:
				w = ((const float *)want)[k];
				g = ((const float *)out->host[i])[k];
				tol = 1e-5 * fmax(fmax(fabs(w), fabs(w - c->shift)), 1.0);
				break;
			}
			if (!(fabs(w - g) <= tol)) {
				fprintf(stderr,
				        "test-gpu: %s: sample %d differs first at element %zu: CPU "
				        "%.9g, "
				        "GPU %.9g\n",
				        c->what, i, k, w, g);
				bad++;
				break;
			}
		}
	}
	printf("%-40s %s\n", c->what, bad ? "DIFFERS" : "within the tolerance of the CPU");
	return bad;
}

static int gpu_norm_case(const tl_cu_norm_case_t *c)
{
	gpu_check_batch_t in, out, tm, ts;
	memset(&in, 0, sizeof in);
	memset(&out, 0, sizeof out);
	memset(&tm, 0, sizeof tm);
	memset(&ts, 0, sizeof ts);
	bool has_m = c->mean == TL_CU_NORM_TENSOR, has_s = c->stddev == TL_CU_NORM_TENSOR;
	dalic_pipeline_t *p = NULL;
	float *scratch = NULL;
	dalic_norm_node_t *nodes = NULL, *dev_nodes = NULL;
	int bad = 1;
	int64_t ps[GPU_CHECK_MAX_SAMPLES * DALIC_MAX_NDIM];
	tl_cu_norm_param_shapes(c, ps);
	if (!gpu_check_batch_random(&in, c->in, c->ndim, c->n, c->shapes, TL_CU_NORM_IN_RANGE,
	                            tl_cu_norm_seed(c, 0)) ||
	    (has_m && !gpu_check_batch_random(&tm, DALIC_FLOAT, c->ndim, c->n, ps,
	                                      TL_CU_NORM_MEAN_RANGE, tl_cu_norm_seed(c, 1))) ||
	    (has_s && !gpu_check_batch_random(&ts, DALIC_FLOAT, c->ndim, c->n, ps,
	                                      TL_CU_NORM_SD_RANGE, tl_cu_norm_seed(c, 2))))
		goto done;
	for (int i = 0; has_s && i < c->n; i++) {
		tl_cu_norm_fix_stddev((float *)ts.host[i], ts.bytes[i] / sizeof(float));
		if (!gpu_norm_ok(
		        cudaMemcpy(ts.dev[i], ts.host[i], ts.bytes[i], cudaMemcpyHostToDevice),
		        "stddev upload"))
			goto done;
	}
	const dalic_batch_t *cpu = gpu_norm_cpu(c, &in, has_m ? &tm : NULL, has_s ? &ts : NULL, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_normalize_args_t a;
	tl_cu_norm_args(c, &a);
	dalic_cu_normalize_sample_t samples[GPU_CHECK_MAX_SAMPLES];
	const void *ins[GPU_CHECK_MAX_SAMPLES];
	void *outs[GPU_CHECK_MAX_SAMPLES];
	const float *means[GPU_CHECK_MAX_SAMPLES], *sds[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < c->n; i++) {
		ins[i] = in.dev[i];
		outs[i] = out.dev[i];
		means[i] = has_m ? (const float *)tm.dev[i] : NULL;
		sds[i] = has_s ? (const float *)ts.dev[i] : NULL;
	}
	int64_t nfloats, nnodes;
	dalic_cu_normalize_prepare(&a, samples, c->n, c->shapes, ins, outs, means, sds, NULL, NULL,
	                           NULL, &nfloats, &nnodes);
	nodes = (dalic_norm_node_t *)calloc((size_t)nnodes + 1, sizeof *nodes);
	if (!nodes ||
	    !gpu_norm_ok(cudaMalloc((void **)&scratch, sizeof(float) * (size_t)(nfloats + 1)),
	                 "scratch") ||
	    !gpu_norm_ok(cudaMalloc((void **)&dev_nodes, sizeof *nodes * (size_t)(nnodes + 1)),
	                 "chunk lists"))
		goto done;
	dalic_cu_normalize_prepare(&a, samples, c->n, c->shapes, ins, outs, means, sds, scratch,
	                           nodes, dev_nodes, &nfloats, &nnodes);
	if (!gpu_norm_ok(cudaMemcpy(dev_nodes, nodes, sizeof *nodes * (size_t)nnodes,
	                            cudaMemcpyHostToDevice),
	                 "chunk upload"))
		goto done;
	dalic_cu_normalize_params_t st[8];
	int ns = dalic_cu_normalize_stages(&a, samples, c->n, st), rc = 0;
	for (int k = 0; k < ns && !rc; k++) {
		dalic_cu_normalize_grid(&st[k], NULL, 0);
		dalic_cu_block_t *blocks =
		    (dalic_cu_block_t *)calloc((size_t)st[k].nblocks + 1, sizeof *blocks);
		dalic_cu_normalize_grid(&st[k], blocks, st[k].nblocks);
		rc = dalic_cu_normalize_launch(&st[k], 0);
		/* the launcher's uploads are stream-ordered: the blocks may go once queued */
		rc = rc || !gpu_norm_ok(cudaStreamSynchronize(0), "stage");
		free(blocks);
	}
	bad = rc                           ? c->n
	      : tl_cu_norm_exact_on_gpu(c) ? gpu_check_compare(c->what, cpu, &out)
	                                   : gpu_norm_compare_near(c, cpu, &out);
done:
	free(nodes);
	if (scratch)
		cudaFree(scratch);
	if (dev_nodes)
		cudaFree(dev_nodes);
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	gpu_check_batch_free(&tm);
	gpu_check_batch_free(&ts);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_normalize(void)
{
	int bad = 0;
	for (int k = 0; k < TL_CU_NORM_NCASES; k++)
		bad += gpu_norm_case(&tl_cu_norm_cases[k]);
	return bad;
}
#else
int gpu_check_normalize(void)
{
	return 0;
}
#endif
