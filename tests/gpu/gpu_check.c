/*
 * make test-gpu's driver: finds a GPU, runs every kernel's check (gpu_check.h) and exits
 * non-zero when any output differs from the CPU operator's. Built without CUDA, or run where
 * cudaGetDeviceCount finds no device, it prints why nothing ran and exits 0, so CI machines
 * without a GPU can run the target.
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>

static bool gpu_check_ok(cudaError_t rc, const char *what, int line)
{
	if (rc == cudaSuccess)
		return true;
	fprintf(stderr, "test-gpu: %s:%d: %s failed: %s\n", __FILE__, line, what,
	        cudaGetErrorString(rc));
	return false;
}
#define GPU_CHECK_OK(call) gpu_check_ok((call), #call, __LINE__)

static bool gpu_check_shapes(gpu_check_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                             const int64_t *shapes)
{
	memset(b, 0, sizeof *b);
	if (n > GPU_CHECK_MAX_SAMPLES)
		return false;
	b->n = n;
	b->ndim = ndim;
	b->dtype = dtype;
	for (int i = 0; i < n; i++) {
		size_t e = dalic_dtype_size(dtype);
		for (int d = 0; d < ndim; d++)
			e *= (size_t)(b->shape[i][d] = shapes[i * ndim + d]);
		b->bytes[i] = e;
		b->host[i] = calloc(1, e ? e : 1);
		if (!b->host[i] || !GPU_CHECK_OK(cudaMalloc(&b->dev[i], e ? e : 1)))
			return false;
	}
	return true;
}

bool gpu_check_batch_random(gpu_check_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                            const int64_t *shapes, double lo_hi, uint32_t seed)
{
	if (!gpu_check_shapes(b, dtype, ndim, n, shapes))
		return false;
	uint32_t s = seed;
	for (int i = 0; i < n; i++) {
		tl_cu_random_fill(b->host[i], dtype, b->bytes[i] / dalic_dtype_size(dtype), lo_hi,
		                  &s);
		if (!GPU_CHECK_OK(
		        cudaMemcpy(b->dev[i], b->host[i], b->bytes[i], cudaMemcpyHostToDevice)))
			return false;
	}
	return true;
}

bool gpu_check_batch_like(gpu_check_batch_t *b, const dalic_batch_t *cpu, uint8_t canary)
{
	int n = dalic_batch_num_samples(cpu), nd = dalic_batch_ndim(cpu);
	int64_t shapes[GPU_CHECK_MAX_SAMPLES * DALIC_MAX_NDIM] = {0};
	for (int i = 0; i < n && i < GPU_CHECK_MAX_SAMPLES; i++)
		for (int d = 0; d < nd; d++)
			shapes[i * nd + d] = dalic_batch_shape(cpu, i)[d];
	if (!gpu_check_shapes(b, dalic_batch_dtype(cpu), nd, n, shapes))
		return false;
	for (int i = 0; i < n; i++)
		if (!GPU_CHECK_OK(cudaMemset(b->dev[i], canary, b->bytes[i])))
			return false;
	return true;
}

void gpu_check_batch_free(gpu_check_batch_t *b)
{
	for (int i = 0; i < b->n; i++) {
		free(b->host[i]);
		if (b->dev[i])
			cudaFree(b->dev[i]);
	}
	memset(b, 0, sizeof *b);
}

int gpu_check_compare(const char *what, const dalic_batch_t *cpu, gpu_check_batch_t *out)
{
	int bad = 0;
	if (!GPU_CHECK_OK(cudaDeviceSynchronize()))
		return out->n ? out->n : 1;
	for (int i = 0; i < out->n; i++) {
		const uint8_t *c = dalic_batch_data(cpu, i);
		if (!GPU_CHECK_OK(cudaMemcpy(out->host[i], out->dev[i], out->bytes[i],
		                             cudaMemcpyDeviceToHost)) ||
		    dalic_batch_sample_bytes(cpu, i) != out->bytes[i]) {
			bad++;
			continue;
		}
		for (size_t k = 0; k < out->bytes[i]; k++) {
			if (c[k] != out->host[i][k]) {
				fprintf(stderr,
				        "test-gpu: %s: sample %d differs first at byte %zu: "
				        "CPU %02x, GPU %02x\n",
				        what, i, k, c[k], out->host[i][k]);
				bad++;
				break;
			}
		}
	}
	printf("%-40s %s\n", what, bad ? "DIFFERS" : "same as the CPU");
	return bad;
}
#endif

static bool gpu_check_status(int rc, const char *what)
{
	if (rc == DALIC_OK)
		return true;
	fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
	return false;
}

const dalic_batch_t *gpu_check_cpu(const gpu_check_op_t *o, const gpu_check_batch_t *in,
                                   dalic_pipeline_t **pp)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = in->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = false;
	params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p = NULL;
	*pp = NULL;
	if (!gpu_check_status(dalic_pipeline_create(&params, &p), "create"))
		return NULL;
	*pp = p;
	dalic_op_t *src, *op;
	bool ok =
	    gpu_check_status(dalic_pipeline_add_op(p, "external_source", "cpu", &src), o->op) &&
	    gpu_check_status(dalic_op_set_name(src, "in"), o->op) &&
	    gpu_check_status(dalic_pipeline_add_op(p, o->op, "cpu", &op), o->op) &&
	    gpu_check_status(dalic_op_add_input(op, "in", NULL), o->op);
	for (int k = 0; ok && o->arg_names && o->arg_names[k]; k++) {
		dalic_op_t *a;
		ok = gpu_check_status(dalic_pipeline_add_op(p, "external_source", "cpu", &a),
		                      o->op) &&
		     gpu_check_status(dalic_op_set_name(a, o->arg_names[k]), o->op) &&
		     gpu_check_status(dalic_op_set_arg_input(op, o->arg_names[k], o->arg_names[k]),
		                      o->op);
	}
	for (int k = 0; ok && o->int_args && o->int_args[k]; k++)
		ok =
		    gpu_check_status(dalic_op_set_int(op, o->int_args[k], o->int_values[k]), o->op);
	if (ok && o->set_args)
		ok = gpu_check_status(o->set_args(op, o->set_args_ctx), o->op);
	ok = ok &&
	     gpu_check_status(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL), o->op);
	size_t total = 0;
	for (int i = 0; i < in->n; i++)
		total += in->bytes[i];
	uint8_t *all = malloc(total ? total : 1), *q = all;
	int64_t shapes[GPU_CHECK_MAX_SAMPLES * DALIC_MAX_NDIM], ones[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < in->n; i++) {
		memcpy(q, in->host[i], in->bytes[i]);
		q += in->bytes[i];
		ones[i] = 1;
		for (int d = 0; d < in->ndim; d++)
			shapes[i * in->ndim + d] = in->shape[i][d];
	}
	ok = ok && gpu_check_status(dalic_pipeline_feed_input(p, "in", in->dtype, in->ndim, in->n,
	                                                      shapes, all, o->layout),
	                            o->op);
	for (int k = 0; ok && o->arg_names && o->arg_names[k]; k++)
		ok =
		    gpu_check_status(dalic_pipeline_feed_input(p, o->arg_names[k], DALIC_INT32, 1,
		                                               in->n, ones, o->arg_values[k], NULL),
		                     o->op);
	free(all);
	ok = ok && gpu_check_status(dalic_pipeline_run(p), o->op);
	return ok ? dalic_pipeline_output(p, 0) : NULL;
}

int main(void)
{
#ifndef DALIC_HAVE_CUDA
	printf("test-gpu: dalic was built without CUDA (no nvcc): nothing to run\n");
	return 0;
#else
	int n = 0;
	cudaError_t rc = cudaGetDeviceCount(&n);
	if (rc != cudaSuccess || n < 1) {
		printf(
		    "test-gpu: no GPU here (%s): nothing run; the kernels are checked on the CPU "
		    "grid runner by `make test` (suites cuda_*)\n",
		    rc != cudaSuccess ? cudaGetErrorString(rc) : "no device");
		return 0;
	}
	struct cudaDeviceProp prop;
	if (GPU_CHECK_OK(cudaGetDeviceProperties(&prop, 0)))
		printf("test-gpu: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
	int bad = 0;
	bad += gpu_check_flip();
	bad += gpu_check_arith();
	bad += gpu_check_color();
	bad += gpu_check_copy();
	bad += gpu_check_cast();
	bad += gpu_check_transpose();
	bad += gpu_check_warp();
	bad += gpu_check_displace();
	bad += gpu_check_resize();
	bad += gpu_check_slice();
	bad += gpu_check_cmn();
	bad += gpu_check_normalize();
	bad += gpu_check_random();
	printf("test-gpu: %s\n", bad ? "FAILED" : "every kernel matches the CPU operators");
	return bad ? 1 : 0;
#endif
}
