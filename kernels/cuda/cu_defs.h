/*
 * The common ground of dalic's CUDA kernels, compiled by both gcc (C11, through the CPU
 * operators and the grid-runner tests) and nvcc (C++, through kernels/cuda/<op>.cu), so it is
 * written in their common subset: explicit casts from void *, no designated initialisers, no
 * VLAs, no C++-only syntax outside #ifdef __CUDACC__.
 *
 * - DALIC_HD marks the per-element arithmetic and the kernel bodies: `__host__ __device__
 *   inline` under nvcc, `static inline` in C. DALIC_HOST marks host-only helpers (grid
 *   configuration) that live in the same headers.
 * - dalic_cu_idx_t is what a body knows of its place in the launch: blockIdx, threadIdx,
 *   blockDim and gridDim. The __global__ wrapper fills it from the CUDA built-ins
 *   (dalic_cu_idx_here); the CPU grid runner (tests/testlib/cuda_grid.h) fills it for every
 *   (block, thread) of the launch, so the same body runs on both.
 * - dalic_cu_block_t is the per-sample block map that lets one launch cover a whole batch of
 *   differently shaped samples (as DALI's GPU kernels do): block b works on items
 *   [start, end) of sample `sample`; its threads stride through that range by blockDim.x.
 *   dalic_cu_block_map_add builds it on the host, sample by sample.
 */
#ifndef DALIC_KERNELS_CUDA_CU_DEFS_H
#define DALIC_KERNELS_CUDA_CU_DEFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define DALIC_HD __host__ __device__ inline
#else
#define DALIC_HD static inline
#endif
#define DALIC_HOST static inline

typedef struct dalic_cu_dim3 {
	unsigned x, y, z;
} dalic_cu_dim3_t;

typedef struct dalic_cu_idx {
	dalic_cu_dim3_t block;     /* blockIdx */
	dalic_cu_dim3_t thread;    /* threadIdx */
	dalic_cu_dim3_t block_dim; /* blockDim */
	dalic_cu_dim3_t grid_dim;  /* gridDim */
} dalic_cu_idx_t;

/* A launch configuration: grid and block sizes and the dynamic shared memory per block. */
typedef struct dalic_cu_launch {
	dalic_cu_dim3_t grid, block;
	size_t shared_bytes;
} dalic_cu_launch_t;

/* One entry of the per-sample block map. */
typedef struct dalic_cu_block {
	int64_t sample;
	int64_t start, end;
} dalic_cu_block_t;

/* Threads per block of the element-wise kernels, and the items one block covers (each thread
 * handles DALIC_CU_ITEMS_PER_THREAD of them, striding by the block size, so neighbouring
 * threads touch neighbouring items: coalesced). */
#define DALIC_CU_BLOCK_THREADS 256
#define DALIC_CU_ITEMS_PER_THREAD 8

DALIC_HOST dalic_cu_dim3_t dalic_cu_dim3(unsigned x, unsigned y, unsigned z)
{
	dalic_cu_dim3_t d;
	d.x = x;
	d.y = y;
	d.z = z;
	return d;
}

/*
 * Appends sample `sample`'s blocks to a block map that holds n entries: `items` work items in
 * chunks of `per_block` (the last chunk shorter; an empty sample gets no block). Writes only
 * entries below `cap` (blocks may be NULL with cap 0) and returns the new count, so a first
 * pass with NULL sizes the map.
 */
DALIC_HOST int64_t dalic_cu_block_map_add(dalic_cu_block_t *blocks, int64_t cap, int64_t n,
                                          int64_t sample, int64_t items, int64_t per_block)
{
	for (int64_t s = 0; s < items; s += per_block, n++) {
		if (n < cap) {
			blocks[n].sample = sample;
			blocks[n].start = s;
			blocks[n].end = items - s < per_block ? items : s + per_block;
		}
	}
	return n;
}

/* The 1-D launch over a block map of `nblocks` entries. */
DALIC_HOST dalic_cu_launch_t dalic_cu_launch_1d(int64_t nblocks, unsigned threads)
{
	dalic_cu_launch_t l;
	l.grid = dalic_cu_dim3((unsigned)nblocks, 1, 1);
	l.block = dalic_cu_dim3(threads, 1, 1);
	l.shared_bytes = 0;
	return l;
}

#ifdef __CUDACC__
/* The body's view of the launch, from the CUDA built-ins. */
__device__ inline dalic_cu_idx_t dalic_cu_idx_here(void)
{
	dalic_cu_idx_t ix;
	ix.block.x = blockIdx.x;
	ix.block.y = blockIdx.y;
	ix.block.z = blockIdx.z;
	ix.thread.x = threadIdx.x;
	ix.thread.y = threadIdx.y;
	ix.thread.z = threadIdx.z;
	ix.block_dim.x = blockDim.x;
	ix.block_dim.y = blockDim.y;
	ix.block_dim.z = blockDim.z;
	ix.grid_dim.x = gridDim.x;
	ix.grid_dim.y = gridDim.y;
	ix.grid_dim.z = gridDim.z;
	return ix;
}
#endif

#endif
