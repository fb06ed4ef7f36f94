/*
 * `make test-gpu` (tests/gpu/): on a real GPU, each CUDA kernel runs on the inputs of its
 * grid-runner test and its output is compared byte for byte with the CPU operator's, run
 * through the public API. Without CUDA or without a GPU the program says so and exits 0.
 * No Criterion here: plain checks that print each mismatch and count them.
 */
#ifndef DALIC_TESTS_GPU_GPU_CHECK_H
#define DALIC_TESTS_GPU_GPU_CHECK_H

#include "dalic.h"
#include "tests/testlib/cuda_grid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPU_CHECK_MAX_SAMPLES 16

/* A batch with host and device copies of every sample. */
typedef struct gpu_check_batch {
	int n, ndim;
	dalic_dtype_t dtype;
	int64_t shape[GPU_CHECK_MAX_SAMPLES][DALIC_MAX_NDIM];
	size_t bytes[GPU_CHECK_MAX_SAMPLES];
	uint8_t *host[GPU_CHECK_MAX_SAMPLES];
	void *dev[GPU_CHECK_MAX_SAMPLES];
} gpu_check_batch_t;

/* One CPU operator between an external source "in" and the output, with an int32 scalar per
 * sample for each named argument input (NULL-terminated names, values[k][sample]). */
typedef struct gpu_check_op {
	const char *op;
	const char *layout;
	const char *const *arg_names;
	const int32_t (*arg_values)[GPU_CHECK_MAX_SAMPLES];
	const char *const *int_args; /* scalar int arguments, NULL-terminated */
	const int64_t *int_values;
	/* other arguments: called on the operator when set (DALIC_OK or an error) */
	int (*set_args)(dalic_op_t *op, const void *ctx);
	const void *set_args_ctx;
} gpu_check_op_t;

/* Random input (tl_cu_random_fill) with device copies; false after a message on failure. */
bool gpu_check_batch_random(gpu_check_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                            const int64_t *shapes, double lo_hi, uint32_t seed);
/* Device buffers shaped like the CPU output, filled with `canary`. */
bool gpu_check_batch_like(gpu_check_batch_t *b, const dalic_batch_t *cpu, uint8_t canary);
void gpu_check_batch_free(gpu_check_batch_t *b);
/* Runs the CPU operator on `in`; the pipeline (destroy it after reading the output) in *pp. */
const dalic_batch_t *gpu_check_cpu(const gpu_check_op_t *op, const gpu_check_batch_t *in,
                                   dalic_pipeline_t **pp);
/* Waits for the device, copies `out` back and compares with the CPU; mismatching samples. */
int gpu_check_compare(const char *what, const dalic_batch_t *cpu, gpu_check_batch_t *out);

/* The kernels' checks (tests/gpu/gpu_<op>.c): each returns its number of mismatches. */
int gpu_check_flip(void);
int gpu_check_arith(void);
int gpu_check_color(void);
int gpu_check_copy(void);
int gpu_check_cast(void);
int gpu_check_transpose(void);
int gpu_check_warp(void);
int gpu_check_displace(void);
int gpu_check_resize(void);
int gpu_check_slice(void);
int gpu_check_cmn(void);
int gpu_check_normalize(void);
int gpu_check_random(void);

#endif
