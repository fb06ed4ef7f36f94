/*
 * flip on the GPU: one launch for the batch. Each sample's output is a run of bytes; the block
 * map splits every sample into chunks of DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD
 * bytes, and each thread copies output bytes o, o + blockDim.x, ... of its block's chunk from
 * the byte the shared rule (kernels/common/flip_index.h) names. Byte-wise, so any element type
 * and unit size works and neighbouring threads touch neighbouring bytes.
 *
 * A plain header: the C tests include it and run the body on the CPU grid runner; flip.cu
 * wraps the body in a __global__ function and launches it.
 */
#ifndef DALIC_KERNELS_CUDA_FLIP_CUH
#define DALIC_KERNELS_CUDA_FLIP_CUH

#include "kernels/common/flip_index.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_flip_sample {
	const uint8_t *in; /* device memory (host memory under the grid runner) */
	uint8_t *out;
	dalic_flip_plan_t plan;
} dalic_cu_flip_sample_t;

typedef struct dalic_cu_flip_params {
	const dalic_cu_flip_sample_t *samples;
	const dalic_cu_block_t *blocks; /* the block map: one entry per block of the grid */
	int64_t nsamples, nblocks;
} dalic_cu_flip_params_t;

/* Output bytes of sample s. */
DALIC_HD int64_t dalic_cu_flip_bytes(const dalic_cu_flip_sample_t *s)
{
	return s->plan.units * s->plan.unit_bytes;
}

/*
 * The grid of a batch: writes the block map of p->samples to `blocks` (capacity cap; NULL
 * with cap 0 to size it first), sets p->blocks and p->nblocks, and returns the launch. When
 * p->nblocks > cap the map is incomplete: allocate p->nblocks entries and call again.
 */
DALIC_HOST dalic_cu_launch_t dalic_cu_flip_grid(dalic_cu_flip_params_t *p, dalic_cu_block_t *blocks,
                                                int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, dalic_cu_flip_bytes(&p->samples[i]),
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_flip_body(const dalic_cu_idx_t *ix, const dalic_cu_flip_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_flip_sample_t *s = &p->samples[b->sample];
	const int64_t ub = s->plan.unit_bytes;
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x) {
		int64_t unit = o / ub, r = o - unit * ub;
		s->out[o] = s->in[dalic_flip_src_unit(&s->plan, unit) * ub + r];
	}
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches flip on `stream` for the batch p describes (p->samples and p->blocks in host
 * memory, the sample data in device memory); 0, or -1 after a message on stderr. */
int dalic_cu_flip_launch(const dalic_cu_flip_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
