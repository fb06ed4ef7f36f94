/*
 * Arithmetic, comparisons, math functions and indexing on DataNodes (docs/dali-behaviour.md §6.12).
 * Python operators and nvidia.dali.math functions become one ArithmeticGenericOp each, with
 * `expression_desc` "<op>(<operands>)" where operands are `&k` (k-th tensor input) or
 * `$k:<type>` (k-th integer / real constant; Python int -> int32, float -> float32, bool ->
 * bool, a ScalarConstant its own dtype), and `integer_constants` / `real_constants` only when
 * there are some. Tensor-like constants (lists) become Constant operators first. If any
 * tensor operand is on the GPU, the operator runs there and every operand is moved with
 * .gpu(). Indexing lowers to TensorSubscript / SubscriptDimCheck / ExpandDims as DALI's
 * DataNode.__getitem__ does.
 */
#include "frontend/script/dali/sdarith.h"

#include "frontend/script/dali/sdcond.h"
#include "frontend/script/dali/sdconst.h"
#include "frontend/script/dali/sdnp.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include "engine/dtype.h"

#include <string.h>

const char *dalic_sdarith_binop_name(pyop_t op)
{
	switch (op) {
	case OP_PLUS:
		return "add";
	case OP_MINUS:
		return "sub";
	case OP_STAR:
		return "mul";
	case OP_SLASH:
		return "fdiv";
	case OP_DSLASH:
		return "div";
	case OP_PERCENT:
		return "mod";
	case OP_DSTAR:
		return "pow";
	case OP_AMP:
		return "bitand";
	case OP_PIPE:
		return "bitor";
	case OP_CARET:
		return "bitxor";
	default:
		return NULL;
	}
}

const char *dalic_sdarith_cmp_name(pycmp_t op)
{
	switch (op) {
	case CMP_EQ:
		return "eq";
	case CMP_NE:
		return "neq";
	case CMP_LT:
		return "lt";
	case CMP_LE:
		return "leq";
	case CMP_GT:
		return "gt";
	default:
		return "geq";
	}
}

static const char *sdarith_type_desc(int dtype)
{
	return dalic_dtype_is_numeric(dtype) ? dalic_dtype_short(dtype) : NULL;
}

int dalic_sdarith_to_device(pyinterp_t *I, const pynode_t *at, pyval_t *node, const char *device,
                            pyval_t **out)
{
	if (!strcmp(dalic_sdval_node(node)->device, device)) {
		*out = node;
		return DALIC_OK;
	}
	sdpipe_t *P = dalic_sdval_node(node)->pipe;
	if (!strcmp(device, "cpu") && !P->exec_dynamic)
		return dalic_pyeval_error(
		    I, at, DALIC_EGRAPH,
		    "RuntimeError: This pipeline doesn't support transition from GPU to "
		    "CPU.\nGPU->CPU transitions require dynamic execution, which %s.",
		    P->dynamic_off_reason ? P->dynamic_off_reason
		                          : "was explicitly disabled in this pipeline");
	pyval_t *src = node;
	if (P->cond && dalic_sdali_state(I)->tracing)
		DALIC_TRY(dalic_sdcond_preprocess(I, at, node, &src));
	pyval_t *moved = dalic_sdval_new_node(I->a, dalic_sdval_node(src)->name, device, P);
	if (!moved)
		return dalic_pyeval_oom(I, at);
	if (P->cond && dalic_sdali_state(I)->tracing)
		DALIC_TRY(dalic_sdcond_register(I, moved, false));
	*out = moved;
	return DALIC_OK;
}

