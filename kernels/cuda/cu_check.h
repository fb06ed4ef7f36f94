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

#endif
