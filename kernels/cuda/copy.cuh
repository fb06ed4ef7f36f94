/*
 * The copy kernel of copy, MakeContiguous and the transfer nodes (host <-> device copies of
 * whole batches gather non-contiguous samples into one buffer): every sample's bytes to its
 * destination, one launch per batch through the block map, one byte per thread and item.
 * The CPU operators (kernels/cpu/util/copy.c, generic/make_contiguous.c) use memcpy: there is
 * no arithmetic to share, and the grid-runner test compares the outputs.
 */
#ifndef DALIC_KERNELS_CUDA_COPY_CUH
#define DALIC_KERNELS_CUDA_COPY_CUH

#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_copy_sample {
	const uint8_t *in;
	uint8_t *out;
	int64_t bytes;
} dalic_cu_copy_sample_t;

typedef struct dalic_cu_copy_params {
	const dalic_cu_copy_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
} dalic_cu_copy_params_t;

/* The grid: as dalic_cu_flip_grid (fills `blocks` up to cap, sets p->blocks / p->nblocks). */
DALIC_HOST dalic_cu_launch_t dalic_cu_copy_grid(dalic_cu_copy_params_t *p, dalic_cu_block_t *blocks,
                                                int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].bytes,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_copy_body(const dalic_cu_idx_t *ix, const dalic_cu_copy_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_copy_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		s->out[o] = s->in[o];
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches the copy on `stream` (p->samples and p->blocks in host memory, the data in device
 * or pinned memory); 0, or -1 after a message on stderr. */
int dalic_cu_copy_launch(const dalic_cu_copy_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
