/*
 * slice and crop on the GPU: one launch for the batch, one work item per output element. The
 * block map splits each sample's output into chunks of DALIC_CU_BLOCK_THREADS *
 * DALIC_CU_ITEMS_PER_THREAD elements; each thread writes elements o, o + blockDim.x, ... of its
 * chunk by the shared rule (kernels/common/slice_elem.h): the source element of the window
 * (through the border mode), or the fill value of its channel, converted as the operator does
 * (slice: clamp and truncate; crop: ConvertSat; the same type copies the bits).
 *
 * A plain header: the C tests include it and run the body on the CPU grid runner; slice.cu
 * wraps the body in a __global__ function and launches it.
 */
#ifndef DALIC_KERNELS_CUDA_SLICE_CUH
#define DALIC_KERNELS_CUDA_SLICE_CUH

#include "kernels/common/slice_elem.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_slice_sample {
	const void *in; /* device memory (host memory under the grid runner) */
	void *out;
	const void *fill; /* plan.nfill values of plan.fill_type, device memory too */
	dalic_slice_elem_plan_t plan;
} dalic_cu_slice_sample_t;

typedef struct dalic_cu_slice_params {
	const dalic_cu_slice_sample_t *samples;
	const dalic_cu_block_t *blocks; /* the block map: one entry per block of the grid */
	int64_t nsamples, nblocks;
} dalic_cu_slice_params_t;

/*
 * The grid of a batch: writes the block map of p->samples to `blocks` (capacity cap; NULL
 * with cap 0 to size it first), sets p->blocks and p->nblocks, and returns the launch. When
 * p->nblocks > cap the map is incomplete: allocate p->nblocks entries and call again.
 */
DALIC_HOST dalic_cu_launch_t dalic_cu_slice_grid(dalic_cu_slice_params_t *p,
                                                 dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i,
		                           dalic_slice_elem_count(&p->samples[i].plan),
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_slice_body(const dalic_cu_idx_t *ix, const dalic_cu_slice_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_slice_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		dalic_slice_elem_store(&s->plan, s->out, o, s->in, s->fill);
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches slice / crop on `stream` for the batch p describes (p->samples and p->blocks in
 * host memory, the sample data and fill values in device memory); 0, or -1 after a message on
 * stderr. */
int dalic_cu_slice_launch(const dalic_cu_slice_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
