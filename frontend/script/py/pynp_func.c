/*
 * Functions of the numpy subset (see pynp.h) that work on whole arrays: the reductions (sum,
 * mean, min, max, prod, std, var, argmin, argmax: over all elements or `axis`, with
 * `keepdims`; also methods of ndarray), elementwise math (sqrt, exp, log, abs, floor, ceil,
 * round, sin, cos, clip, minimum, maximum...) and joining (concatenate, stack, expand_dims,
 * reshape, transpose, squeeze). Result dtypes are numpy's: integer sums are int64 (uint64
 * for unsigned), means of integers float64, float reductions keep their type.
 */
#include "frontend/script/py/pynp.h"

#include "frontend/script/py/pymod.h"

#include <math.h>
#include <string.h>

/* ---- reductions ----------------------------------------------------------------------- */

typedef enum { R_SUM, R_PROD, R_MEAN, R_MIN, R_MAX, R_VAR, R_STD, R_ARGMIN, R_ARGMAX } red_t;

typedef struct reduce {
	bool axis[DALIC_MAX_NDIM];
	bool keepdims;
	int ddof;
	int out_ndim;
	int64_t out_shape[DALIC_MAX_NDIM];
	int64_t out_size;
} reduce_t;

static int pynp_reduce_args(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args,
                            pyval_t **arr, reduce_t *r)
{
	static const char *const names[] = {"a", "axis", "dtype", "out", "keepdims", "ddof"};
	pyval_t *v[6];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, f, args, names, 1, 6, v));
	*arr = v[0];
	memset(r, 0, sizeof *r);
	if (v[2] && v[2]->kind != PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: %s(dtype=...) is outside dalic's numpy subset",
		                          f);
	if (v[3] && v[3]->kind != PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: %s(out=...) is outside dalic's numpy subset", f);
	if (v[4] && !dalic_pyval_as_int(v[4], &(int64_t){0}))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: keepdims must be a bool");
	r->keepdims = v[4] && v[4]->kind == PV_BOOL ? v[4]->b : v[4] && v[4]->i;
	int64_t ddof = 0;
	if (v[5] && !dalic_pyval_as_int(v[5], &ddof))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: ddof must be an integer");
	r->ddof = (int)ddof;
	pynp_array_t *a;
	DALIC_TRY(dalic_pynp_arg(I, at, f, *arr, &a));
	if (!v[1] || v[1]->kind == PV_NONE) {
		for (int d = 0; d < a->ndim; d++)
			r->axis[d] = true;
	} else {
		pyval_t **items = &v[1];
		int n = 1;
		if (v[1]->kind == PV_TUPLE || v[1]->kind == PV_LIST)
			DALIC_TRY(dalic_pybi_items(I, at, v[1], &items, &n));
		for (int i = 0; i < n; i++) {
			int64_t ax;
			if (!dalic_pyval_as_int(items[i], &ax) || ax < -a->ndim || ax >= a->ndim)
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "AxisError: %s(): axis out of bounds for array "
				                          "of dimension %d",
				                          f, a->ndim);
			r->axis[ax < 0 ? ax + a->ndim : ax] = true;
		}
	}
	r->out_size = 1;
	for (int d = 0; d < a->ndim; d++) {
		if (r->axis[d] && !r->keepdims)
			continue;
		r->out_shape[r->out_ndim++] = r->axis[d] ? 1 : a->shape[d];
		r->out_size *= r->axis[d] ? 1 : a->shape[d];
	}
	return DALIC_OK;
}

static dalic_dtype_t pynp_reduce_type(red_t op, dalic_dtype_t t)
{
	bool is_float = dalic_dtype_is_float(t);
	switch (op) {
	case R_SUM:
	case R_PROD:
		if (is_float)
			return t;
		return t == DALIC_UINT8 || t == DALIC_UINT16 || t == DALIC_UINT32 || t == DALIC_UINT64
		           ? DALIC_UINT64
		           : DALIC_INT64;
	case R_MEAN:
	case R_VAR:
	case R_STD:
		return is_float ? t : DALIC_FLOAT64;
	case R_ARGMIN:
	case R_ARGMAX:
		return DALIC_INT64;
	default:
		return t;
	}
}

