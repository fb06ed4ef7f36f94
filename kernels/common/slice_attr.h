/*
 * Slice windows for slice and decoders.image_slice (DALI's SliceAttr, slice_attr.h): the
 * window of each sample comes either from named arguments — `start` or `rel_start`, and one
 * of `end`, `rel_end`, `shape`, `rel_shape`, constants or per-sample argument inputs (int32
 * for the absolute ones, float for the relative ones) — or from two positional inputs,
 * anchor and shape (int32, int64 or float; float ones are fractions of the extent unless
 * normalized_anchor / normalized_shape say otherwise). The values are listed per axis, the
 * axes named by `axis_names` (default "WH") or given by index in `axes` (negative counts from
 * the back); the other dims keep their whole extent.
 *
 * Coordinates are computed in double, from float32 for the relative and float values as DALI
 * stores them, and rounded half away from zero (llround): anchor = round(start), extent =
 * round(end) - anchor. A window may reach outside the input; out_of_bounds_policy decides
 * (dalic_slice_oob_apply): 'error', 'pad' / 'constant' (fill values), 'trim_to_shape', or one
 * of DALI 2.4's border modes, 'edge' / 'clamp', 'reflect' / 'reflect_1001', 'reflect_101' and
 * 'wrap' ('error' and 'trim_to_shape' exactly so written, the others in any letter case, as
 * DALI reads them). A constant of one value stands for every axis.
 */
#ifndef DALIC_KERNELS_SLICE_ATTR_H
#define DALIC_KERNELS_SLICE_ATTR_H

#include "engine/kernel.h"
#include "kernels/common/axes.h"
#include "kernels/common/img_window.h"
#include "kernels/common/slice_copy.h"

typedef enum {
	SLICE_OOB_ERROR,
	SLICE_OOB_TRIM,
	SLICE_OOB_PAD, /* and the border modes below: the window stays as it is */
	SLICE_OOB_CLAMP,
	SLICE_OOB_REFLECT_1001,
	SLICE_OOB_REFLECT_101,
	SLICE_OOB_WRAP,
} slice_oob_t;

/* The argument names of a slice window (DALI's NamedSliceAttr): slice's, or a reader's
 * roi_start / rel_roi_start / ... with roi_axes and no layout names. */
typedef struct slice_attr_names {
	const char *start, *rel_start, *end, *rel_end, *shape, *rel_shape;
	const char *axes, *axis_names; /* axis_names may be NULL */
} slice_attr_names_t;

typedef enum {
	SLICE_END_NONE,
	SLICE_END_ABS,
	SLICE_END_REL,
	SLICE_SHAPE_ABS,
	SLICE_SHAPE_REL
} slice_end_t;

typedef struct slice_attr {
	const char *start; /* the start argument given ("start", "rel_start") or NULL */
	const char *end;   /* the end or shape argument given or NULL */
	bool start_rel;    /* start is relative */
	slice_end_t end_kind;
	bool named;      /* start or end present: no positional inputs allowed */
	axes_arg_t axes; /* axis_names win over axes; per-sample axes are refused */
	int naxes;       /* values per coordinate argument (with all-if-empty axes: per sample) */
	bool normalized_anchor, normalized_shape;
	int data_inputs; /* inputs before anchor and shape: 1 */
} slice_attr_t;

/* Reads the slice arguments; errors (mutually exclusive arguments) name the operator. */
int dalic_slice_attr_init(const dalic_op_ctx_t *ctx, slice_attr_t *a);
/* The same under other names; no axes given means every dim (a reader's ROI). */
int dalic_slice_attr_init_named(const dalic_op_ctx_t *ctx, slice_attr_t *a,
                                const slice_attr_names_t *names);
/* Checks that the inputs match the form: named arguments and no anchor/shape inputs, or
 * both inputs and no named arguments. */
int dalic_slice_attr_check_inputs(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                  const slice_attr_t *a);
/* The window of sample i, whose shape is `shape` (ndim dims, layout `layout`, may be ""). */
int dalic_slice_attr_window(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const slice_attr_t *a,
                            int i, const char *layout, int ndim, const int64_t *shape,
                            img_window_t *w);
/* Reads out_of_bounds_policy; an unknown one is an error naming the operator. */
int dalic_slice_oob_parse(const dalic_op_ctx_t *ctx, slice_oob_t *out);
/* DALI's GetOutOfBoundsPolicy for readers: only 'error', 'pad' and 'trim_to_shape'. */
int dalic_slice_oob_parse_basic(const dalic_op_ctx_t *ctx, slice_oob_t *out);
/* The border mode of the copy for a policy (CONSTANT for error, trim and pad). */
slice_border_t dalic_slice_oob_border(slice_oob_t oob);
/* Applies the policy to the window of sample i: 'error' fails for a window reaching outside,
 * 'trim_to_shape' cuts it to the input, the others leave it (a border mode needs a non-empty
 * input). */
int dalic_slice_oob_apply(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, slice_oob_t oob,
                          int ndim, const int64_t *shape, img_window_t *w);

/* The arguments both slice operators take, for schema tables. */
#define SLICE_ATTR_ARGS                                                                            \
	{"axes", DALIC_ARG_INT_LIST, "[1, 0]",                                                     \
	 "Dimension indices the slice values refer to (negative counts from the back).",           \
	 .tensor = true},                                                                          \
	    {"axis_names", DALIC_ARG_LAYOUT, "'WH'",                                               \
	     "Layout letters the slice values refer to; preferred over `axes`."},                  \
	    {"normalized_anchor", DALIC_ARG_BOOL, "True",                                          \
	     "A float anchor input holds fractions of the extents."},                              \
	    {"normalized_shape", DALIC_ARG_BOOL, "True",                                           \
	     "A float shape input holds fractions of the extents."},                               \
	    {"start", DALIC_ARG_INT_LIST, "None", "Start coordinates of the slice.",               \
	     .tensor = true},                                                                      \
	    {"rel_start", DALIC_ARG_FLOAT_LIST, "None",                                            \
	     "Start coordinates as fractions of the extents.", .tensor = true},                    \
	    {"end", DALIC_ARG_INT_LIST, "None", "End coordinates (exclusive).", .tensor = true},   \
	    {"rel_end", DALIC_ARG_FLOAT_LIST, "None",                                              \
	     "End coordinates as fractions of the extents.", .tensor = true},                      \
	    {"shape", DALIC_ARG_INT_LIST, "None", "Extents of the slice.", .tensor = true},        \
	{                                                                                          \
		"rel_shape", DALIC_ARG_FLOAT_LIST, "None", "Extents as fractions of the input's.", \
		    .tensor = true                                                                 \
	}

#endif
