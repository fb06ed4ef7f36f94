/*
 * Predicate reading and input-restriction messages of the conditional operators (see
 * cond_common.h). The texts are DALI's (dali/pipeline/operator/builtin/conditional/
 * validation.cc) so scripts see the errors they would see under DALI.
 */
#include "kernels/common/cond_common.h"

#include "engine/dtype.h"

#include <stdio.h>
#include <string.h>

static const char *const SUGGESTION =
    "\n\nThis input restriction allows the logical expressions to always return scalar "
    "boolean outputs and to be used in unambiguous way in DALI conditionals (`if` "
    "statements). You can set the `dtype` parameter of some operators to "
    "`nvidia.dali.types.BOOL` or use comparison operators which always return booleans.\n"
    "If you need to process inputs of higher dimensionality, different type, or device "
    "placement, you may use bitwise arithmetic operators `&`, `|` or comparison operator "
    "(`== 0`) to emulate logical `and`, `or` and `not` expressions.  Those operations "
    "performed on boolean inputs are equivalent to logical expressions. Keep in mind that "
    "such expression would be evaluated eagerly.";

const char *dalic_cond_type_name(dalic_dtype_t t)
{
	return dalic_dtype_cname(t);
}

int dalic_cond_predicate(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *pred,
                         int i, bool *out)
{
	if (!dalic_dtype_is_numeric(pred->dtype))
		return dalic_op_fail(ctx, ws, i, "Can't evaluate %s as boolean value.",
		                     dalic_cond_type_name(pred->dtype));
	if (dalic_batch_sample_elems(pred, i) < 1)
		return dalic_op_fail(ctx, ws, i, "the predicate sample is empty");
	*out = dalic_dtype_load_f64(pred->dtype, pred->ptrs[i], 0) != 0;
	return DALIC_OK;
}

static void cond_preamble(char *buf, size_t n, const char *name, bool enforce_bool)
{
	if (!strcmp(name, "if"))
		snprintf(buf, n,
		         "Conditions inside `if` statements are restricted to scalar (0-d "
		         "tensors) inputs%s, that are placed on CPU.",
		         enforce_bool ? " of `bool` type" : "");
	else
		snprintf(buf, n,
		         "Logical expression `%s` is restricted to scalar (0-d tensors) "
		         "inputs%s, that are placed on CPU.",
		         name, enforce_bool ? " of `bool` type" : "");
}

static void cond_where_mention(char *buf, size_t n, const char *name, const char *where)
{
	if (!strcmp(name, "if"))
		snprintf(buf, n, " as a condition of the `if` statement.");
	else if (!strcmp(name, "and") || !strcmp(name, "or"))
		snprintf(buf, n, " as the %s argument in logical expression.", where);
	else
		snprintf(buf, n, " in logical expression.");
}

int dalic_cond_check_input(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in,
                           const char *name, const char *where, bool enforce_bool)
{
	char pre[200], at[100];
	cond_preamble(pre, sizeof pre, name, enforce_bool);
	cond_where_mention(at, sizeof at, name, where);
	if (in->ndim != 0)
		return dalic_op_fail(ctx, ws, -1, "%s Got a %d-d input%s%s", pre, in->ndim, at,
		                     SUGGESTION);
	if (enforce_bool && in->dtype != DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1, "%s Got an input of type %s%s%s", pre,
		                     dalic_cond_type_name(in->dtype), at, SUGGESTION);
	return DALIC_OK;
}

int dalic_cond_gpu_error(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
                         const char *where, bool enforce_bool)
{
	char pre[200], at[100];
	cond_preamble(pre, sizeof pre, name, enforce_bool);
	cond_where_mention(at, sizeof at, name, where);
	return dalic_op_fail(ctx, ws, -1, "%s Got a GPU input%s%s", pre, at, SUGGESTION);
}
