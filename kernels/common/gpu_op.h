/*
 * The GPU path of gpu/mixed operators (docs/gpu.md, "The device backend"). An operator with
 * an entry in the dispatch table (gpu_dispatch.c) keeps its CPU kernel's setup (output dtypes,
 * shapes, layouts: one source for both paths); the executor allocates the outputs in device
 * (or pinned) memory, and then, instead of the CPU run, calls the entry's `run`, which builds
 * the kernel's per-sample descriptors and block map on the host, in the node's scratch, and
 * launches it on the stage's stream through the backend.
 *
 * A kernel is described once (dalic_gpu_kernel_t, DALIC_GPU_KERNEL): its name, the .cu
 * launcher (built with CUDA) and the body for the host-grid runner, so a backend can launch
 * it on a GPU or, in the test mode, run the very same body on the CPU grid runner.
 */
#ifndef DALIC_KERNELS_COMMON_GPU_OP_H
#define DALIC_KERNELS_COMMON_GPU_OP_H

#include "engine/device.h"
#include "engine/kernel.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_gpu_kernel {
	const char *name;
	/* dalic_cu_<op>_launch(params, cudaStream_t); NULL in a build without CUDA */
	int (*launch)(const void *params, void *stream);
	/* the body (phases == 0) or phased body (phases > 0) for the CPU grid runner */
	void (*body)(const dalic_cu_idx_t *ix, const void *params);
	int phases;
	void (*phase)(const dalic_cu_idx_t *ix, int phase, void *shared, const void *params);
	/* Launches in a row (resize: two passes): params is an array of `passes` structs of
	 * params_size bytes, and a launch gets one configuration per pass. */
	int passes;
	size_t params_size;
} dalic_gpu_kernel_t;

/* Host scratch of one node (descriptors, block maps), grown as needed and kept. */
#define DALIC_GPU_SCRATCH_SLOTS 4
typedef struct dalic_gpu_scratch {
	void *p[DALIC_GPU_SCRATCH_SLOTS];
	size_t cap[DALIC_GPU_SCRATCH_SLOTS];
	void *dev; /* device memory for tables a kernel reads (dalic_gpu_upload) */
	size_t dev_cap;
} dalic_gpu_scratch_t;

/* What an entry's run gets besides the operator: where to launch and its scratch. */
typedef struct dalic_gpu_run {
	const dalic_device_backend_t *dev;
	void *stream; /* the stage's stream (NULL: the default stream) */
	dalic_gpu_scratch_t *scratch;
	int launches; /* kernels queued by this run */
} dalic_gpu_run_t;

typedef struct dalic_gpu_op {
	const char *schema; /* the schema name as DALI spells it ("Flip") */
	/* Launches the operator's kernels for the batch: the outputs are allocated and their
	 * metadata set by the CPU kernel's setup. */
	int (*run)(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
	/* Optional: after the kernels finished (the executor waited for them), e.g. to read a
	 * flag the kernels set; only called when run succeeded. */
	int (*finish)(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
	/* Bit k: the CPU kernel's setup reads regular input k on the host (slice's anchor and
	 * shape), so its producer writes pinned memory rather than device memory. */
	unsigned host_inputs;
} dalic_gpu_op_t;

/* The dispatch entry of a schema name, or NULL (the operator keeps the CPU path). */
const dalic_gpu_op_t *dalic_gpu_op_find(const char *schema);
/* Slot `slot` of the run's scratch with at least `bytes` (never NULL for 0 bytes); NULL with
 * dalic_last_error() set when out of memory. Contents are not kept across calls. */
void *dalic_gpu_scratch(dalic_gpu_run_t *r, int slot, size_t bytes);
void dalic_gpu_scratch_free(dalic_gpu_scratch_t *s);
/* Copies `bytes` of host memory into the node's device scratch (grown as needed, kept) and
 * returns its device address; NULL with dalic_last_error() set on failure. The copy is
 * synchronous, and the previous run's kernels have finished (the executor waits for each
 * node's kernels), so reusing the scratch is safe. One table per run. */
void *dalic_gpu_upload(dalic_gpu_run_t *r, const void *host, size_t bytes);
/* Queues kernel k through the backend (cfg: one configuration per pass); a failure names the
 * kernel. Nothing is launched when every grid is empty. */
int dalic_gpu_launch(dalic_gpu_run_t *r, const dalic_gpu_kernel_t *k, const void *params,
                     const dalic_cu_launch_t *cfg);
/* `bytes` of the node's device scratch, contents undefined (kept, grown as needed). */
void *dalic_gpu_device_scratch(dalic_gpu_run_t *r, size_t bytes);

/*
 * Describes kernel `op` of a kernels/cuda header (its params type `params_t`, its body
 * dalic_cu_<op>_body, its launcher dalic_cu_<op>_launch) as dalic_gpu_<op>_kernel;
 * DALIC_GPU_KERNEL(op) when the params type is dalic_cu_<op>_params_t.
 */
#ifdef DALIC_HAVE_CUDA
#define DALIC_GPU_LAUNCHER(op, params_t)                                                           \
	static int dalic_gpu_##op##_launch_any(const void *p, void *stream)                        \
	{                                                                                          \
		return dalic_cu_##op##_launch((const params_t *)p, (cudaStream_t)stream);          \
	}
#define DALIC_GPU_LAUNCH_FN(op) dalic_gpu_##op##_launch_any
#else
#define DALIC_GPU_LAUNCHER(op, params_t)
#define DALIC_GPU_LAUNCH_FN(op) NULL
#endif

#define DALIC_GPU_KERNEL_OF(op, params_t)                                                          \
	static void dalic_gpu_##op##_body_any(const dalic_cu_idx_t *ix, const void *p)             \
	{                                                                                          \
		dalic_cu_##op##_body(ix, (const params_t *)p);                                     \
	}                                                                                          \
	DALIC_GPU_LAUNCHER(op, params_t)                                                           \
	static const dalic_gpu_kernel_t dalic_gpu_##op##_kernel = {                                \
	    #op, DALIC_GPU_LAUNCH_FN(op), dalic_gpu_##op##_body_any, 0, NULL, 1, sizeof(params_t)}
#define DALIC_GPU_KERNEL(op) DALIC_GPU_KERNEL_OF(op, dalic_cu_##op##_params_t)

#endif
