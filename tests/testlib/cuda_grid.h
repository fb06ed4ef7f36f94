/*
 * The CPU grid runner: executes a CUDA kernel's body (kernels/cuda/<op>.cuh) for every
 * (block, thread) index of its launch configuration, on host copies of the data, so the
 * grid-runner tests (tests/unit/test_cuda_<op>.c) check the GPU code without a GPU.
 *
 * Plain bodies (no shared memory, no __syncthreads) go through tl_cu_run_grid. Bodies that
 * share memory within a block are written as phases, the sync points being the phase
 * boundaries: tl_cu_run_grid_phased runs each block alone, phase by phase, every thread of
 * the block through phase k before any enters phase k + 1, with `shared_bytes` of zeroed
 * per-block memory as __shared__.
 *
 * The order is deliberately not the natural one: blocks in a scrambled order and threads
 * last to first, so a body that leans on an ordering CUDA does not promise gives a different
 * answer here. Both return the number of body calls (one per thread per phase).
 *
 * No Criterion here: tests/gpu/ (make test-gpu) links this file too.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_GRID_H
#define DALIC_TESTS_TESTLIB_CUDA_GRID_H

#include "kernels/cuda/cu_defs.h"

#include <stddef.h>
#include <stdint.h>

typedef void (*tl_cu_body_fn)(const dalic_cu_idx_t *ix, const void *params);
typedef void (*tl_cu_phase_fn)(const dalic_cu_idx_t *ix, int phase, void *shared,
                               const void *params);

int64_t tl_cu_run_grid(dalic_cu_launch_t launch, tl_cu_body_fn body, const void *params);
int64_t tl_cu_run_grid_phased(dalic_cu_launch_t launch, int phases, tl_cu_phase_fn body,
                              const void *params);

/* Fills n bytes with `canary` (output buffers before a run: two runs with different canaries
 * show any byte the kernel leaves unwritten). */
void tl_cu_fill(void *p, size_t n, uint8_t canary);

/* count values of dalic dtype `dtype` at data: integers take random bits, floating types values
 * in [-lo_hi, lo_hi] with fractions, bools 0 or 1; *seed advances. */
void tl_cu_random_fill(void *data, int dtype, size_t count, double lo_hi, uint32_t *seed);

#endif
