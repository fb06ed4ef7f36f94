/*
 * The device backend: one struct of callbacks (ggml-backend style). The CUDA backend is used
 * when dalic is built with CUDA and a GPU is present; otherwise the emulated backend runs gpu
 * and mixed operators on the CPU with host memory standing in for device memory, and says so
 * (`emulated`), so stats and the TUI can show it loudly.
 *
 * A backend that is not emulated also runs kernels: the executor gives every mixed and gpu
 * stage its own stream, and a gpu/mixed operator with an entry in the dispatch table
 * (kernels/common/gpu_dispatch.c) launches its kernel there between two events, whose elapsed time
 * is the operator's GPU time. Operators without an entry keep the CPU path (emulated, per
 * operator). Streams and events are opaque handles; the emulated backend has none (NULL
 * callbacks) and is never asked for them.
 */
#ifndef DALIC_ENGINE_DEVICE_H
#define DALIC_ENGINE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dalic_gpu_kernel; /* kernels/common/gpu_op.h */
struct dalic_cu_launch;  /* kernels/cuda/cu_defs.h */

typedef struct dalic_device_backend {
	const char *name; /* "cuda", "emulated", or a test backend's name */
	bool emulated;
	void *(*alloc)(size_t bytes);
	void (*free)(void *p);
	void *(*alloc_pinned)(size_t bytes);
	void (*free_pinned)(void *p);
	/* Copies in any direction between host, pinned and device memory; synchronous. */
	int (*copy)(void *dst, const void *src, size_t bytes);
	/* ---- kernels (NULL in the emulated backend) ---- */
	/* Devices this backend drives. */
	int (*count)(void);
	/* Makes `device` current on the calling thread (stage threads call it before work). */
	int (*set_device)(int device);
	/* A non-blocking stream on the current device; 0 or -1 after a message on stderr. */
	int (*stream_create)(void **out);
	void (*stream_destroy)(void *stream);
	int (*event_create)(void **out);
	void (*event_destroy)(void *event);
	/* Records `event` on `stream` (NULL: the default stream). */
	int (*event_record)(void *event, void *stream);
	/* Waits for `end` and gives the time between two recorded events, in ns. */
	int (*event_elapsed_ns)(void *start, void *end, int64_t *ns);
	/* Queues kernel `k` with `params` (host memory, the kernel's params struct) and launch
	 * configuration `cfg` on `stream`. */
	int (*launch)(const struct dalic_gpu_kernel *k, const void *params,
		      const struct dalic_cu_launch *cfg, void *stream);
} dalic_device_backend_t;

/* The backend in use by this process (chosen once). */
const dalic_device_backend_t *dalic_device_backend(void);
/* GPUs this process can use: 0 when the emulated backend stands in for them. */
int dalic_device_count(void);
/* The always-available emulated backend. */
extern const dalic_device_backend_t dalic_device_emulated;
/* Replaces the backend for the rest of the process (tests: the host-grid backend of
 * tests/testlib/cuda_hostgrid.h). Call before any pipeline is built. */
void dalic_device_use(const dalic_device_backend_t *backend);

#endif
