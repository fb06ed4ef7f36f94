/*
 * random_bbox_crop's window search (DALI 2.4's RandomBBoxCropImpl, bbox_crop.cc), kept apart
 * from the operator form (kernels/cpu/detection/random_bbox_crop.c): the arguments, the boxes
 * read in any bbox_layout, the search with its draws in DALI's order on the sample's Philox
 * generator, the kept boxes written back remapped to the window.
 */
#ifndef DALIC_KERNELS_RBC_SEARCH_H
#define DALIC_KERNELS_RBC_SEARCH_H

#include "engine/kernel.h"

#define RBC_MAX_DIM 3
/* Attempts after which dalic gives up where DALI would search forever. */
#define RBC_MAX_ATTEMPTS 1000000

typedef struct rbc_box {
	float lo[RBC_MAX_DIM], hi[RBC_MAX_DIM];
} rbc_box_t;

typedef struct rbc_option {
	bool no_crop;
	float threshold;
} rbc_option_t;

typedef struct rbc_result {
	rbc_box_t crop;  /* the window as output: relative, or absolute with crop_shape */
	rbc_box_t rel;   /* the window relative to the input: boxes are remapped to it */
	int64_t first_kept, num_kept; /* the kept boxes' indices: kept[first_kept ..] */
} rbc_result_t;

typedef struct rbc {
	/* arguments */
	int num_attempts, total_num_attempts;
	bool has_crop_shape, all_above, iou, has_prune, quiet;
	float prune, scale_min, scale_max;
	float ar_min[3], ar_max[3];
	int num_ar;
	rbc_option_t *options;
	int num_options;
	/* this batch */
	int ndim;
	bool start_shape; /* boxes as start and shape (xyWH) rather than start and end */
	int perm[2 * RBC_MAX_DIM]; /* ordered coordinate k (lo..., hi...) is layout position perm[k] */
	rbc_result_t *results;
	int cap_results;
	int32_t *kept;
	int64_t cap_kept;
	rbc_box_t *boxes; /* one sample's boxes, read */
	int64_t cap_boxes;
} rbc_t;

/* Reads and checks the arguments as DALI's constructor does. */
int dalic_rbc_init(dalic_op_ctx_t *ctx, rbc_t *r);
void dalic_rbc_fini(rbc_t *r);
/* Checks the inputs and runs the search for every sample of the batch (results, kept). */
int dalic_rbc_search_batch(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r);
/* Writes sample i's kept boxes, remapped to its window, in bbox_layout. */
void dalic_rbc_write_boxes(const rbc_t *r, int i, const float *in, float *out);

#endif
