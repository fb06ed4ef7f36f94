/*
 * One gpu operator in a pipeline, run on the emulated backend and on the host-grid backend
 * (tests/testlib/cuda_hostgrid.h: the executor's device path, the kernels' bodies on the CPU
 * grid runner, in every executor mode), TL_GPU_ITERS iterations each, the outputs compared
 * byte for byte: for suites that check a dispatch entry (kernels/common/gpu_<op>.c) against
 * the CPU path.
 */
#ifndef DALIC_TESTS_TESTLIB_GPU_COMPARE_H
#define DALIC_TESTS_TESTLIB_GPU_COMPARE_H

#include "tests/testlib.h"

#define TL_GPU_N 4     /* samples a batch */
#define TL_GPU_ITERS 3 /* iterations compared: the random operators' state moves on */

typedef struct tl_gpu_case {
	const char *what;
	/* adds the sources and the operator (on the gpu, output 0 the pipeline's output) */
	void (*build)(dalic_pipeline_t *p, const void *ctx);
	/* feeds every source for iteration `it` */
	void (*feed)(dalic_pipeline_t *p, int it, const void *ctx);
	const void *ctx;
	/* copy kernels an iteration besides the operator's (transfers to the gpu, the output) */
	int copies;
} tl_gpu_case_t;

/* Runs c on the emulated backend (simple executor mode) and on the host-grid backend in
 * every executor mode, and expects the same outputs, and at least one kernel of the operator
 * an iteration on the host-grid backend. */
void tl_gpu_compare(const tl_gpu_case_t *c);

/* Runs one iteration of c on each backend and expects both to fail with `status` and a
 * message containing `has`. */
void tl_gpu_compare_fails(const tl_gpu_case_t *c, int status, const char *has);

#endif