static int pynp_reduce(pyinterp_t *I, const pynode_t *at, const char *f, red_t op,
                       const pyargs_t *args, pyval_t *self, pyval_t **out)
{
	pyargs_t full = *args;
	pyval_t **pos = NULL;
	if (self) { /* a method: the array is the first argument */
		pos = dalic_pyarena_alloc(I->a, sizeof *pos * (size_t)(args->npos + 1));
		if (!pos)
			return dalic_pyeval_oom(I, at);
		pos[0] = self;
		if (args->npos)
			memcpy(pos + 1, args->pos, sizeof *pos * (size_t)args->npos);
		full.pos = pos;
		full.npos = args->npos + 1;
	}
	pyval_t *arr;
	reduce_t r;
	DALIC_TRY(pynp_reduce_args(I, at, f, &full, &arr, &r));
	pynp_array_t *a;
	DALIC_TRY(dalic_pynp_arg(I, at, f, arr, &a));
	int64_t count = r.out_size ? a->size / r.out_size : 0;
	if (count == 0 && (op == R_MIN || op == R_MAX || op == R_ARGMIN || op == R_ARGMAX))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: zero-size array to reduction operation %s "
		                          "which has no identity",
		                          f);
	dalic_dtype_t rt = pynp_reduce_type(op, a->dtype);
	DALIC_TRY(dalic_pynp_new(I, at, rt, r.out_ndim, r.out_shape, out));
	pynp_array_t *res = dalic_pynp_array(*out);
	double *acc = dalic_pyarena_alloc(I->a, sizeof *acc * (size_t)(r.out_size + 1));
	double *acc2 = dalic_pyarena_alloc(I->a, sizeof *acc2 * (size_t)(r.out_size + 1));
	int64_t *iacc = dalic_pyarena_alloc(I->a, sizeof *iacc * (size_t)(r.out_size + 1));
	int64_t *seen = dalic_pyarena_alloc(I->a, sizeof *seen * (size_t)(r.out_size + 1));
	if (!acc || !acc2 || !iacc || !seen)
		return dalic_pyeval_oom(I, at);
	for (int64_t k = 0; k < r.out_size; k++)
		iacc[k] = op == R_PROD ? 1 : 0, acc[k] = op == R_PROD ? 1 : 0;
	bool ints = !dalic_dtype_is_float(a->dtype);
	int64_t idx[DALIC_MAX_NDIM] = {0};
	for (int64_t i = 0; i < a->size; i++) {
		int64_t o = 0;
		for (int d = 0; d < a->ndim; d++)
			if (!r.axis[d])
				o = o * a->shape[d] + idx[d];
		double x = dalic_dtype_load_f64(a->dtype, a->data, i);
		int64_t xi = ints ? dalic_dtype_load_i64(a->dtype, a->data, i) : 0;
		int64_t n = seen[o]++;
		switch (op) {
		case R_SUM:
			iacc[o] = (int64_t)((uint64_t)iacc[o] + (uint64_t)xi);
			acc[o] += x;
			break;
		case R_PROD:
			iacc[o] = (int64_t)((uint64_t)iacc[o] * (uint64_t)xi);
			acc[o] *= x;
			break;
		case R_MIN:
		case R_MAX:
		case R_ARGMIN:
		case R_ARGMAX: {
			bool lt = ints ? xi < iacc[o] : x < acc[o] || isnan(x);
			bool gt = ints ? xi > iacc[o] : x > acc[o] || isnan(x);
			bool nan_held = !ints && isnan(acc[o]);
			bool take = n == 0 ||
			            (!nan_held && ((op == R_MIN || op == R_ARGMIN) ? lt : gt));
			if (take) {
				acc[o] = x;
				iacc[o] = xi;
				acc2[o] = (double)n;
			}
			break;
		}
		default: /* mean, var, std: Welford */
		{
			double delta = x - acc[o];
			acc[o] += delta / (double)(n + 1);
			acc2[o] += delta * (x - acc[o]);
			break;
		}
		}
		for (int d = a->ndim - 1; d >= 0; d--) {
			if (++idx[d] < a->shape[d])
				break;
			idx[d] = 0;
		}
	}
	for (int64_t k = 0; k < r.out_size; k++) {
		switch (op) {
		case R_ARGMIN:
		case R_ARGMAX:
			dalic_pynp_store_i64(rt, res->data, k, (int64_t)acc2[k]);
			break;
		case R_VAR:
		case R_STD: {
			double v = count - r.ddof > 0 ? acc2[k] / (double)(count - r.ddof) : NAN;
			dalic_pynp_store_f64(rt, res->data, k, op == R_STD ? sqrt(v) : v);
			break;
		}
		case R_MEAN:
			dalic_pynp_store_f64(rt, res->data, k, count ? acc[k] : NAN);
			break;
		default:
			if (ints)
				dalic_pynp_store_i64(rt, res->data, k, iacc[k]);
			else
				dalic_pynp_store_f64(rt, res->data, k, acc[k]);
		}
	}
	res->scalar = res->ndim == 0;
	return dalic_pynp_refresh(I, res);
}

