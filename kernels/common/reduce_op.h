/*
 * The reductions.* operators' shared setup and run (DALI's Reduce and ReduceWithMeanInput):
 * axes / axis_names / keep_dims resolved per sample, the output type checked against what
 * DALI's kernels accept, one sample reduced per task, then DALI's postprocessing (the mean's
 * 1/n, the root of rms and std_dev).
 */
#ifndef DALIC_KERNELS_REDUCE_OP_H
#define DALIC_KERNELS_REDUCE_OP_H

#include "kernels/common/reduce.h"

/* Output types an operator accepts besides the default: the input's own type, its 64-bit
 * widening (uint64 / int64), float. */
enum { DALIC_REDUCE_SAME = 1, DALIC_REDUCE_WIDE = 2, DALIC_REDUCE_FLOAT = 4 };

/* What one reductions.* operator does. */
typedef struct dalic_reduce_op {
	dalic_reduce_kind_t kind;
	unsigned allowed;   /* DALIC_REDUCE_* output types accepted with `dtype` */
	dalic_dtype_t dflt; /* default output: a type, or DALIC_NO_TYPE for the input's own */
	bool dflt_wide;     /* default output: the 64-bit widening of integers */
	bool scale, root;   /* divide by the reduced count; then take the square root */
	bool mean_input;    /* std_dev / variance: input 1 is the mean, `ddof` applies */
} dalic_reduce_op_t;

int dalic_reduce_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_reduce_op_t *op);
int dalic_reduce_op_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                               const dalic_reduce_op_t *op);

/* The schema rows every reduction has. */
#define DALIC_REDUCE_AXES_ARGS                                                                     \
	{"axes", DALIC_ARG_INT_LIST, "None",                                                       \
	 "Axes to reduce (negative: from the end); all when not set, none when empty."},           \
	    {"axis_names", DALIC_ARG_LAYOUT, "None", "Axes to reduce, by layout name."},           \
	{                                                                                          \
		"keep_dims", DALIC_ARG_BOOL, "False", "Keep reduced dimensions with extent 1."     \
	}

#endif
