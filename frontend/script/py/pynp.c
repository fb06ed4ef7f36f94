/*
 * The `numpy` module of the Python core (see pynp.h): the array constructors (array, asarray,
 * arange, linspace, zeros / ones / full / empty and their _like forms, frombuffer, fromfile,
 * load of .npy files), the scalar types and dtypes, the constants, and the functions of
 * pynp_func.c. Attributes outside the subset are AttributeErrors naming the subset (a
 * located error in a pipeline definition, a skipped statement with a warning in display
 * code), never silently absorbed values.
 */
#include "frontend/script/py/pynp.h"

#include "engine/npy.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyio.h"

#include <math.h>
#include <string.h>

static int pynp_dtype_kw(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t *out)
{
	*out = DALIC_NO_TYPE;
	if (!v || v->kind == PV_NONE)
		return DALIC_OK;
	return dalic_pynp_dtype_arg(I, at, v, out);
}

/* array(object, dtype=None, copy=True, order=None, subok=False, ndmin=0) */
static int pynp_f_array(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	static const char *const names[] = {"object", "dtype", "copy", "order", "subok", "ndmin"};
	pyval_t *v[6];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "array", args, names, 1, 6, v));
	if (v[0]->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "numpy.array", out);
	dalic_dtype_t t;
	DALIC_TRY(pynp_dtype_kw(I, at, v[1], &t));
	pyval_t *r;
	DALIC_TRY(dalic_pynp_asarray(I, at, v[0], t, &r));
	pynp_array_t *a = dalic_pynp_array(r);
	if (r == v[0]) { /* np.array copies */
		DALIC_TRY(dalic_pynp_astype(I, at, a, a->dtype, &r));
		a = dalic_pynp_array(r);
	}
	a->scalar = false;
	int64_t ndmin = 0;
	if (v[5] && !dalic_pyval_as_int(v[5], &ndmin))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: ndmin must be an int");
	if (ndmin > a->ndim && ndmin <= DALIC_MAX_NDIM) {
		int64_t shape[DALIC_MAX_NDIM];
		int pad = (int)ndmin - a->ndim;
		for (int d = 0; d < ndmin; d++)
			shape[d] = d < pad ? 1 : a->shape[d - pad];
		return dalic_pynp_reshape(I, at, a, (int)ndmin, shape, out);
	}
	*out = r;
	return DALIC_OK;
}

static int pynp_f_asarray(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	static const char *const names[] = {"a", "dtype", "order"};
	pyval_t *v[3];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "asarray", args, names, 1, 3, v));
	if (v[0]->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "numpy.asarray", out);
	dalic_dtype_t t;
	DALIC_TRY(pynp_dtype_kw(I, at, v[1], &t));
	return dalic_pynp_asarray(I, at, v[0], t, out);
}

static bool pynp_number(const pyval_t *v, double *d, bool *is_float)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a && a->ndim == 0 && a->py)
		v = a->py;
	if (!dalic_pyval_is_number(v))
		return false;
	*d = dalic_pyval_as_double(v);
	*is_float |= v->kind == PV_FLOAT;
	return true;
}