#define PYNP_REDUCTION(NAME, OP)                                                                   \
	static int pynp_r_##NAME(pyinterp_t *I, const pynode_t *at, pyval_t *self,                 \
	                         const pyargs_t *args, pyval_t **out)                              \
	{                                                                                          \
		return pynp_reduce(I, at, #NAME, OP, args, self, out);                             \
	}
PYNP_REDUCTION(sum, R_SUM)
PYNP_REDUCTION(prod, R_PROD)
PYNP_REDUCTION(mean, R_MEAN)
PYNP_REDUCTION(min, R_MIN)
PYNP_REDUCTION(max, R_MAX)
PYNP_REDUCTION(var, R_VAR)
PYNP_REDUCTION(std, R_STD)
PYNP_REDUCTION(argmin, R_ARGMIN)
PYNP_REDUCTION(argmax, R_ARGMAX)
#undef PYNP_REDUCTION

const pyreg_t dalic_pynp_reductions[] = {
    {"sum", pynp_r_sum},       {"prod", pynp_r_prod}, {"mean", pynp_r_mean},
    {"min", pynp_r_min},       {"max", pynp_r_max},   {"var", pynp_r_var},
    {"std", pynp_r_std},       {"argmin", pynp_r_argmin}, {"argmax", pynp_r_argmax},
    {NULL, NULL},
};

/* ---- elementwise math ----------------------------------------------------------------- */

typedef struct ufunc {
	const char *name;
	double (*fn)(double);
	bool keep_int; /* integer input keeps its type (abs, floor of ints...) */
} ufunc_t;

static double pynp_round_half_even(double x)
{
	return nearbyint(x);
}

static const ufunc_t pynp_ufuncs[] = {
    {"sqrt", sqrt, false},  {"exp", exp, false},     {"log", log, false},
    {"log2", log2, false},  {"log10", log10, false}, {"sin", sin, false},
    {"cos", cos, false},    {"tan", tan, false},     {"arctan", atan, false},
    {"arcsin", asin, false}, {"arccos", acos, false}, {"tanh", tanh, false},
    {"abs", fabs, true},    {"absolute", fabs, true}, {"floor", floor, true},
    {"ceil", ceil, true},   {"trunc", trunc, true},   {"rint", pynp_round_half_even, true},
    {NULL, NULL, false},
};

static int pynp_apply(pyinterp_t *I, const pynode_t *at, const ufunc_t *u, pyval_t *v,
                      pyval_t **out)
{
	pynp_array_t *a;
	DALIC_TRY(dalic_pynp_arg(I, at, u->name, v, &a));
	bool ints = !dalic_dtype_is_float(a->dtype);
	dalic_dtype_t t = ints && !u->keep_int ? DALIC_FLOAT64
	                  : a->dtype == DALIC_BOOL && !strcmp(u->name, "abs") ? DALIC_BOOL
	                                                                       : a->dtype;
	if (ints && u->keep_int && a->dtype == DALIC_BOOL && strcmp(u->name, "abs"))
		t = DALIC_FLOAT16; /* numpy: floor(bool) is float16 */
	DALIC_TRY(dalic_pynp_new(I, at, t, a->ndim, a->shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	r->scalar = r->ndim == 0; /* ufuncs of 0-d arrays give numpy scalars */
	for (int64_t i = 0; i < a->size; i++) {
		if (ints && dalic_dtype_is_integral(t)) {
			int64_t x = dalic_dtype_load_i64(a->dtype, a->data, i);
			dalic_pynp_store_i64(t, r->data, i,
			                     !strcmp(u->name, "abs") || !strcmp(u->name, "absolute")
			                         ? (x < 0 ? (int64_t)(0 - (uint64_t)x) : x)
			                         : x);
		} else {
			dalic_pynp_store_f64(t, r->data, i,
			                     u->fn(dalic_dtype_load_f64(a->dtype, a->data, i)));
		}
	}
	return dalic_pynp_refresh(I, r);
}

static int pynp_ufunc(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	const ufunc_t *u = self->builtin.data;
	DALIC_TRY(dalic_pybi_nargs(I, at, u->name, args, 1, 1));
	return pynp_apply(I, at, u, args->pos[0], out);
}

/* round(a, decimals=0): half to even, as numpy */
static int pynp_f_round(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	static const char *const names[] = {"a", "decimals"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "round", args, names, 1, 2, v));
	int64_t dec = 0;
	if (v[1] && !dalic_pyval_as_int(v[1], &dec))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: decimals must be an int");
	static const ufunc_t rint = {"round", pynp_round_half_even, true};
	if (dec == 0)
		return pynp_apply(I, at, &rint, v[0], out);
	pyval_t *scale = dalic_pyval_float(I->a, pow(10.0, (double)dec)), *t, *r;
	if (!scale)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(dalic_pynp_binop(I, at, OP_STAR, v[0], scale, &t));
	DALIC_TRY(pynp_apply(I, at, &rint, t, &r));
	return dalic_pynp_binop(I, at, OP_SLASH, r, scale, out);
}

/* minimum / maximum / clip: both operands broadcast to one shape and type, then picked
 * per element; NaN wins, as in numpy. */
static int pynp_pick(pyinterp_t *I, const pynode_t *at, pyval_t *x, pyval_t *y, bool max,
                     pyval_t **out)
{
	pyval_t *zero = dalic_pyval_int(I->a, 0), *zx, *zy, *xb, *yb;
	if (!zero)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(dalic_pynp_binop(I, at, OP_STAR, x, zero, &zx));
	DALIC_TRY(dalic_pynp_binop(I, at, OP_STAR, y, zero, &zy));
	DALIC_TRY(dalic_pynp_binop(I, at, OP_PLUS, x, zy, &xb));
	DALIC_TRY(dalic_pynp_binop(I, at, OP_PLUS, y, zx, &yb));
	pynp_array_t *r = dalic_pynp_array(xb), *o = dalic_pynp_array(yb);
	dalic_dtype_t t = dalic_pynp_promote(r->dtype, o->dtype);
	DALIC_TRY(dalic_pynp_astype(I, at, r, t, &xb));
	DALIC_TRY(dalic_pynp_astype(I, at, o, t, &yb));
	r = dalic_pynp_array(xb);
	o = dalic_pynp_array(yb);
	size_t isz = dalic_dtype_size(t);
	for (int64_t i = 0; i < r->size; i++) {
		double a = dalic_dtype_load_f64(t, r->data, i), b = dalic_dtype_load_f64(t, o->data, i);
		if (isnan(b) || (!isnan(a) && (max ? b > a : b < a)))
			memcpy(r->data + (size_t)i * isz, o->data + (size_t)i * isz, isz);
	}
	r->scalar = r->ndim == 0;
	*out = xb;
	return dalic_pynp_refresh(I, r);
}

static int pynp_f_minimum(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "minimum", args, 2, 2));
	return pynp_pick(I, at, args->pos[0], args->pos[1], false, out);
}

