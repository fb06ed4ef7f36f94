/*
 * Affine transforms shared by the transforms.* generators, coord_transform and warp_affine.
 *
 * A transform of `ndim` dimensions travels as an ndim x (ndim + 1) FLOAT tensor [M | T]; in
 * here it is a homogeneous (ndim + 1)^2 row-major float matrix whose last row is [0 ... 0 1].
 * Arithmetic is float and in DALI's order (geom/mat.h: products are dot products of rows and
 * columns, starting with the first term), so results match DALI's bit for bit.
 *
 * The generator base (DALI's TransformBaseOp): each operator defines one matrix per sample
 * from its arguments (dalic_xform_def_t); with an input transform the output is M·in (or in·M
 * with reverse_order). Every matrix is made in setup, where bad arguments fail, and run_sample
 * writes the rows. Output: FLOAT (ndim, ndim + 1) per sample, no layout.
 */
#ifndef DALIC_KERNELS_XFORM_H
#define DALIC_KERNELS_XFORM_H

#include "engine/kernel.h"

#define DALIC_XFORM_MAX_NDIM 6
#define DALIC_XFORM_MAT_SIZE ((DALIC_XFORM_MAX_NDIM + 1) * (DALIC_XFORM_MAX_NDIM + 1))

/* ---- matrices -------------------------------------------------------------------------------- */

/* m = identity of (n + 1)^2 (n = ndim). */
void dalic_xform_identity(int ndim, float *m);
/* out = a·b, homogeneous (ndim + 1)^2; out may alias neither a nor b. */
void dalic_xform_mul(int ndim, const float *a, const float *b, float *out);
/* The inverse of the affine map [M | T] (ndim x (ndim + 1), ndim 2 or 3): [M⁻¹ | −M⁻¹·T], as
 * DALI's affine_mat_inv (2-D: adjugate / determinant; 3-D: Gauss–Jordan with fma). Returns
 * false for a singular M. */
bool dalic_xform_affine_inv(int ndim, const float *m, float *out);

/* ---- arguments ------------------------------------------------------------------------------- */

/* Argument `name` for sample i as floats: a list argument, or sample i of its argument input,
 * which must be FLOAT with at most `max_rank` dimensions and the same shape in every sample
 * (DALI's ArgValue). *n gets the count (at most `max`); `shape` (may be NULL) the argument
 * input's sample shape, with *rank its rank (-1 for a list argument). */
int dalic_xform_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                    int max_rank, float *out, int max, int *n, int64_t *shape, int *rank);
/* Given as a value or connected to an argument input (usable in init, before any batch). */
bool dalic_xform_arg_defined(const dalic_op_ctx_t *ctx, const char *name);
/* Given as a value or as an argument input. */
bool dalic_xform_arg_present(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name);
/* `name` (count n) must have exactly `want` values: DALI's message otherwise. */
int dalic_xform_arg_count(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                          int n, int want);
/* With a `center` argument (ndim values) for sample i, sets m's translation column to
 * c − R·c (R: m's linear part): a transform about the center, as DALI's rotation and shear. */
int dalic_xform_about_center(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim,
                             float *m);

/* ---- the generator base ---------------------------------------------------------------------- */

typedef struct dalic_xform_def {
	int min_ndim, max_ndim; /* DALI's SupportedDims */
	/* The transform's ndim from its arguments for this batch; in_ndim is the input
	 * transform's (0 without an input). */
	int (*ndim)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim);
	/* Sample i's matrix; m is the identity on entry. */
	int (*define)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m);
} dalic_xform_def_t;

/* An operator's state starts with this (kernel state_size = sizeof(dalic_xform_t)). */
typedef struct dalic_xform {
	const dalic_xform_def_t *def;
	int ndim;
	float *mats; /* max_batch_size matrices of DALIC_XFORM_MAT_SIZE floats */
} dalic_xform_t;

int dalic_xform_init(dalic_op_ctx_t *ctx, const dalic_xform_def_t *def);
int dalic_xform_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
int dalic_xform_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread);
void dalic_xform_fini(dalic_op_ctx_t *ctx);

/* Checks batch `in` holds transforms: FLOAT, 2-D, one shape (n, n + 1) for every sample, n in
 * [1, 6]; *ndim gets n. `what` names it in messages ("the input"). */
int dalic_xform_check_input(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                            const dalic_batch_t *in, int *ndim);

/* An operator's init (prefix_init) and kernel (prefix_kernel) for its prefix_def. */
#define DALIC_XFORM_KERNEL(prefix)                                                                 \
	static int prefix##_init(dalic_op_ctx_t *ctx)                                              \
	{                                                                                          \
		return dalic_xform_init(ctx, &prefix##_def);                                       \
	}                                                                                          \
	static const dalic_kernel_t prefix##_kernel = {                                            \
	    .state_size = sizeof(dalic_xform_t),                                                   \
	    .init = prefix##_init,                                                                 \
	    .setup = dalic_xform_setup,                                                            \
	    .run_sample = dalic_xform_run_sample,                                                  \
	    .fini = dalic_xform_fini,                                                              \
	}

/* The common arguments of the generators (DALI's TransformAttr). */
#define DALIC_XFORM_ARGS                                                                           \
	{                                                                                          \
		"reverse_order", DALIC_ARG_BOOL, "False",                                          \
		    "With an input transform: apply it after this one (in·M) instead of before "  \
		    "(M·in)."                                                                     \
	}

#endif