/* arange([start,] stop[, step], dtype=None) */
static int pynp_f_arange(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	if (args->npos < 1 || args->npos > 3)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: arange() takes 1 to 3 positional arguments");
	double v[3] = {0, 0, 1};
	bool is_float = false;
	for (int i = 0; i < args->npos; i++)
		if (!pynp_number(args->pos[i], &v[args->npos == 1 ? 1 : i], &is_float))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: arange() arguments must be numbers");
	dalic_dtype_t t;
	DALIC_TRY(pynp_dtype_kw(I, at, dalic_pyeval_kwarg(args, "dtype"), &t));
	if (v[2] == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ZeroDivisionError: division by zero");
	double count = ceil((v[1] - v[0]) / v[2]);
	if (!(count >= 0))
		count = 0;
	if (count > (double)PYNP_MAX_ELEMS)
		return dalic_pyeval_limit(I, at, "numpy array of more than %lld elements",
		                          (long long)PYNP_MAX_ELEMS);
	int64_t n = (int64_t)count;
	if (t == DALIC_NO_TYPE)
		t = is_float ? DALIC_FLOAT64 : DALIC_INT64;
	DALIC_TRY(dalic_pynp_new(I, at, t, 1, &n, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	for (int64_t i = 0; i < n; i++) {
		if (is_float || dalic_dtype_is_float(t))
			dalic_pynp_store_f64(t, a->data, i, v[0] + (double)i * v[2]);
		else
			dalic_pynp_store_i64(t, a->data, i, (int64_t)v[0] + i * (int64_t)v[2]);
	}
	return dalic_pynp_refresh(I, a);
}

/* linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None) */
static int pynp_f_linspace(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	static const char *const names[] = {"start", "stop", "num", "endpoint", "retstep", "dtype"};
	pyval_t *v[6];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "linspace", args, names, 2, 6, v));
	double start, stop;
	bool is_float = false, endpoint = true;
	int64_t num = 50;
	if (!pynp_number(v[0], &start, &is_float) || !pynp_number(v[1], &stop, &is_float) ||
	    (v[2] && !dalic_pyval_as_int(v[2], &num)))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: linspace() takes numbers and an int num");
	if (num < 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: Number of samples, %lld, must be non-negative.",
		                          (long long)num);
	if (v[3])
		DALIC_TRY(dalic_pyeval_truth(I, at, v[3], &endpoint));
	if (v[4] && v[4]->kind == PV_BOOL && v[4]->b)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "linspace(retstep=True) is outside dalic's numpy subset");
	dalic_dtype_t t;
	DALIC_TRY(pynp_dtype_kw(I, at, v[5], &t));
	if (t == DALIC_NO_TYPE)
		t = DALIC_FLOAT64;
	DALIC_TRY(dalic_pynp_new(I, at, t, 1, &num, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	int64_t div = endpoint ? num - 1 : num;
	double step = div > 0 ? (stop - start) / (double)div : NAN;
	for (int64_t i = 0; i < num; i++) {
		double x = div > 0 ? (double)i * step + start : start;
		if (endpoint && num > 1 && i == num - 1)
			x = stop;
		dalic_pynp_store_f64(t, a->data, i, dalic_dtype_is_float(t) ? x : floor(x));
	}
	return dalic_pynp_refresh(I, a);
}

/* zeros / ones / empty / full and the _like forms */
static int pynp_filled(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args,
                       pyval_t *fill, bool like, pyval_t **out)
{
	static const char *const names[] = {"shape", "dtype", "order"};
	static const char *const fnames[] = {"shape", "fill_value", "dtype", "order"};
	pyval_t *v[4] = {0};
	bool full = fill == NULL;
	DALIC_TRY(dalic_pyeval_parse_args(I, at, f, args, full ? fnames : names, full ? 2 : 1,
	                                  full ? 4 : 3, v));
	if (full)
		fill = v[1];
	pyval_t *dt = full ? v[2] : v[1];
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	dalic_dtype_t t = DALIC_NO_TYPE;
	if (like) {
		pynp_array_t *src;
		DALIC_TRY(dalic_pynp_arg(I, at, f, v[0], &src));
		ndim = src->ndim;
		memcpy(shape, src->shape, sizeof shape);
		t = src->dtype;
	} else {
		DALIC_TRY(dalic_pynp_shape_arg(I, at, f, v[0], false, &ndim, shape));
	}
	if (dt && dt->kind != PV_NONE)
		DALIC_TRY(dalic_pynp_dtype_arg(I, at, dt, &t));
	pyval_t *fa;
	DALIC_TRY(dalic_pynp_asarray(I, at, fill, DALIC_NO_TYPE, &fa));
	pynp_array_t *fv = dalic_pynp_array(fa);
	if (fv->size != 1)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "%s(): the fill value must be a scalar in dalic's numpy "
		                          "subset",
		                          f);
	if (t == DALIC_NO_TYPE)
		t = full ? (fill->kind == PV_BOOL   ? DALIC_BOOL
		            : fill->kind == PV_INT  ? DALIC_INT64
		            : fill->kind == PV_FLOAT ? DALIC_FLOAT64
		                                    : fv->dtype)
		         : DALIC_FLOAT64;
	DALIC_TRY(dalic_pynp_new(I, at, t, ndim, shape, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	bool as_float = dalic_dtype_is_float(fv->dtype);
	for (int64_t i = 0; i < a->size; i++) {
		if (as_float)
			dalic_pynp_store_f64(t, a->data, i, dalic_dtype_load_f64(fv->dtype, fv->data, 0));
		else
			dalic_pynp_store_i64(t, a->data, i, dalic_dtype_load_i64(fv->dtype, fv->data, 0));
	}
	return dalic_pynp_refresh(I, a);
}

#define PYNP_FILLED(NAME, FILL, LIKE)                                                              \
	static int pynp_f_##NAME(pyinterp_t *I, const pynode_t *at, pyval_t *self,                 \
	                         const pyargs_t *args, pyval_t **out)                              \
	{                                                                                          \
		return pynp_filled(I, at, #NAME, args, FILL, LIKE, out);                           \
	}
PYNP_FILLED(zeros, dalic_pyval_false(), false)
PYNP_FILLED(empty, dalic_pyval_false(), false)
PYNP_FILLED(ones, dalic_pyval_true(), false)
PYNP_FILLED(full, NULL, false)
PYNP_FILLED(zeros_like, dalic_pyval_false(), true)
PYNP_FILLED(ones_like, dalic_pyval_true(), true)
PYNP_FILLED(full_like, NULL, true)
#undef PYNP_FILLED

/* An array of `count` elements of t read from raw bytes at offset. */
static int pynp_from_bytes(pyinterp_t *I, const pynode_t *at, const char *f,
                           const unsigned char *data, size_t len, pyval_t *dt, pyval_t *countv,
                           pyval_t *offsetv, pyval_t **out)
{
	dalic_dtype_t t = DALIC_FLOAT64;
	if (dt && dt->kind != PV_NONE)
		DALIC_TRY(dalic_pynp_dtype_arg(I, at, dt, &t));
	int64_t count = -1, offset = 0;
	if ((countv && !dalic_pyval_as_int(countv, &count)) ||
	    (offsetv && !dalic_pyval_as_int(offsetv, &offset)))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s(): count and offset must be integers", f);
	size_t isz = dalic_dtype_size(t);
	if (offset < 0 || (uint64_t)offset > len)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: offset must be non-negative and no greater "
		                          "than buffer length (%zu)",
		                          len);
	size_t avail = len - (size_t)offset;
	if (count < 0) {
		if (avail % isz)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: buffer size must be a multiple of "
			                          "element size");
		count = (int64_t)(avail / isz);
	} else if ((uint64_t)count * isz > avail) {
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: buffer is smaller than requested size");
	}
	DALIC_TRY(dalic_pynp_new(I, at, t, 1, &count, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	if (count)
		memcpy(a->data, data + offset, (size_t)count * isz);
	return dalic_pynp_refresh(I, a);
}

static int pynp_f_frombuffer(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                             const pyargs_t *args, pyval_t **out)
{
	static const char *const names[] = {"buffer", "dtype", "count", "offset"};
	pyval_t *v[4];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "frombuffer", args, names, 1, 4, v));
	if (v[0]->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "numpy.frombuffer", out);
	pyio_bytes_t *b = dalic_pyio_bytes(v[0]);
	if (!b)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: a bytes-like object is required, not '%s'",
		                          dalic_pyval_type_name(v[0]));
	return pynp_from_bytes(I, at, "frombuffer", b->data, b->len, v[1], v[2], v[3], out);
}