static int pynp_f_maximum(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "maximum", args, 2, 2));
	return pynp_pick(I, at, args->pos[0], args->pos[1], true, out);
}

static int pynp_f_clip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	static const char *const names[] = {"a", "a_min", "a_max"};
	pyval_t *v[3], *t;
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "clip", args, names, 3, 3, v));
	t = v[0];
	if (v[1]->kind != PV_NONE)
		DALIC_TRY(pynp_pick(I, at, t, v[1], true, &t));
	if (v[2]->kind != PV_NONE)
		DALIC_TRY(pynp_pick(I, at, t, v[2], false, &t));
	return dalic_pynp_asarray(I, at, t, DALIC_NO_TYPE, out);
}

/* ---- shapes and joining --------------------------------------------------------------- */

static int pynp_f_reshape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	static const char *const names[] = {"a", "newshape"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "reshape", args, names, 2, 2, v));
	pynp_array_t *a;
	DALIC_TRY(dalic_pynp_arg(I, at, "reshape", v[0], &a));
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	DALIC_TRY(dalic_pynp_shape_arg(I, at, "reshape", v[1], true, &ndim, shape));
	return dalic_pynp_reshape(I, at, a, ndim, shape, out);
}

static int pynp_f_expand_dims(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	static const char *const names[] = {"a", "axis"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "expand_dims", args, names, 2, 2, v));
	pynp_array_t *a;
	DALIC_TRY(dalic_pynp_arg(I, at, "expand_dims", v[0], &a));
	int64_t ax;
	if (!dalic_pyval_as_int(v[1], &ax) || ax < -a->ndim - 1 || ax > a->ndim ||
	    a->ndim >= DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AxisError: expand_dims(): axis out of bounds");
	if (ax < 0)
		ax += a->ndim + 1;
	int64_t shape[DALIC_MAX_NDIM];
	for (int d = 0, k = 0; d <= a->ndim; d++)
		shape[d] = d == ax ? 1 : a->shape[k++];
	return dalic_pynp_reshape(I, at, a, a->ndim + 1, shape, out);
}

