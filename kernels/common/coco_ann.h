/*
 * COCO annotation files for readers.coco, read as DALI's CocoLoader reads them (through
 * cJSON): "images" (id, file_name, width, height), "categories" (ids renumbered 1.. in the
 * order listed, the first of a repeated id kept; an unknown id becomes 0, as DALI's map
 * lookup) and "annotations" (image_id, category_id, bbox [x, y, w, h], iscrowd, and polygon
 * segmentations). An annotation is kept when its w and h are both >= size_threshold (and
 * iscrowd is 0 unless include_iscrowd); ltrb turns the box into [l, t, r, b] first, ratio
 * divides x by the image's width and y by its height (boxes and vertices).
 *
 * Samples: the images sorted by id, or those named by `images` (in that order, repeats
 * repeated, names missing from the file dropped), each with its annotations in file order;
 * skip_empty drops images without any. Polygons are [mask_idx, first_vertex, end_vertex)
 * rows over the sample's vertices; an RLE segmentation gives no polygon. With `rles`
 * (pixelwise masks), RLE segmentations ({"size": [h, w], "counts": string or list}) are read
 * too, each sample listing its masks (references into the pool, with their mask indices).
 */
#ifndef DALIC_KERNELS_COCO_ANN_H
#define DALIC_KERNELS_COCO_ANN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/common/coco_rle.h"

typedef struct coco_opts {
	float size_threshold;
	bool include_iscrowd, ltrb, ratio, skip_empty, remap, polygons, rles;
	const char *const *images; /* NULL: every image, by id */
	int nimages;
} coco_opts_t;

typedef struct coco_sample {
	char *file_name;
	int32_t id, width, height;
	int64_t box0, nbox;   /* boxes/labels [box0, box0 + nbox) */
	int64_t poly0, npoly; /* polygon rows */
	int64_t vert0, nvert; /* vertices */
	int64_t rle0, nrle;   /* RLE masks */
} coco_sample_t;

typedef struct coco_ann {
	coco_sample_t *samples;
	int64_t nsamples;
	float *boxes;    /* 4 per box */
	int32_t *labels; /* 1 per box */
	int32_t *polys;  /* 3 per polygon */
	float *verts;    /* 2 per vertex */
	int64_t nboxes, npolys, nverts;
	coco_rle_t *pool;  /* the RLE masks read */
	int64_t npool;
	int64_t *rle_ref;  /* per sample mask: its pool entry ... */
	int32_t *rle_idx;  /* ... and mask index */
	int64_t nrles;
} coco_ann_t;

/* Parses `path`; errors name the file and the entry. */
int dalic_coco_ann_load(coco_ann_t *a, const char *path, const coco_opts_t *o, char *err,
                        size_t errn);
void dalic_coco_ann_free(coco_ann_t *a);

#endif
