/*
 * resize on the GPU (every filter, antialias, min/mag filters, roi, subpixel scaling, uint8 /
 * int16 / uint16 / float in, the input type or float out): separable resampling in two
 * launches with a float intermediate, as DALI's GPU SeparableResampling, in the pass order
 * the CPU resampler picks for each sample (img_resample_plan_t.vert_first):
 *   - vertical first: pass 0 resamples columns [x.lo, x.hi) of the source vertically into
 *     out_h x (x.hi - x.lo) x C floats, pass 1 resamples those rows horizontally;
 *   - horizontal first: pass 0 resamples source rows [y.lo, y.hi) horizontally into
 *     (y.hi - y.lo) x out_w x C floats, pass 1 resamples those columns vertically.
 * The filter tables are the CPU's own (dalic_img_resample_plan, built on the host, packed by
 * kernels/common/img_resample_cu.c), and every value of either pass is one
 * dalic_resample_px_taps (kernels/common/img_resample_px.h) over them, the function the CPU's
 * scalar loops call and its vector loops repeat lane by lane; the output is stored with
 * dalic_resample_px_store. So the kernel gives the CPU operator's bytes.
 *
 * The CPU's horizontal-first pass converts each source row to float before its horizontal
 * sums (0 + 1 * x, which only turns -0 into +0); pass 0 here reads the source directly. The
 * sums agree anyway: they start at +0, and +0 + (w * -0) is +0 as +0 + (w * +0) is.
 *
 * Items are output values (pass 0: intermediate values) in a per-sample block map of
 * DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD values; planes (frames of FHWC, planar
 * channels of CHW) follow one another in a sample, so one launch covers the whole batch.
 * A plain header: the C tests run the body on the CPU grid runner; resize.cu launches it.
 */
#ifndef DALIC_KERNELS_CUDA_RESIZE_CUH
#define DALIC_KERNELS_CUDA_RESIZE_CUH

#include "kernels/common/img_resample_px.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_resize_sample {
	const void *in; /* device memory (host memory under the grid runner): planes x */
	void *out;      /* in_h x in_w x channels in, out_h x out_w x channels out */
	dalic_dtype_t in_type, out_type;
	int64_t planes;              /* 0: nothing to do (empty input or output) */
	int64_t in_plane, out_plane; /* values of one plane */
	int64_t in_row;              /* in_w * channels */
	int channels, out_h, out_w;
	int vert_first;
	int y_lo, y_taps, x_lo, x_taps; /* img_resample_plan_t's tables: */
	int64_t y_tab, x_tab;           /* offsets into the params' idx and w */
	int64_t inter_rows, inter_row;  /* the intermediate of one plane */
	int64_t tmp;                    /* offset of the sample's intermediates in tmp */
} dalic_cu_resize_sample_t;

typedef struct dalic_cu_resize_params {
	const dalic_cu_resize_sample_t *samples;
	const dalic_cu_block_t *blocks; /* the block map of this pass */
	int64_t nsamples, nblocks;
	int pass;           /* 0: source to intermediate, 1: intermediate to output */
	const int32_t *idx; /* every sample's filter tables, ntab entries */
	const float *w;
	int64_t ntab;
	float *tmp; /* every sample's intermediates, ntmp floats */
	int64_t ntmp;
} dalic_cu_resize_params_t;

/* Values a pass writes for sample s. */
DALIC_HD int64_t dalic_cu_resize_items(const dalic_cu_resize_sample_t *s, int pass)
{
	if (pass == 0)
		return s->planes * s->inter_rows * s->inter_row;
	return s->planes * s->out_plane;
}

/*
 * The grid of pass p->pass: writes the block map to `blocks` (capacity cap; NULL with cap 0 to
 * size it first), sets p->blocks and p->nblocks, and returns the launch. When p->nblocks > cap
 * the map is incomplete: allocate p->nblocks entries and call again.
 */
DALIC_HOST dalic_cu_launch_t dalic_cu_resize_grid(dalic_cu_resize_params_t *p,
                                                  dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(
		    blocks, cap, n, i, dalic_cu_resize_items(&p->samples[i], p->pass),
		    (int64_t)DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

/* Value o of pass 0: plane, intermediate row r, value j of the row. */
DALIC_HD float dalic_cu_resize_first(const dalic_cu_resize_params_t *p,
                                     const dalic_cu_resize_sample_t *s, int64_t o)
{
	const int64_t plane_items = s->inter_rows * s->inter_row;
	const int64_t pl = o / plane_items, r = o % plane_items / s->inter_row,
	              j = o % s->inter_row;
	const int64_t base = pl * s->in_plane + (int64_t)s->x_lo * s->channels;
	if (s->vert_first) /* column j of output row r, from source rows y.lo + idx */
		return dalic_resample_px_taps(s->in_type, s->in, base + s->y_lo * s->in_row + j,
		                              s->in_row, p->idx + s->y_tab + r * s->y_taps,
		                              p->w + s->y_tab + r * s->y_taps, s->y_taps);
	const int64_t x = j / s->channels, c = j % s->channels; /* of source row y.lo + r */
	return dalic_resample_px_taps(s->in_type, s->in, base + (s->y_lo + r) * s->in_row + c, 1,
	                              p->idx + s->x_tab + x * s->x_taps,
	                              p->w + s->x_tab + x * s->x_taps, s->x_taps);
}

/* Value o of pass 1 (of the output): plane, output row y, value j of the row. */
DALIC_HD float dalic_cu_resize_second(const dalic_cu_resize_params_t *p,
                                      const dalic_cu_resize_sample_t *s, int64_t o)
{
	const int64_t out_row = (int64_t)s->out_w * s->channels;
	const int64_t pl = o / s->out_plane, y = o % s->out_plane / out_row, j = o % out_row;
	const float *tmp = p->tmp + s->tmp + pl * s->inter_rows * s->inter_row;
	if (s->vert_first) { /* horizontally along intermediate row y */
		const int64_t x = j / s->channels, c = j % s->channels;
		return dalic_resample_px_taps(DALIC_FLOAT, tmp, y * s->inter_row + c, 1,
		                              p->idx + s->x_tab + x * s->x_taps,
		                              p->w + s->x_tab + x * s->x_taps, s->x_taps);
	}
	return dalic_resample_px_taps(DALIC_FLOAT, tmp, j, s->inter_row,
	                              p->idx + s->y_tab + y * s->y_taps,
	                              p->w + s->y_tab + y * s->y_taps, s->y_taps);
}

DALIC_HD void dalic_cu_resize_body(const dalic_cu_idx_t *ix, const dalic_cu_resize_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_resize_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x) {
		if (p->pass == 0)
			p->tmp[s->tmp + o] = dalic_cu_resize_first(p, s, o);
		else
			dalic_resample_px_store(s->out_type, s->out, o,
			                        dalic_cu_resize_second(p, s, o));
	}
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches both passes on `stream`: pass[0] and pass[1] describe the same batch (samples and
 * tables in host memory; tmp: device memory for the intermediates, or NULL to take
 * stream-ordered scratch) with each
 * pass's block map; the sample data is in device memory. 0, or -1 after a message on
 * stderr. */
int dalic_cu_resize_launch(const dalic_cu_resize_params_t pass[2], cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