int dalic_sdarith_op(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **inputs, int n,
                     pyval_t **out)
{
	const dalic_schema_t *s = dalic_schema_find("ArithmeticGenericOp");
	if (!s)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "arithmetic on DataNodes needs the ArithmeticGenericOp operator, which "
		    "this dalic build does not have yet");
	pyval_t **edges = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1));
	pyval_t *ints = dalic_pyval_list(I->a, 2), *reals = dalic_pyval_list(I->a, 2);
	if (!edges || !ints || !reals)
		return dalic_pyeval_oom(I, at);
	int ne = 0;
	pybuf_t desc = {0};
	dalic_pybuf_printf(&desc, "%s(", name);
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < n; i++) {
		pyval_t *v = inputs[i];
		if (i)
			dalic_pybuf_puts(&desc, " ");
		if (dalic_sdnp_is(v))
			rc = dalic_sdnp_operand(I, at, v, &v);
		else if (v->kind == PV_LIST || v->kind == PV_TUPLE)
			rc = dalic_sdconst_node(I, at, v, -1, NULL, &v);
		if (rc)
			break;
		if (dalic_sdval_node(v)) {
			dalic_pybuf_printf(&desc, "&%d", ne);
			edges[ne++] = v;
			continue;
		}
		int dtype;
		pyval_t *val = v;
		if (dalic_sdval_sconst(v)) {
			dtype = dalic_sdval_sconst(v)->dtype;
			val = dalic_sdval_sconst(v)->value;
		} else if (v->kind == PV_BOOL) {
			dtype = DALIC_BOOL;
		} else if (v->kind == PV_INT) {
			dtype = DALIC_INT32;
		} else if (v->kind == PV_FLOAT) {
			dtype = DALIC_FLOAT; /* DALI's current limitation: float32 constants */
		} else if (v->kind == PV_OPAQUE) {
			rc = dalic_pyeval_opaque_error(I, at, v, "arithmetic operand");
			break;
		} else {
			rc = dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Argument to arithmetic operation not supported.Got "
			    "<class '%s'>, expected a return value from otherDALI Operator  or a "
			    "constant value of type 'bool', 'int', 'float' or "
			    "'nvidia.dali.types.Constant'.",
			    dalic_pyval_type_name(v));
			break;
		}
		const char *td = sdarith_type_desc(dtype);
		if (!td) {
			rc = dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Constant argument to arithmetic operation not supported. "
			    "Got a constant of type %s",
			    dalic_dtype_name((dalic_dtype_t)dtype));
			break;
		}
		bool integral =
		    dtype == DALIC_BOOL || (dtype >= DALIC_UINT8 && dtype <= DALIC_INT64);
		pyval_t *list = integral ? ints : reals;
		dalic_pybuf_printf(&desc, "$%d:%s", list->list->n, td);
		pyval_t *num = integral
		                   ? dalic_pyval_int(I->a, val->kind == PV_BOOL  ? val->b
		                                           : val->kind == PV_INT ? val->i
		                                                                 : (int64_t)val->f)
		                   : dalic_pyval_float(I->a, dalic_pyval_as_double(val));
		if (!num || dalic_pyval_list_append(I->a, list, num))
			rc = dalic_pyeval_oom(I, at);
	}
	dalic_pybuf_puts(&desc, ")");
	pyval_t *expr = rc || desc.oom ? NULL : dalic_pyval_cstr(I->a, desc.s);
	dalic_pybuf_free(&desc);
	DALIC_TRY(rc);
	if (!expr)
		return dalic_pyeval_oom(I, at);
	const char *device = "cpu";
	for (int i = 0; i < ne; i++)
		if (!strcmp(dalic_sdval_node(edges[i])->device, "gpu"))
			device = "gpu";
	if (!strcmp(device, "gpu"))
		for (int i = 0; i < ne; i++)
			DALIC_TRY(dalic_sdarith_to_device(I, at, edges[i], "gpu", &edges[i]));
	const char *names[4] = {"device", "expression_desc"};
	pyval_t *vals[4] = {dalic_pyval_cstr(I->a, device), expr};
	int nkw = 2;
	if (!vals[0])
		return dalic_pyeval_oom(I, at);
	if (ints->list->n) {
		names[nkw] = "integer_constants";
		vals[nkw++] = ints;
	}
	if (reals->list->n) {
		names[nkw] = "real_constants";
		vals[nkw++] = reals;
	}
	/* DALI builds it through the ops API, ops._ArithmeticGenericOp(...)(*inputs), with the
	 * module nvidia.dali.math and the expression's function as display name */
	sdopcall_t c = {.schema = s,
	                .module = "nvidia.dali.math",
	                .display = name,
	                .api_name = dalic_pyarena_printf(I->a, "nvidia.dali.math.%s", name),
	                .ops_api = true,
	                .inputs = edges,
	                .ninputs = ne,
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = nkw};
	if (!c.api_name)
		return dalic_pyeval_oom(I, at);
	return dalic_sdops_invoke(I, at, &c, out);
}

