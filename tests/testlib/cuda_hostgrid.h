/*
 * The host-grid device backend (docs/gpu.md, "The host-grid test mode"): a backend that is
 * not emulated, so the executor takes its device path — dispatch, one stream per mixed/gpu
 * stage, events around every kernel, device and pinned buffers — while every kernel runs its
 * body (kernels/cuda/<op>.cuh) on the CPU grid runner (cuda_grid.h), and device memory is
 * host memory. It lets `make test` exercise the CUDA backend's bookkeeping without a GPU.
 *
 * Its clock is fake and deterministic: each stream has a counter that a launch advances by
 * the number of body calls it made (one per thread per phase), and an event takes the counter
 * of the stream it is recorded on; so an operator's GPU time is exactly the threads its
 * kernels ran, which tests can compute from the block maps. New device and pinned memory is
 * filled with TL_CU_HOSTGRID_JUNK, so a byte no kernel writes shows in a comparison.
 *
 * It drives TL_CU_HOSTGRID_DEVICES devices; set_device refuses any other id.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_HOSTGRID_H
#define DALIC_TESTS_TESTLIB_CUDA_HOSTGRID_H

#include "engine/device.h"

#include <stdatomic.h>
#include <stdint.h>

#define TL_CU_HOSTGRID_DEVICES 2
#define TL_CU_HOSTGRID_JUNK 0xa5

typedef struct tl_cu_hostgrid_counts {
	_Atomic int64_t launches, body_calls;
	_Atomic int64_t streams_created, streams_live;
	_Atomic int64_t events_created, events_live, events_recorded;
	_Atomic int64_t device_allocs, pinned_allocs;
	_Atomic int last_device; /* the last id given to set_device, -1 none */
} tl_cu_hostgrid_counts_t;

extern const dalic_device_backend_t tl_cu_hostgrid_backend;

/* Makes the host-grid backend this process's backend (dalic_device_use) and zeroes the
 * counters. Call before building any pipeline. */
void tl_cu_hostgrid_use(void);
/* The counters since tl_cu_hostgrid_use. */
const tl_cu_hostgrid_counts_t *tl_cu_hostgrid_counts(void);

#endif
