/*
 * cast on the GPU: every element through dalic_convert_elem (kernels/common/convert_elem.h),
 * whose rules are the CPU cast's (DALI's ConvertSat: round half away from zero, saturate,
 * NaN as DALI's x86 build, float16 ties away from zero). One launch per batch; the block map
 * counts elements, one element per thread and item.
 */
#ifndef DALIC_KERNELS_CUDA_CAST_CUH
#define DALIC_KERNELS_CUDA_CAST_CUH

#include "kernels/common/convert_elem.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_cast_sample {
	const void *in;
	void *out;
	int64_t elems;
} dalic_cu_cast_sample_t;

typedef struct dalic_cu_cast_params {
	const dalic_cu_cast_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
	int from, to; /* dalic_dtype_t of the input and the output */
} dalic_cu_cast_params_t;

DALIC_HOST dalic_cu_launch_t dalic_cu_cast_grid(dalic_cu_cast_params_t *p, dalic_cu_block_t *blocks,
                                                int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].elems,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_cast_body(const dalic_cu_idx_t *ix, const dalic_cu_cast_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_cast_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		dalic_convert_elem(p->to, s->out, p->from, s->in, o);
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches cast on `stream` (p->samples and p->blocks in host memory, the data in device
 * memory); 0, or -1 after a message on stderr. */
int dalic_cu_cast_launch(const dalic_cu_cast_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