/* ---- nvidia.dali.math ----------------------------------------------------------------- */

static const struct {
	const char *name;
	int nargs;
} math_fns[] = {
    {"abs", 1},  {"fabs", 1}, {"floor", 1}, {"ceil", 1},  {"pow", 2},   {"fpow", 2},
    {"min", 2},  {"max", 2},  {"clamp", 3}, {"sqrt", 1},  {"rsqrt", 1}, {"cbrt", 1},
    {"exp", 1},  {"log", 1},  {"log2", 1},  {"log10", 1}, {"sin", 1},   {"cos", 1},
    {"tan", 1},  {"asin", 1}, {"acos", 1},  {"atan", 1},  {"atan2", 2}, {"sinh", 1},
    {"cosh", 1}, {"tanh", 1}, {"asinh", 1}, {"acosh", 1}, {"atanh", 1},
};

static int sdarith_dali_math(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	int i = (int)(intptr_t)self->builtin.data;
	if (args->nkw || args->npos != math_fns[i].nargs)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL, "TypeError: math.%s() takes %d argument%s",
		    math_fns[i].name, math_fns[i].nargs, math_fns[i].nargs == 1 ? "" : "s");
	return dalic_sdarith_op(I, at, math_fns[i].name, args->pos, args->npos, out);
}

int dalic_sdarith_math_module(pyinterp_t *I, pyval_t *mod)
{
	for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++) {
		/* the builtin is its own receiver so dali_math can read its table index */
		pyval_t *f = dalic_pybi_make(I, math_fns[i].name, sdarith_dali_math, NULL,
		                             (void *)(intptr_t)i);
		if (!f)
			return DALIC_ENOMEM;
		f->builtin.self = f;
		if (dalic_pydict_set_str(I->a, mod->mod->attrs, math_fns[i].name, f))
			return DALIC_ENOMEM;
	}
	return DALIC_OK;
}

/* ---- indexing ------------------------------------------------------------------------- */

static bool sdarith_is_newaxis(const pyval_t *v)
{
	return v->kind == PV_BUILTIN && !strcmp(v->builtin.name, "newaxis");
}

static int sdarith_sub_op(pyinterp_t *I, const pynode_t *at, const char *schema_name,
                          const char *fn, pyval_t *input, const char **names, pyval_t **vals,
                          int nkw, pyval_t **out)
{
	const dalic_schema_t *s = dalic_schema_find(schema_name);
	if (!s)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "indexing a DataNode needs the %s operator, which dalic does not "
		    "support yet",
		    schema_name);
	char *api = dalic_pyarena_printf(I->a, "nvidia.dali.fn.%s", fn);
	if (!api)
		return dalic_pyeval_oom(I, at);
	sdopcall_t c = {.schema = s,
	                .module = "nvidia.dali.fn",
	                .display = fn,
	                .api_name = api,
	                .inputs = &input,
	                .ninputs = 1,
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = nkw};
	return dalic_sdops_invoke(I, at, &c, out);
}

