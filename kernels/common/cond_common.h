/*
 * Shared by the conditional operators (cond_split.c, cond_merge.c, cond_validate_logical.c,
 * cond_not.c): reading a predicate sample as a boolean the way DALI narrows it, and DALI's
 * input restriction messages for `if` conditions and logical expressions.
 */
#ifndef DALIC_KERNELS_CPU_COND_COMMON_H
#define DALIC_KERNELS_CPU_COND_COMMON_H

#include "engine/kernel.h"

/* DALI's name of a type in messages ("uint8", "float", "double", "bool"...). */
const char *dalic_cond_type_name(dalic_dtype_t t);
/* Sample i of a predicate batch (its first element) narrowed to bool. Fails with "Can't
 * evaluate <type> as boolean value." for types that are not logically evaluatable. */
int dalic_cond_predicate(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *pred,
                         int i, bool *out);
/* DALI's EnforceConditionalInputKind: 0-d samples, and bool type when `enforce_bool`.
 * `name` is "if", "and", "or" or "not"; `where` "left" / "right" for and / or. */
int dalic_cond_check_input(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in,
                           const char *name, const char *where, bool enforce_bool);
/* DALI's ReportGpuInputError for the GPU variants of ValidateLogical and Not_. */
int dalic_cond_gpu_error(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
                         const char *where, bool enforce_bool);

#endif
