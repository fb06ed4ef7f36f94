/*
 * Validation of numeric argument values shared by the operators: a value that came from a
 * script, a protobuf or an argument input may be NaN, infinite or too large for the integer
 * it becomes, and converting such a double to an integer is undefined behaviour in C. These
 * helpers turn them into errors naming the operator, the argument and the sample.
 */
#ifndef DALIC_KERNELS_ARG_CHECK_H
#define DALIC_KERNELS_ARG_CHECK_H

#include "engine/kernel.h"

/* Fails unless all n values of argument `name` (for sample i) are finite. */
int dalic_argck_finite(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
		       const double *v, int n);
/* v as an integer (truncated toward zero, as C++'s static_cast does), failing unless it is
 * finite and within +-2**62. */
int dalic_argck_to_i64(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                       double v, int64_t *out);
/* Fails unless lo <= v <= hi (NaN fails). */
int dalic_argck_range(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
		      double v, double lo, double hi);

#endif
