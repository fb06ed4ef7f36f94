/*
 * readers.coco's preprocessed annotations: DALI's directory of .dat files
 * (save_preprocessed_annotations / preprocessed_annotations), written and read in DALI's
 * format so either side reads the other's: each array file is a uint32 count then the raw
 * little-endian elements (offsets, counts, labels, heights, widths, original_ids,
 * masks_rles_idx: int32; boxes: float, 4 per box; polygon_data: int32 triples; vertices:
 * float pairs; *_offset and *_count of polygons, vertices and masks: int64 per sample;
 * masks_rles: per mask uint64 h, w, m then m uint32 runs); filenames.dat is one file name a
 * line. An empty array has no file. Polygons and vertices are there with polygon or pixelwise
 * masks, the masks with pixelwise masks, the ids with image_ids.
 */
#ifndef DALIC_KERNELS_COCO_META_H
#define DALIC_KERNELS_COCO_META_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/common/coco_ann.h"

typedef struct coco_meta_parts {
	bool polygons, masks, ids;
} coco_meta_parts_t;

int dalic_coco_meta_save(const coco_ann_t *a, const char *dir, coco_meta_parts_t parts,
                         char *err, size_t errn);
/* Reads dir into a (new); errors name the file. */
int dalic_coco_meta_load(coco_ann_t *a, const char *dir, coco_meta_parts_t parts, char *err,
                         size_t errn);

#endif
