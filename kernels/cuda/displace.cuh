/*
 * water and sphere on the GPU: one launch per batch, one work item per output pixel (all its
 * channels), the block map splitting each sample's pixels into chunks of
 * DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD that the threads stride through. A pixel's
 * sample point is kernels/common/displace_px.h's (water: the row and column shifts the host
 * made with the C library's sinf and cosf, uploaded per sample; sphere: computed here), and so
 * is its sampling; the CPU loops (kernels/common/displace.c) call the same functions. A sample
 * whose `mask` is 0 is copied.
 *
 * A plain header: the C tests run the body on the CPU grid runner; displace.cu launches it.
 */
#ifndef DALIC_KERNELS_CUDA_DISPLACE_CUH
#define DALIC_KERNELS_CUDA_DISPLACE_CUH

#include "kernels/common/displace_px.h"
#include "kernels/cuda/cu_defs.h"

/* What a sample does. */
enum { DALIC_CU_DISPLACE_COPY, DALIC_CU_DISPLACE_WATER, DALIC_CU_DISPLACE_SPHERE };

typedef struct dalic_cu_displace_sample {
	dalic_displace_img_t img; /* in, out: device memory (host memory under the grid runner) */
	int kind;                 /* DALIC_CU_DISPLACE_* */
	const float *dx;          /* water: the shift of each row (h), device memory */
	const float *dy;          /* water: the shift of each column (w), device memory */
} dalic_cu_displace_sample_t;

typedef struct dalic_cu_displace_params {
	const dalic_cu_displace_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
} dalic_cu_displace_params_t;

/* The grid of a batch, as dalic_cu_flip_grid: a first call with NULL/0 sizes the map. */
DALIC_HOST dalic_cu_launch_t dalic_cu_displace_grid(dalic_cu_displace_params_t *p,
                                                    dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(
		    blocks, cap, n, i, p->samples[i].img.w * p->samples[i].img.h,
		    (int64_t)DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

DALIC_HD void dalic_cu_displace_body(const dalic_cu_idx_t *ix, const dalic_cu_displace_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_displace_sample_t *s = &p->samples[b->sample];
	const dalic_displace_img_t *g = &s->img;
	const int64_t es = g->dtype == DALIC_UINT8 ? 1 : 4, pixel_bytes = g->c * es;
	for (int64_t k = b->start + ix->thread.x; k < b->end; k += ix->block_dim.x) {
		int64_t x = k % g->w, y = k / g->w;
		float px, py;
		if (s->kind == DALIC_CU_DISPLACE_COPY) {
			for (int64_t c = 0; c < pixel_bytes; c++)
				((uint8_t *)g->out)[k * pixel_bytes + c] =
				    ((const uint8_t *)g->in)[k * pixel_bytes + c];
			continue;
		}
		if (s->kind == DALIC_CU_DISPLACE_WATER)
			dalic_displace_water_point(x, y, s->dx[y], s->dy[x], &px, &py);
		else
			dalic_displace_sphere_point(x, y, g->w, g->h, &px, &py);
		dalic_displace_pixel(g, g->dtype, x, y, px, py);
	}
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches water / sphere on `stream` for the batch p describes (p->samples and p->blocks in
 * host memory, images and water's shifts in device memory); 0, or -1 after a message. */
int dalic_cu_displace_launch(const dalic_cu_displace_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
