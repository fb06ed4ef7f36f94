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
 * synchronous, as device.h promises. Streams are non-blocking, events keep timing (the
 * executor reads each operator's GPU time from a pair), and a launch goes to the kernel's
 * .cu launcher (kernels/common/gpu_op.h).
 */
#ifdef DALIC_HAVE_CUDA

#include "engine/device.h"
#include "kernels/common/gpu_op.h"

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

static int cuda_set_device(int device)
{
	return CUDA_OK(cudaSetDevice(device)) ? 0 : -1;
}

/* Non-blocking: the stages' streams do not serialise with the legacy default stream. */
static int cuda_stream_create(void **out)
{
	cudaStream_t s = NULL;
	*out = NULL;
	if (!CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)))
		return -1;
	*out = s;
	return 0;
}

static void cuda_stream_destroy(void *s)
{
	if (s)
		CUDA_OK(cudaStreamDestroy((cudaStream_t)s));
}

static int cuda_event_create(void **out)
{
	cudaEvent_t e = NULL;
	*out = NULL;
	if (!CUDA_OK(cudaEventCreate(&e)))
		return -1;
	*out = e;
	return 0;
}

static void cuda_event_destroy(void *e)
{
	if (e)
		CUDA_OK(cudaEventDestroy((cudaEvent_t)e));
}

static int cuda_event_record(void *e, void *stream)
{
	return CUDA_OK(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)stream)) ? 0 : -1;
}

/* cudaEventElapsedTime's resolution is about half a microsecond. */
static int cuda_event_elapsed_ns(void *start, void *end, int64_t *ns)
{
	float ms = 0;
	if (!CUDA_OK(cudaEventSynchronize((cudaEvent_t)end)) ||
	    !CUDA_OK(cudaEventElapsedTime(&ms, (cudaEvent_t)start, (cudaEvent_t)end)))
		return -1;
	*ns = (int64_t)((double)ms * 1e6 + 0.5);
	return 0;
}

static int cuda_launch(const dalic_gpu_kernel_t *k, const void *params,
		       const dalic_cu_launch_t *cfg, void *stream)
{
	if (!k->launch) {
		fprintf(stderr, "[dalic] kernel '%s' has no CUDA launcher in this build\n", k->name);
		return -1;
	}
	/* the .cu launcher derives the same configurations from params */
	(void)cfg;
	return k->launch(params, stream);
}

int dalic_device_cuda_count(void);

static const dalic_device_backend_t cuda_backend = {
	.name = "cuda",
	.emulated = false,
	.alloc = cuda_alloc,
	.free = cuda_free,
	.alloc_pinned = cuda_alloc_pinned,
	.free_pinned = cuda_free_pinned,
	.copy = cuda_copy,
	.count = dalic_device_cuda_count,
	.set_device = cuda_set_device,
	.stream_create = cuda_stream_create,
	.stream_destroy = cuda_stream_destroy,
	.event_create = cuda_event_create,
	.event_destroy = cuda_event_destroy,
	.event_record = cuda_event_record,
	.event_elapsed_ns = cuda_event_elapsed_ns,
	.launch = cuda_launch,
};

const dalic_device_backend_t *dalic_device_cuda(void);

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
