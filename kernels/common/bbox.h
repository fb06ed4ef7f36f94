/*
 * Bounding boxes shared by the box operators (bb_flip, bbox_paste, box_encoder): float
 * coordinates, 4 per 2-D box, as [l, t, r, b] (ltrb) or [x, y, w, h] (xywh).
 */
#ifndef DALIC_KERNELS_BBOX_H
#define DALIC_KERNELS_BBOX_H

#include "engine/kernel.h"

/* Checks `in` holds boxes: FLOAT (DALI: "Bounding box in wrong format") with a multiple of 4
 * values in every sample. */
int dalic_bbox_check(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in);
/* Checks the input boxes, then gives output 0 the input's type, shapes, layout and sources. */
int dalic_bbox_setup_like_input(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);

#endif