int dalic_sdarith_subscript(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t *index,
                            pyval_t **out)
{
	pyval_t **items = &index;
	int n = 1;
	if (index->kind == PV_TUPLE) {
		items = index->tuple.items;
		n = index->tuple.n;
	}
	int cap = 4 * n + 2, nkw = 0, nidx = 0, d = 0;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)cap);
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)cap);
	pyval_t *axes = dalic_pyval_list(I->a, 2);
	pybuf_t axis_names = {0};
	int named_axes = 0;
	if (!names || !vals || !axes)
		return dalic_pyeval_oom(I, at);
	for (int k = 0; k < n; k++) {
		pyval_t *v = items[k];
		if (sdarith_is_newaxis(v)) {
			pyval_t *dim = dalic_pyval_int(I->a, d++);
			if (!dim || dalic_pyval_list_append(I->a, axes, dim)) {
				dalic_pybuf_free(&axis_names);
				return dalic_pyeval_oom(I, at);
			}
			if (v->builtin.data) {
				dalic_pybuf_puts(&axis_names, v->builtin.data);
				named_axes++;
			}
			continue;
		}
		if (v->kind == PV_ELLIPSIS) {
			dalic_pybuf_free(&axis_names);
			return dalic_pyeval_error(
			    I, at, DALIC_EUNSUPPORTED,
			    "NotImplementedError: Ellipsis in indexing is not implemented");
		}
		if (v->kind == PV_FLOAT || v->kind == PV_STR) {
			dalic_pybuf_free(&axis_names);
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: Invalid type for an index: %s",
			                          dalic_pyval_type_name(v));
		}
		int i = nidx++;
		if (v->kind == PV_NONE) {
			d++;
			continue;
		}
		if (v->kind == PV_SLICE) {
			d++;
			const char *parts[3] = {"lo", "hi", "step"};
			pyval_t *ends[3] = {v->slice.lo, v->slice.hi, v->slice.step};
			for (int p = 0; p < 3; p++) {
				if (ends[p]->kind == PV_NONE)
					continue;
				names[nkw] = dalic_pyarena_printf(I->a, "%s_%d", parts[p], i);
				vals[nkw++] = ends[p];
			}
			continue;
		}
		names[nkw] = dalic_pyarena_printf(I->a, "at_%d", i);
		vals[nkw++] = v;
	}
	for (int k = 0; k < nkw; k++)
		if (!names[k]) {
			dalic_pybuf_free(&axis_names);
			return dalic_pyeval_oom(I, at);
		}
	if (named_axes && named_axes != axes->list->n) {
		dalic_pybuf_free(&axis_names);
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: New axis name must be specified for all axes or none.");
	}
	pyval_t *sliced, *num = dalic_pyval_int(I->a, nidx);
	if (!num) {
		dalic_pybuf_free(&axis_names);
		return dalic_pyeval_oom(I, at);
	}
	int rc;
	if (nkw == 0) {
		if (axes->list->n && sdarith_is_newaxis(items[n - 1])) {
			sliced = node; /* ExpandDims checks the dimensions itself */
			rc = DALIC_OK;
		} else {
			const char *nm = "num_subscripts";
			rc = sdarith_sub_op(I, at, "_SubscriptDimCheck", "_subscript_dim_check", node,
			                    &nm, &num, 1, &sliced);
		}
	} else {
		names[nkw] = "num_subscripts";
		vals[nkw++] = num;
		rc = sdarith_sub_op(I, at, "_TensorSubscript", "_tensor_subscript", node, names, vals,
		                    nkw, &sliced);
	}
	if (rc || !axes->list->n) {
		dalic_pybuf_free(&axis_names);
		*out = sliced;
		return rc;
	}
	const char *en[2] = {"axes", "new_axis_names"};
	pyval_t *ev[2] = {axes, named_axes ? dalic_pyval_cstr(I->a, axis_names.s) : NULL};
	dalic_pybuf_free(&axis_names);
	if (named_axes && !ev[1])
		return dalic_pyeval_oom(I, at);
	return sdarith_sub_op(I, at, "ExpandDims", "expand_dims", sliced, en, ev,
	                      named_axes ? 2 : 1, out);
}
