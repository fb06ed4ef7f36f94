/*
 * transpose on the GPU: one launch per batch; the block map counts output elements and each
 * thread copies output element o from the input element the shared plan names
 * (kernels/common/transpose_index.h: the CPU operator builds and walks the same plan). The
 * element is moved by size (1, 2, 4 or 8 bytes, else byte by byte), so any dtype works.
 * Writes are coalesced, reads strided: DALI's tiled shared-memory transpose is faster on
 * hardware; this kernel is the plain one.
 */
#ifndef DALIC_KERNELS_CUDA_TRANSPOSE_CUH
#define DALIC_KERNELS_CUDA_TRANSPOSE_CUH

#include "kernels/common/transpose_index.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_transpose_sample {
	const uint8_t *in;
	uint8_t *out;
	dalic_transpose_plan_t plan;
} dalic_cu_transpose_sample_t;

typedef struct dalic_cu_transpose_params {
	const dalic_cu_transpose_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
	int64_t elem_bytes;
} dalic_cu_transpose_params_t;

DALIC_HOST dalic_cu_launch_t dalic_cu_transpose_grid(dalic_cu_transpose_params_t *p,
                                                     dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].plan.total,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_transpose_body(const dalic_cu_idx_t *ix,
                                      const dalic_cu_transpose_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_transpose_sample_t *s = &p->samples[b->sample];
	const int64_t es = p->elem_bytes;
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x) {
		int64_t k = dalic_transpose_src_elem(&s->plan, o);
		switch (es) {
		case 1:
			s->out[o] = s->in[k];
			break;
		case 2:
			((uint16_t *)s->out)[o] = ((const uint16_t *)s->in)[k];
			break;
		case 4:
			((uint32_t *)s->out)[o] = ((const uint32_t *)s->in)[k];
			break;
		case 8:
			((uint64_t *)s->out)[o] = ((const uint64_t *)s->in)[k];
			break;
		default:
			for (int64_t j = 0; j < es; j++)
				s->out[o * es + j] = s->in[k * es + j];
			break;
		}
	}
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches transpose on `stream` (p->samples and p->blocks in host memory, the data in device
 * memory); 0, or -1 after a message on stderr. */
int dalic_cu_transpose_launch(const dalic_cu_transpose_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
