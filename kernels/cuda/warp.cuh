/*
 * warp_affine and rotate on the GPU: one launch per batch, one block per 256-pixel tile of an
 * output row (a row of one frame, at one depth z), DALIC_IMG_WARP_TILE threads a block.
 *
 * DALI's CPU warp makes a pixel's source coordinates by adding M[:, 0] to its left neighbour's
 * (restarting every tile from the previous tile's start), a serial chain of float sums; to give
 * those coordinates bit for bit without paying the chain per pixel, the body runs in two phases
 * split by __syncthreads: in phase 0 thread r (< ndim) writes coordinate r of the tile's pixels
 * into shared memory with the shared dalic_img_warp_tile_src, and in phase 1 thread t samples
 * pixel t of the tile with dalic_img_warp_pixel (all its channels). Both functions are
 * kernels/common/img_warp_px.h's, which the CPU loops (img_warp.c) call too.
 *
 * A plain header: the C tests run the phased body on the CPU grid runner
 * (tl_cu_run_grid_phased); warp.cu wraps it in a __global__ function and launches it.
 */
#ifndef DALIC_KERNELS_CUDA_WARP_CUH
#define DALIC_KERNELS_CUDA_WARP_CUH

#include "kernels/common/img_warp_px.h"
#include "kernels/cuda/cu_defs.h"

/* The phases of the body and the shared floats of a block (x, y, z per pixel of a tile). */
#define DALIC_CU_WARP_PHASES 2
#define DALIC_CU_WARP_SHARED_FLOATS (3 * DALIC_IMG_WARP_TILE)

typedef struct dalic_cu_warp_sample {
	img_warp_job_t job; /* in, out: frame 0, device memory (host under the grid runner);
	                       the job prepared by dalic_img_warp_prepare */
	int64_t frames;     /* frames of a sequence (1 otherwise); all share the job */
	int64_t in_frame;   /* bytes of one input frame, and of one output frame */
	int64_t out_frame;
} dalic_cu_warp_sample_t;

typedef struct dalic_cu_warp_params {
	const dalic_cu_warp_sample_t *samples;
	const dalic_cu_block_t *blocks; /* one entry per block: [start, start + 1) is its tile */
	int64_t nsamples, nblocks;
} dalic_cu_warp_params_t;

/* Tiles per output row of sample s, and its tiles: frames x depth x rows x tiles per row. */
DALIC_HD int64_t dalic_cu_warp_tiles_x(const dalic_cu_warp_sample_t *s)
{
	return (s->job.out_size[0] + DALIC_IMG_WARP_TILE - 1) / DALIC_IMG_WARP_TILE;
}

DALIC_HD int64_t dalic_cu_warp_tiles(const dalic_cu_warp_sample_t *s)
{
	const img_warp_job_t *j = &s->job;
	int64_t rows = j->out_size[1] * (j->ndim == 3 ? j->out_size[2] : 1);
	return s->frames * rows * dalic_cu_warp_tiles_x(s);
}

/* The grid of a batch, as dalic_cu_flip_grid: a first call with NULL/0 sizes the map. The
 * launch carries the shared memory the phased runner gives each block. */
DALIC_HOST dalic_cu_launch_t dalic_cu_warp_grid(dalic_cu_warp_params_t *p, dalic_cu_block_t *blocks,
                                                int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, dalic_cu_warp_tiles(&p->samples[i]),
		                           1);
	p->blocks = blocks;
	p->nblocks = n;
	dalic_cu_launch_t l = dalic_cu_launch_1d(n, DALIC_IMG_WARP_TILE);
	l.shared_bytes = sizeof(float) * DALIC_CU_WARP_SHARED_FLOATS;
	return l;
}

/* Phase `phase` of one thread; `src` is the block's DALIC_CU_WARP_SHARED_FLOATS floats. */
DALIC_HD void dalic_cu_warp_body(const dalic_cu_idx_t *ix, int phase, float *src,
                                 const dalic_cu_warp_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_warp_sample_t *s = &p->samples[b->sample];
	const img_warp_job_t *j = &s->job;
	const int64_t W = j->out_size[0], H = j->out_size[1];
	const int64_t D = j->ndim == 3 ? j->out_size[2] : 1;
	const int64_t tiles_x = dalic_cu_warp_tiles_x(s);
	const int64_t k = b->start % tiles_x, row = b->start / tiles_x;
	const int64_t y = row % H, z = row / H % D, f = row / H / D;
	const int64_t x0 = k * DALIC_IMG_WARP_TILE;
	const int64_t n = W - x0 < DALIC_IMG_WARP_TILE ? W - x0 : DALIC_IMG_WARP_TILE;
	if (phase == 0) {
		for (int64_t r = ix->thread.x; r < j->ndim; r += ix->block_dim.x)
			dalic_img_warp_tile_src(j, (int)r, y, z, k, n, src + r, 3);
		return;
	}
	const void *in = (const uint8_t *)j->in + f * s->in_frame;
	void *out = (uint8_t *)j->out + f * s->out_frame;
	const int64_t o = (z * H + y) * W + x0;
	for (int64_t x = ix->thread.x; x < n; x += ix->block_dim.x)
		dalic_img_warp_pixel(j, j->in_type, in, out, src + 3 * x, (o + x) * j->channels);
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches the warp on `stream` for the batch p describes (p->samples and p->blocks in host
 * memory, the images in device memory); 0, or -1 after a message on stderr. */
int dalic_cu_warp_launch(const dalic_cu_warp_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