/* concatenate(seq, axis=0) and stack(seq, axis=0) */
static int pynp_join(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args,
                     bool stack, pyval_t **out)
{
	static const char *const names[] = {"arrays", "axis"};
	pyval_t *v[2], **items;
	int n;
	DALIC_TRY(dalic_pyeval_parse_args(I, at, f, args, names, 1, 2, v));
	DALIC_TRY(dalic_pybi_items(I, at, v[0], &items, &n));
	if (n == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: need at least one array to %s", f);
	pynp_array_t **arrs = dalic_pyarena_alloc(I->a, sizeof *arrs * (size_t)n);
	if (!arrs)
		return dalic_pyeval_oom(I, at);
	dalic_dtype_t t = DALIC_NO_TYPE;
	for (int i = 0; i < n; i++) {
		DALIC_TRY(dalic_pynp_arg(I, at, f, items[i], &arrs[i]));
		t = i ? dalic_pynp_promote(t, arrs[i]->dtype) : arrs[i]->dtype;
	}
	int ndim = arrs[0]->ndim + (stack ? 1 : 0);
	int64_t ax = 0;
	if (v[1] && !dalic_pyval_as_int(v[1], &ax))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: axis must be an int");
	if (ax < 0)
		ax += ndim;
	if (ax < 0 || ax >= ndim || (!stack && arrs[0]->ndim == 0) || ndim > DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "AxisError: %s(): axis out of bounds",
		                          f);
	int64_t shape[DALIC_MAX_NDIM];
	for (int d = 0, k = 0; d < ndim; d++)
		shape[d] = stack && d == ax ? n : arrs[0]->shape[k++];
	if (!stack)
		shape[ax] = 0;
	for (int i = 0; i < n; i++) {
		if (arrs[i]->ndim != arrs[0]->ndim)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: all the input arrays must have the same "
			                          "number of dimensions");
		for (int d = 0; d < arrs[0]->ndim; d++)
			if ((stack || d != ax) && arrs[i]->shape[d] != arrs[0]->shape[d])
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "ValueError: all input array dimensions except "
				                          "the %s axis must match exactly",
				                          stack ? "new" : "concatenation");
		if (!stack)
			shape[ax] += arrs[i]->shape[ax];
	}
	DALIC_TRY(dalic_pynp_new(I, at, t, ndim, shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	/* outer = product of dims before the axis; each array contributes a block per outer */
	int64_t outer = 1;
	for (int d = 0; d < ax; d++)
		outer *= shape[d];
	int64_t pos = 0;
	for (int64_t o = 0; o < outer; o++)
		for (int i = 0; i < n; i++) {
			int64_t block = arrs[i]->size / (outer ? outer : 1);
			for (int64_t k = 0; k < block; k++, pos++) {
				int64_t src = o * block + k;
				if (dalic_dtype_is_float(t))
					dalic_pynp_store_f64(t, r->data, pos,
					                     dalic_dtype_load_f64(arrs[i]->dtype,
					                                          arrs[i]->data, src));
				else
					dalic_pynp_store_i64(t, r->data, pos,
					                     dalic_dtype_load_i64(arrs[i]->dtype,
					                                          arrs[i]->data, src));
			}
		}
	return dalic_pynp_refresh(I, r);
}

static int pynp_f_concatenate(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return pynp_join(I, at, "concatenate", args, false, out);
}

static int pynp_f_stack(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	return pynp_join(I, at, "stack", args, true, out);
}

/* np.transpose(a, axes) and np.squeeze(a): the methods, called with the array first */
static int pynp_as_method(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos < 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: %s() takes an array", f);
	pyval_t *arr, *m;
	DALIC_TRY(dalic_pynp_asarray(I, at, args->pos[0], DALIC_NO_TYPE, &arr));
	DALIC_TRY(dalic_pyeval_getattr(I, at, arr, f, &m));
	pyargs_t rest = *args;
	rest.pos++;
	rest.npos--;
	return dalic_pyeval_call(I, at, m, &rest, out);
}

static int pynp_f_transpose(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                            const pyargs_t *args, pyval_t **out)
{
	return pynp_as_method(I, at, "transpose", args, out);
}

static int pynp_f_squeeze(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	return pynp_as_method(I, at, "squeeze", args, out);
}

const pyreg_t dalic_pynp_functions[] = {
    {"round", pynp_f_round},         {"around", pynp_f_round},
    {"minimum", pynp_f_minimum},     {"maximum", pynp_f_maximum},
    {"clip", pynp_f_clip},           {"reshape", pynp_f_reshape},
    {"expand_dims", pynp_f_expand_dims}, {"concatenate", pynp_f_concatenate},
    {"stack", pynp_f_stack},         {"transpose", pynp_f_transpose},
    {"squeeze", pynp_f_squeeze},     {NULL, NULL},
};

int dalic_pynp_register_ufuncs(pyinterp_t *I, pyval_t *mod)
{
	for (const ufunc_t *u = pynp_ufuncs; u->name; u++) {
		pyval_t *f = dalic_pybi_make_self(I, u->name, pynp_ufunc, (void *)u);
		if (!f || dalic_pymod_set(I, mod, u->name, f))
			return DALIC_ENOMEM;
	}
	return DALIC_OK;
}
