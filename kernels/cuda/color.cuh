/*
 * The colour operators on the GPU, one launch per batch each:
 *   - twist (hsv, color_twist): one work item per RGB pixel; the 3x3 matrix and offset of
 *     each sample come from the CPU operator's own dalic_color_twist_matrix on the host;
 *   - muladd (brightness_contrast): one work item per value; mul and add per sample from
 *     dalic_color_bc_coeffs.
 * The per-value arithmetic and the ConvertSat stores are kernels/common/color_px.h's, which
 * the CPU loops also call. The block map splits each sample's items into chunks of
 * DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD; threads stride through their chunk.
 *
 * A plain header: the C tests run the bodies on the CPU grid runner; color.cu launches them.
 */
#ifndef DALIC_KERNELS_CUDA_COLOR_CUH
#define DALIC_KERNELS_CUDA_COLOR_CUH

#include "kernels/common/color_px.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_color_sample {
	const void *in; /* device memory (host memory under the grid runner) */
	void *out;
	dalic_dtype_t it, ot;
	int64_t items;  /* twist: pixels (values / 3); muladd: values */
	float m[3][3];  /* twist */
	float offset;   /* twist */
	float mul, add; /* muladd */
} dalic_cu_color_sample_t;

typedef struct dalic_cu_color_params {
	const dalic_cu_color_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
} dalic_cu_color_params_t;

/* The grid of a batch, as dalic_cu_flip_grid: a first call with NULL/0 sizes the map. */
DALIC_HOST dalic_cu_launch_t dalic_cu_color_grid(dalic_cu_color_params_t *p,
                                                 dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].items,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_color_twist_body(const dalic_cu_idx_t *ix, const dalic_cu_color_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_color_sample_t *s = &p->samples[b->sample];
	for (int64_t px = b->start + ix->thread.x; px < b->end; px += ix->block_dim.x) {
		float r = dalic_color_px_load(s->it, s->in, 3 * px);
		float g = dalic_color_px_load(s->it, s->in, 3 * px + 1);
		float bl = dalic_color_px_load(s->it, s->in, 3 * px + 2);
		for (int c = 0; c < 3; c++)
			dalic_color_px_store(s->ot, s->out, 3 * px + c,
			                     dalic_color_twist_dot(r, g, bl, s->m[c][0], s->m[c][1],
			                                           s->m[c][2], s->offset));
	}
}

DALIC_HD void dalic_cu_color_muladd_body(const dalic_cu_idx_t *ix, const dalic_cu_color_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_color_sample_t *s = &p->samples[b->sample];
	for (int64_t k = b->start + ix->thread.x; k < b->end; k += ix->block_dim.x)
		dalic_color_px_store(
		    s->ot, s->out, k,
		    dalic_color_muladd(dalic_color_px_load(s->it, s->in, k), s->mul, s->add));
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launch the twist (hsv, color_twist) or the muladd (brightness_contrast) on `stream` for the
 * batch p describes (p->samples and p->blocks in host memory, sample data in device memory);
 * 0, or -1 after a message on stderr. */
int dalic_cu_color_twist_launch(const dalic_cu_color_params_t *p, cudaStream_t stream);
int dalic_cu_color_muladd_launch(const dalic_cu_color_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
