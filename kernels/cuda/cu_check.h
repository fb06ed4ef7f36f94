/*
 * Host-side helpers of the .cu launchers (nvcc only): every CUDA call is checked and a failure
 * is reported with file:line and CUDA's own error name and string (ggml style), on stderr,
 * as engine/device_cuda.c does; the launcher then returns -1.
 *
 * A launch gets its parameters by value; the arrays they point to (per-sample descriptors,
 * the block map) are built on the host and uploaded into stream-ordered scratch
 * (cudaMallocAsync) that is freed after the kernel on the same stream.
 */
#ifndef DALIC_KERNELS_CUDA_CU_CHECK_H
#define DALIC_KERNELS_CUDA_CU_CHECK_H

#include "kernels/cuda/cu_defs.h"

#include <cuda_runtime.h>
#include <stdio.h>

static inline bool dalic_cu_check(cudaError_t rc, const char *what, const char *file, int line)
{
	if (rc == cudaSuccess)
		return true;
	fprintf(stderr, "[dalic] %s:%d: %s failed: %s (%s)\n", file, line, what,
	        cudaGetErrorString(rc), cudaGetErrorName(rc));
	return false;
}

#define DALIC_CU_OK(call) dalic_cu_check((call), #call, __FILE__, __LINE__)

/* Copies `bytes` of host memory into new stream-ordered device scratch; NULL on failure. */
static inline void *dalic_cu_upload(const void *host, size_t bytes, cudaStream_t stream)
{
	void *dev = NULL;
	if (!bytes)
		return NULL;
	if (!DALIC_CU_OK(cudaMallocAsync(&dev, bytes, stream)))
		return NULL;
	if (!DALIC_CU_OK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream))) {
		cudaFreeAsync(dev, stream);
		return NULL;
	}
	return dev;
}

/* Frees scratch from dalic_cu_upload after the work queued on `stream`. */
static inline void dalic_cu_scratch_free(void *dev, cudaStream_t stream)
{
	if (dev)
		DALIC_CU_OK(cudaFreeAsync(dev, stream));
}

/* Checks the launch just queued (configuration errors surface here, not at the launch). */
#define DALIC_CU_LAUNCHED() DALIC_CU_OK(cudaGetLastError())

/*
 * The launcher of a batch kernel whose params struct has the usual fields (samples, blocks,
 * nsamples, nblocks; the two arrays in host memory): uploads both arrays, launches `kernel`
 * with a copy of the params pointing at the uploads, one block per block-map entry of
 * `threads` threads, and frees the scratch after it on the stream. Evaluates to 0 or -1.
 */
template <typename P, typename S>
static inline int dalic_cu_launch_batch(void (*kernel)(P), const P *p, const S *samples,
                                        unsigned threads, cudaStream_t stream)
{
	if (p->nblocks == 0)
		return 0;
	P dev = *p;
	dev.samples =
	    (const S *)dalic_cu_upload(samples, sizeof *samples * (size_t)p->nsamples, stream);
	dev.blocks = (const dalic_cu_block_t *)dalic_cu_upload(
	    p->blocks, sizeof *p->blocks * (size_t)p->nblocks, stream);
	bool ok = dev.samples && dev.blocks;
	if (ok) {
		kernel<<<(unsigned)p->nblocks, threads, 0, stream>>>(dev);
		ok = DALIC_CU_LAUNCHED();
	}
	dalic_cu_scratch_free((void *)dev.samples, stream);
	dalic_cu_scratch_free((void *)dev.blocks, stream);
	return ok ? 0 : -1;
}

#endif
