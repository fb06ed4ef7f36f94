/*
 * The CUDA device backend (ggml-backend style: one struct of callbacks), built when the
 * Makefile finds nvcc and CUDA kernels (DALIC_HAVE_CUDA). dalic_device_cuda() returns NULL
 * when no GPU is present at run time, and device.c falls back to the emulated backend.
 *
 * Every CUDA call is checked and a failure is reported with file:line and CUDA's own error
 * string (on stderr: the allocator callbacks have no other channel; callers turn the NULL or
 * non-zero status into a dalic error). Device memory comes from cudaMalloc, pinned host
 * memory from cudaHostAlloc (portable, so every context sees it pinned); copies use
 * cudaMemcpyDefault, which works in any direction under unified addressing, and are
 * synchronous, as device.h promises.
 */
#ifdef DALIC_HAVE_CUDA

#include "engine/device.h"

#include <cuda_runtime_api.h>
#include <stdio.h>

static bool check(cudaError_t rc, const char *what, const char *file, int line)
{
	if (rc == cudaSuccess)
		return true;
	fprintf(stderr, "[dalic] %s:%d: %s failed: %s (%s)\n", file, line, what,
		cudaGetErrorString(rc), cudaGetErrorName(rc));
	return false;
}

#define CUDA_OK(call) check((call), #call, __FILE__, __LINE__)

static void *cuda_alloc(size_t n)
{
	void *p = NULL;
	/* 256-byte alignment (device.h): cudaMalloc returns at least that */
	return CUDA_OK(cudaMalloc(&p, n ? n : 1)) ? p : NULL;
}

static void cuda_free(void *p)
{
	if (p)
		CUDA_OK(cudaFree(p));
}

static void *cuda_alloc_pinned(size_t n)
{
	void *p = NULL;
	return CUDA_OK(cudaHostAlloc(&p, n ? n : 1, cudaHostAllocPortable)) ? p : NULL;
}

static void cuda_free_pinned(void *p)
{
	if (p)
		CUDA_OK(cudaFreeHost(p));
}

static int cuda_copy(void *dst, const void *src, size_t n)
{
	if (!n)
		return 0;
	return CUDA_OK(cudaMemcpy(dst, src, n, cudaMemcpyDefault)) ? 0 : -1;
}

static const dalic_device_backend_t cuda_backend = {
	.name = "cuda",
	.emulated = false,
	.alloc = cuda_alloc,
	.free = cuda_free,
	.alloc_pinned = cuda_alloc_pinned,
	.free_pinned = cuda_free_pinned,
	.copy = cuda_copy,
};

const dalic_device_backend_t *dalic_device_cuda(void);
int dalic_device_cuda_count(void);

int dalic_device_cuda_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return n;
}

const dalic_device_backend_t *dalic_device_cuda(void)
{
	int n = 0;
	/* no driver, no device, or a driver too old: quietly not available */
	if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
		cudaGetLastError(); /* clear the sticky error of the failed probe */
		return NULL;
	}
	return &cuda_backend;
}

#else
/* Without CUDA this file is empty; ISO C wants at least one declaration. */
typedef int dalic_device_cuda_unused_t;
#endif
