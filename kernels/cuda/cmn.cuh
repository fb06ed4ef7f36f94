/*
 * crop_mirror_normalize on the GPU: one launch for the batch, one work item per output
 * element (any output layout, pad_output channels included). The block map splits each
 * sample's output into chunks of DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD elements;
 * each thread takes elements o, o + blockDim.x, ... of its chunk, finds its coordinates per
 * role and its source pixel (mirrored in W) and computes the value with the CPU operator's
 * own functions (kernels/common/cmn_px.h): in * mul[c] + add[c] with _rn products and sums, or
 * the fill value; then stores it as float, float16, int8 or uint8.
 *
 * A plain header: the C tests include it and run the body on the CPU grid runner; cmn.cu wraps
 * the body in a __global__ function and launches it.
 */
#ifndef DALIC_KERNELS_CUDA_CMN_CUH
#define DALIC_KERNELS_CUDA_CMN_CUH

#include "kernels/common/cmn_px.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_cmn_sample {
	const void *in; /* device memory (host memory under the grid runner) */
	void *out;
	dalic_cmn_px_plan_t plan;
	float mul[DALIC_CMN_MAX_CH], add[DALIC_CMN_MAX_CH]; /* per input channel (dalic_cmn_px_coeffs) */
	float fill[DALIC_CMN_MAX_CH];                       /* per output channel */
} dalic_cu_cmn_sample_t;

typedef struct dalic_cu_cmn_params {
	const dalic_cu_cmn_sample_t *samples;
	const dalic_cu_block_t *blocks; /* the block map: one entry per block of the grid */
	int64_t nsamples, nblocks;
} dalic_cu_cmn_params_t;

/* Output elements of sample s. */
DALIC_HD int64_t dalic_cu_cmn_elems(const dalic_cu_cmn_sample_t *s)
{
	int64_t n = 1;
	for (int k = 0; k < s->plan.ndim; k++)
		n *= s->plan.out_shape[k];
	return n;
}

/*
 * The grid of a batch: writes the block map of p->samples to `blocks` (capacity cap; NULL
 * with cap 0 to size it first), sets p->blocks and p->nblocks, and returns the launch. When
 * p->nblocks > cap the map is incomplete: allocate p->nblocks entries and call again.
 */
DALIC_HOST dalic_cu_launch_t dalic_cu_cmn_grid(dalic_cu_cmn_params_t *p, dalic_cu_block_t *blocks,
                                               int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, dalic_cu_cmn_elems(&p->samples[i]),
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_cmn_body(const dalic_cu_idx_t *ix, const dalic_cu_cmn_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_cmn_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		dalic_cmn_px_store(s->plan.out_type, s->out, o,
		                   dalic_cmn_px_elem(&s->plan, s->in, o, s->mul, s->add, s->fill));
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches crop_mirror_normalize on `stream` for the batch p describes (p->samples and
 * p->blocks in host memory, the sample data in device memory); 0, or -1 after a message on
 * stderr. */
int dalic_cu_cmn_launch(const dalic_cu_cmn_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