static int pynp_f_fromfile(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	static const char *const names[] = {"file", "dtype", "count", "sep", "offset"};
	pyval_t *v[5];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "fromfile", args, names, 1, 5, v));
	const char *path;
	DALIC_TRY(dalic_pyio_path_arg(I, at, "fromfile", v[0], &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "numpy.fromfile", out);
	if (v[3] && !(v[3]->kind == PV_STR && v[3]->str.len == 0))
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "fromfile(sep=...) text parsing is outside dalic's numpy "
		                          "subset");
	unsigned char *data;
	size_t len;
	DALIC_TRY(dalic_pyio_read_file(I, at, path, &data, &len));
	return pynp_from_bytes(I, at, "fromfile", data, len, v[1], v[2], v[4], out);
}

/* np.load of a .npy file */
static int pynp_f_load(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	if (args->npos < 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: load() takes a file");
	const char *path;
	DALIC_TRY(dalic_pyio_path_arg(I, at, "load", args->pos[0], &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "numpy.load", out);
	unsigned char *data;
	size_t len;
	DALIC_TRY(dalic_pyio_read_file(I, at, path, &data, &len));
	dalic_npy_t npy;
	if (dalic_npy_parse(data, len, path, &npy))
		return dalic_pyeval_relocate(I, at, DALIC_EINVAL);
	DALIC_TRY(dalic_pynp_new(I, at, npy.dtype, npy.ndim, npy.shape, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	if (npy.bytes)
		memcpy(a->data, npy.data, npy.bytes);
	return dalic_pynp_refresh(I, a);
}

static int pynp_f_isscalar(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "isscalar", args, 1, 1));
	pynp_array_t *a = dalic_pynp_array(args->pos[0]);
	pyval_kind_t k = args->pos[0]->kind;
	PYEVAL_RET(dalic_pyval_bool(a ? a->scalar
	                              : k == PV_INT || k == PV_FLOAT || k == PV_BOOL ||
	                                    k == PV_STR));
}

static int pynp_f_ndarray(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
	                          "numpy.ndarray(...) is outside dalic's numpy subset: use "
	                          "np.zeros or np.array");
}

/* ---- the module ----------------------------------------------------------------------- */

static const struct {
	const char *name;
	dalic_dtype_t t;
} pynp_types[] = {
    {"bool_", DALIC_BOOL},       {"bool", DALIC_BOOL},       {"int8", DALIC_INT8},
    {"int16", DALIC_INT16},      {"int32", DALIC_INT32},     {"int64", DALIC_INT64},
    {"uint8", DALIC_UINT8},      {"uint16", DALIC_UINT16},   {"uint32", DALIC_UINT32},
    {"uint64", DALIC_UINT64},    {"float16", DALIC_FLOAT16}, {"float32", DALIC_FLOAT},
    {"float64", DALIC_FLOAT64},  {"half", DALIC_FLOAT16},    {"single", DALIC_FLOAT},
    {"double", DALIC_FLOAT64},   {"int_", DALIC_INT64},      {"intc", DALIC_INT32},
    {"intp", DALIC_INT64},       {"uint", DALIC_UINT64},     {"byte", DALIC_INT8},
    {"ubyte", DALIC_UINT8},      {"short", DALIC_INT16},     {"ushort", DALIC_UINT16},
    {"longlong", DALIC_INT64},   {"ulonglong", DALIC_UINT64},
};

static int pynp_make(pyinterp_t *I, pyval_t *m)
{
	static const pyreg_t fns[] = {
	    {"array", pynp_f_array},           {"asarray", pynp_f_asarray},
	    {"ascontiguousarray", pynp_f_asarray}, {"arange", pynp_f_arange},
	    {"linspace", pynp_f_linspace},     {"zeros", pynp_f_zeros},
	    {"ones", pynp_f_ones},             {"empty", pynp_f_empty},
	    {"full", pynp_f_full},             {"zeros_like", pynp_f_zeros_like},
	    {"ones_like", pynp_f_ones_like},   {"empty_like", pynp_f_zeros_like},
	    {"full_like", pynp_f_full_like},   {"frombuffer", pynp_f_frombuffer},
	    {"fromfile", pynp_f_fromfile},     {"load", pynp_f_load},
	    {"isscalar", pynp_f_isscalar},     {"dtype", dalic_pynp_dtype_fn},
	    {NULL, NULL},
	};
	DALIC_TRY(dalic_pybi_register(I, m->mod->attrs, fns, false));
	DALIC_TRY(dalic_pybi_register(I, m->mod->attrs, dalic_pynp_reductions, false));
	DALIC_TRY(dalic_pybi_register(I, m->mod->attrs, dalic_pynp_functions, false));
	DALIC_TRY(dalic_pynp_register_ufuncs(I, m));
	for (size_t i = 0; i < sizeof pynp_types / sizeof *pynp_types; i++)
		DALIC_TRY(dalic_pymod_set(I, m, pynp_types[i].name,
		                          dalic_pynp_dtype_value(I, pynp_types[i].t, true)));
	pyval_t *nd = dalic_pybi_make(I, "ndarray", pynp_f_ndarray, NULL, NULL);
	if (!nd)
		return DALIC_ENOMEM;
	nd->builtin.type_of = &dalic_pynp_array_type;
	DALIC_TRY(dalic_pymod_set(I, m, "ndarray", nd));
	DALIC_TRY(dalic_pymod_set(I, m, "pi", dalic_pyval_float(I->a, M_PI)));
	DALIC_TRY(dalic_pymod_set(I, m, "e", dalic_pyval_float(I->a, M_E)));
	DALIC_TRY(dalic_pymod_set(I, m, "inf", dalic_pyval_float(I->a, INFINITY)));
	DALIC_TRY(dalic_pymod_set(I, m, "nan", dalic_pyval_float(I->a, NAN)));
	DALIC_TRY(dalic_pymod_set(I, m, "newaxis", dalic_pyval_none()));
	return dalic_pymod_set(I, m, "__version__", dalic_pyval_cstr(I->a, "2.0 (dalic subset)"));
}

static int pynp_open_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, "numpy", false);
	if (m)
		m->mod->subset = "dalic's numpy subset";
	if (!m || pynp_make(I, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

int dalic_pynp_open(pyinterp_t *I)
{
	static const pymodreg_t modules[] = {{"numpy", pynp_open_module}, {NULL, NULL}};
	return dalic_pymod_preload(I, modules);
}
