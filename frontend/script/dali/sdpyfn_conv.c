/*
 * Samples to Python values and back for python_function (see sdpyfn.h). Until the core has
 * an array type, data arrives as nested lists: indexing, slicing, len(), iteration and
 * comprehensions read it as numpy would; results are lists and numbers, or arrays of the
 * script's numpy subset (their own dtype).
 */
#include "frontend/script/dali/sdpyfn.h"

#include "engine/checked.h"
#include "engine/dtype.h"
#include "frontend/script/py/pynp.h"

#include <stdlib.h>
#include <string.h>

/* ---- samples to values ---------------------------------------------------------------- */

static pyval_t *sdpyfn_element(pyinterp_t *I, dalic_dtype_t t, const void *data, int64_t k)
{
	if (t == DALIC_BOOL)
		return dalic_pyval_bool(dalic_dtype_load_i64(t, data, k) != 0);
	if (dalic_dtype_is_float(t))
		return dalic_pyval_float(I->a, dalic_dtype_load_f64(t, data, k));
	return dalic_pyval_int(I->a, dalic_dtype_load_i64(t, data, k));
}

/* Dimensions d.. of the sample starting at element *k. */
static pyval_t *sdpyfn_nest(pyinterp_t *I, const dalic_batch_t *b, const int64_t *shape, int d,
                            const void *data, int64_t *k)
{
	if (d == b->ndim)
		return sdpyfn_element(I, b->dtype, data, (*k)++);
	if (shape[d] > INT32_MAX)
		return NULL;
	pyval_t *l = dalic_pyval_list(I->a, (int)shape[d]);
	for (int64_t i = 0; l && i < shape[d]; i++) {
		pyval_t *x = sdpyfn_nest(I, b, shape, d + 1, data, k);
		if (!x || dalic_pyval_list_append(I->a, l, x))
			return NULL;
	}
	return l;
}

int dalic_sdpyfn_to_py(pyinterp_t *I, const pynode_t *at, const dalic_batch_t *b, int i,
                       pyval_t **out)
{
	if (!dalic_dtype_is_numeric(b->dtype))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "python_function: input data of type %s cannot be handed to "
		                  "Python here",
		                  dalic_dtype_name(b->dtype));
	const int64_t *shape = b->shapes + (size_t)i * DALIC_MAX_NDIM;
	/* as DALI: a numpy array of the input's type */
	if (dalic_pynp_new(I, at, b->dtype, b->ndim, shape, out) == DALIC_OK) {
		pynp_array_t *a = dalic_pynp_array(*out);
		memcpy(a->data, b->ptrs[i], (size_t)a->size * dalic_dtype_size(b->dtype));
		return DALIC_OK;
	}
	int64_t k = 0;
	*out = sdpyfn_nest(I, b, shape, 0, b->ptrs[i], &k);
	return *out ? DALIC_OK
	            : dalic_fail(DALIC_ENOMEM, "python_function: the sample is too big for the "
	                                       "script's memory");
}

/* ---- values to samples ---------------------------------------------------------------- */

typedef struct sdpyfn_scan {
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	int leaf; /* the depth of the numbers, -1 before the first one */
	bool any_float, any_int, any_bool;
	const char *bad; /* the type of an element that is not a number */
} sdpyfn_scan_t;

static int sdpyfn_len(const pyval_t *v)
{
	return v->kind == PV_LIST ? v->list->n : v->tuple.n;
}

static pyval_t **sdpyfn_items(const pyval_t *v)
{
	return v->kind == PV_LIST ? v->list->items : v->tuple.items;
}

/* The shape and element kinds of nested lists; false when they are ragged. */
static bool sdpyfn_scan(const pyval_t *v, int d, sdpyfn_scan_t *s)
{
	if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
		if (d >= DALIC_MAX_NDIM || (s->leaf >= 0 && d >= s->leaf))
			return false;
		int n = sdpyfn_len(v);
		if (d == s->ndim) {
			s->shape[d] = n;
			s->ndim = d + 1;
		} else if (d > s->ndim || s->shape[d] != n) {
			return false;
		}
		for (int i = 0; i < n; i++)
			if (!sdpyfn_scan(sdpyfn_items(v)[i], d + 1, s))
				return false;
		return true;
	}
	if (s->leaf < 0)
		s->leaf = d;
	if (d != s->leaf || d != s->ndim)
		return false;
	const pynp_array_t *np = dalic_pynp_array(v);
	if (np && np->size == 1 && (np->scalar || np->ndim == 0)) { /* a numpy scalar */
		if (np->dtype == DALIC_BOOL)
			s->any_bool = true;
		else if (dalic_dtype_is_float(np->dtype))
			s->any_float = true;
		else if (dalic_dtype_is_numeric(np->dtype))
			s->any_int = true;
		else if (!s->bad)
			s->bad = dalic_pyval_type_name(v);
		return true;
	}
	if (v->kind == PV_BOOL)
		s->any_bool = true;
	else if (v->kind == PV_INT)
		s->any_int = true;
	else if (v->kind == PV_FLOAT)
		s->any_float = true;
	else if (!s->bad)
		s->bad = dalic_pyval_type_name(v);
	return true;
}

