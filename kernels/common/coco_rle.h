/*
 * COCO run-length masks for readers.coco's pixelwise_masks, computed as DALI computes them
 * (its COCOReader::PixelwiseMasks over the COCO API's mask functions): runs alternate 0 and 1
 * down the columns (column-major), the first run counting zeros.
 *  - polygons become runs as the COCO API's rleFrPoly rasterises them (relative vertices,
 *    of `ratio`, scaled back to pixels first, as DALI does since its ratio fix) (points 5x upsampled
 *    along the edges, the y-boundary points taken back down, column by column);
 *  - "counts" strings are the COCO API's compressed form (6 bits a character from '0',
 *    deltas from the run two before after the third);
 *  - the masks of one label are merged (union); then the labels, in ascending order, are
 *    merged into one run list of label values exactly as DALI's loop does it (where two
 *    labels overlap, the later one wins unless the earlier one's run ends right there), and
 *    written out row-major into the [h, w] int32 mask.
 */
#ifndef DALIC_KERNELS_COCO_RLE_H
#define DALIC_KERNELS_COCO_RLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct coco_rle {
	uint32_t h, w;
	uint32_t m;     /* runs */
	uint32_t *cnts; /* m run lengths, malloc'd */
} coco_rle_t;

/* From a "counts" string. -1 with a message when the string is malformed. */
int dalic_coco_rle_from_string(coco_rle_t *r, const char *s, uint32_t h, uint32_t w, char *err,
                               size_t errn);
void dalic_coco_rle_free(coco_rle_t *r);

/* One sample's input to the pixelwise mask. */
typedef struct coco_mask_in {
	uint32_t h, w;                 /* the image's */
	const int32_t *labels;         /* nbox labels, one per annotation (mask index) */
	int64_t nbox;
	const int32_t *polys;          /* npoly rows [mask_idx, first_vertex, end_vertex) */
	int64_t npoly;
	const float *verts;            /* 2 per vertex */
	bool ratio;                    /* vertices are relative: times w and h (in float) */
	int64_t nvert;
	const coco_rle_t *pool;        /* RLE segmentations: */
	const int64_t *rle_ref;        /* nrle entries of the pool ... */
	const int32_t *rle_idx;        /* ... and their mask indices */
	int64_t nrle;
} coco_mask_in_t;

/* Writes the h * w mask. -1 with a message when the annotations cannot make one (an RLE of
 * another size or not covering the image, a polygon naming a mask or vertex that is not
 * there, a negative label, out of memory). */
int dalic_coco_pixelwise(const coco_mask_in_t *in, int32_t *mask, char *err, size_t errn);

#endif