static void sdpyfn_store(const pyval_t *v, dalic_dtype_t t, void *data, int64_t *k)
{
	if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
		for (int i = 0; i < sdpyfn_len(v); i++)
			sdpyfn_store(sdpyfn_items(v)[i], t, data, k);
		return;
	}
	const pynp_array_t *np = dalic_pynp_array(v);
	if (np) { /* a numpy scalar (sdpyfn_scan) */
		if (dalic_dtype_is_float(t))
			dalic_dtype_store_sat(t, data, *k, dalic_dtype_load_f64(np->dtype, np->data, 0));
		else if (t == DALIC_BOOL)
			((bool *)data)[*k] = dalic_dtype_load_f64(np->dtype, np->data, 0) != 0;
		else
			dalic_dtype_store_i64_sat(t, data, *k,
			                          dalic_dtype_load_i64(np->dtype, np->data, 0));
		(*k)++;
		return;
	}
	if (t == DALIC_BOOL)
		((bool *)data)[*k] = v->b;
	else if (dalic_dtype_is_float(t))
		dalic_dtype_store_sat(t, data, *k, dalic_pyval_as_double(v));
	else
		dalic_dtype_store_i64_sat(t, data, *k, v->kind == PV_BOOL ? v->b : v->i);
	(*k)++;
}

/* A numpy array of the script's subset (or a numpy scalar): its dtype, shape and bytes. */
static int sdpyfn_from_np(const pynp_array_t *a, const char *what, dalic_cb_sample_t *out)
{
	if (!dalic_dtype_is_numeric(a->dtype) && a->dtype != DALIC_BOOL)
		return dalic_fail(DALIC_EINVAL, "%s: the result is an array of %s", what,
		                  dalic_dtype_name(a->dtype));
	size_t bytes;
	if (!dalic_ck_mul_size((size_t)a->size, dalic_dtype_size(a->dtype), &bytes))
		return dalic_fail(DALIC_EINVAL, "%s: the result is too big", what);
	if (!(out->data = malloc(bytes ? bytes : 1)))
		return dalic_fail(DALIC_ENOMEM, "%s: out of memory for the result", what);
	memcpy(out->data, a->data, bytes);
	out->dtype = a->dtype;
	out->ndim = a->scalar ? 0 : a->ndim;
	memcpy(out->shape, a->shape, sizeof a->shape);
	out->bytes = bytes;
	return DALIC_OK;
}

int dalic_sdpyfn_from_py(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t like,
                         const char *what, dalic_cb_sample_t *out)
{
	memset(out, 0, sizeof *out);
	const pynp_array_t *np = dalic_pynp_array(v);
	if (np)
		return sdpyfn_from_np(np, what, out);
	sdpyfn_scan_t s = {.leaf = -1};
	if (!sdpyfn_scan(v, 0, &s))
		return dalic_fail(DALIC_EINVAL,
		                  "%s: the result is not an array (nested lists of one shape, at "
		                  "most %d dimensions)",
		                  what, DALIC_MAX_NDIM);
	if (s.bad)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: the result holds a '%s'; arrays hold numbers (bool, int, float)",
		                  what, s.bad);
	/* numpy's choice for a list of Python numbers */
	dalic_dtype_t t = s.any_float ? DALIC_FLOAT64 : s.any_int ? DALIC_INT64 : DALIC_BOOL;
	if (!s.any_float && !s.any_int && !s.any_bool)
		t = DALIC_FLOAT64; /* an empty array, as np.array([]) */
	bool like_int = like != DALIC_NO_TYPE && like != DALIC_BOOL && !dalic_dtype_is_float(like) &&
	                dalic_dtype_is_numeric(like);
	if ((t == DALIC_INT64 && like_int) || (t == DALIC_FLOAT64 && dalic_dtype_is_float(like)) ||
	    (t == DALIC_BOOL && like == DALIC_BOOL))
		t = like;
	int64_t elems = 1;
	size_t bytes;
	for (int d = 0; d < s.ndim; d++)
		if (!dalic_ck_mul_i64(elems, s.shape[d], &elems))
			return dalic_fail(DALIC_EINVAL, "%s: the result is too big", what);
	if (!dalic_ck_mul_size((size_t)elems, dalic_dtype_size(t), &bytes))
		return dalic_fail(DALIC_EINVAL, "%s: the result is too big", what);
	out->data = malloc(bytes ? bytes : 1);
	if (!out->data)
		return dalic_fail(DALIC_ENOMEM, "%s: out of memory for the result", what);
	int64_t k = 0;
	sdpyfn_store(v, t, out->data, &k);
	out->dtype = t;
	out->ndim = s.ndim;
	memcpy(out->shape, s.shape, sizeof s.shape);
	out->bytes = bytes;
	return DALIC_OK;
}
