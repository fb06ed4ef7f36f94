/*
 * The ndarray type of the numpy subset (see pynp.h): construction, the Python scalar a
 * one-element array stands for, attributes (shape, dtype, ndim, size, T, itemsize, nbytes),
 * methods (tolist, reshape, astype, copy, flatten / ravel, item, transpose, squeeze, any /
 * all and the reductions of pynp_func.c), basic indexing (ints, slices, None, Ellipsis) for
 * reading and writing, indexing by an integer list / array or a boolean mask for reading,
 * iteration over the first axis, len() and truth as numpy defines them.
 */
#include "frontend/script/py/pynp.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"

#include <math.h>
#include <string.h>

int dalic_pynp_new(pyinterp_t *I, const pynode_t *at, dalic_dtype_t t, int ndim,
                   const int64_t *shape, pyval_t **out)
{
	if (ndim < 0 || ndim > DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: arrays of more than %d dimensions are not "
		                          "supported",
		                          DALIC_MAX_NDIM);
	int64_t size = 1;
	for (int d = 0; d < ndim; d++) {
		if (shape[d] < 0)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: negative dimensions are not allowed");
		if (shape[d] && size > PYNP_MAX_ELEMS / shape[d])
			return dalic_pyeval_limit(I, at, "numpy array of more than %lld elements",
			                          (long long)PYNP_MAX_ELEMS);
		size *= shape[d];
	}
	if (size > PYNP_MAX_ELEMS)
		return dalic_pyeval_limit(I, at, "numpy array of more than %lld elements",
		                          (long long)PYNP_MAX_ELEMS);
	pynp_array_t *a = dalic_pyarena_alloc(I->a, sizeof *a);
	size_t bytes = (size_t)size * dalic_dtype_size(t);
	if (!a || !(a->data = dalic_pyarena_alloc_raw(I->a, bytes ? bytes : 1)))
		return dalic_pyeval_oom(I, at);
	a->dtype = t;
	a->ndim = ndim;
	if (ndim)
		memcpy(a->shape, shape, sizeof *shape * (size_t)ndim);
	a->size = size;
	*out = dalic_pyval_host(I->a, &dalic_pynp_array_type, a);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

pyval_t *dalic_pynp_item(pyinterp_t *I, const pynp_array_t *a, int64_t i)
{
	if (a->dtype == DALIC_BOOL)
		return dalic_pyval_bool(a->data[i] != 0);
	if (dalic_dtype_is_float(a->dtype))
		return dalic_pyval_float(I->a, dalic_dtype_load_f64(a->dtype, a->data, i));
	int64_t v = dalic_dtype_load_i64(a->dtype, a->data, i);
	if (a->dtype == DALIC_UINT64 && v < 0) /* past int64: the nearest float */
		return dalic_pyval_float(I->a, (double)(uint64_t)v);
	return dalic_pyval_int(I->a, v);
}

int dalic_pynp_refresh(pyinterp_t *I, pynp_array_t *a)
{
	a->py = NULL;
	if (a->size == 1 && !(a->py = dalic_pynp_item(I, a, 0)))
		return dalic_pyeval_oom(I, NULL);
	return DALIC_OK;
}

int dalic_pynp_scalar(pyinterp_t *I, const pynode_t *at, dalic_dtype_t t, pyval_t *v,
                      pyval_t **out)
{
	pyval_t *arr;
	DALIC_TRY(dalic_pynp_asarray(I, at, v, t, &arr));
	pynp_array_t *a = dalic_pynp_array(arr);
	if (a->ndim != 0) {
		*out = arr;
		return DALIC_OK;
	}
	DALIC_TRY(dalic_pynp_astype(I, at, a, t, out));
	dalic_pynp_array(*out)->scalar = true;
	return DALIC_OK;
}

int dalic_pynp_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v,
                   pynp_array_t **out)
{
	if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, f);
	pyval_t *arr;
	DALIC_TRY(dalic_pynp_asarray(I, at, v, DALIC_NO_TYPE, &arr));
	*out = dalic_pynp_array(arr);
	return DALIC_OK;
}

int dalic_pynp_shape_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v, bool neg,
                         int *ndim, int64_t *shape)
{
	pyval_t **items = &v;
	int n = 1;
	pynp_array_t *a = dalic_pynp_array(v);
	if (v->kind == PV_LIST || v->kind == PV_TUPLE)
		DALIC_TRY(dalic_pybi_items(I, at, v, &items, &n));
	else if (a && a->ndim == 1) {
		if (a->size > DALIC_MAX_NDIM)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: %s(): more than %d dimensions", f,
			                          DALIC_MAX_NDIM);
		for (int64_t i = 0; i < a->size; i++)
			shape[i] = dalic_dtype_load_i64(a->dtype, a->data, i);
		*ndim = (int)a->size;
		return DALIC_OK;
	}
	if (n > DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: %s(): more than %d dimensions", f,
		                          DALIC_MAX_NDIM);
	for (int i = 0; i < n; i++) {
		pyval_t *x = items[i];
		pynp_array_t *xa = dalic_pynp_array(x);
		if (xa && xa->py && !dalic_dtype_is_float(xa->dtype) && xa->ndim == 0)
			x = xa->py;
		if (x->kind != PV_INT || (x->i < 0 && !(neg && x->i == -1)))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: %s(): the shape must be non-negative "
			                          "integers, not %s",
			                          f, dalic_pyval_type_name(x));
		shape[i] = x->i;
	}
	*ndim = n;
	return DALIC_OK;
}

int dalic_pynp_reshape(pyinterp_t *I, const pynode_t *at, const pynp_array_t *a, int ndim,
                       const int64_t *shape, pyval_t **out)
{
	int64_t s[DALIC_MAX_NDIM], known = 1;
	int unknown = -1;
	for (int d = 0; d < ndim; d++) {
		s[d] = shape[d];
		if (s[d] == -1) {
			if (unknown >= 0)
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "ValueError: can only specify one unknown "
				                          "dimension");
			unknown = d;
		} else if (s[d] && known > PYNP_MAX_ELEMS / s[d]) {
			known = PYNP_MAX_ELEMS + 1;
		} else {
			known *= s[d];
		}
	}
	if (unknown >= 0 && known > 0 && a->size % known == 0)
		s[unknown] = a->size / known;
	else if (unknown >= 0)
		known = -1;
	if ((unknown < 0 && known != a->size) || known < 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: cannot reshape array of size %lld into the "
		                          "requested shape",
		                          (long long)a->size);
	DALIC_TRY(dalic_pynp_new(I, at, a->dtype, ndim, s, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	memcpy(r->data, a->data, (size_t)a->size * dalic_dtype_size(a->dtype));
	return dalic_pynp_refresh(I, r);
}

/* ---- indexing ------------------------------------------------------------------------- */

typedef struct sel {
	int nsel;
	struct {
		int src_dim;   /* -1: a new axis */
		int64_t start; /* first index */
		int64_t step;
		int64_t count;
		bool keep; /* the dim stays in the result (slices, new axes) */
	} s[2 * DALIC_MAX_NDIM];
	int out_ndim;
	int64_t out_shape[DALIC_MAX_NDIM];
	int64_t size;
} sel_t;

static int pynp_index_error(pyinterp_t *I, const pynode_t *at)
{
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "IndexError: only integers, slices (`:`), ellipsis (`...`), "
	                          "numpy.newaxis (`None`) and integer or boolean arrays are valid "
	                          "indices");
}

static bool pynp_index_int(const pyval_t *v, int64_t *out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a && a->ndim == 0 && dalic_dtype_is_integral(a->dtype) && a->dtype != DALIC_BOOL) {
		*out = dalic_dtype_load_i64(a->dtype, a->data, 0);
		return true;
	}
	return v->kind == PV_INT ? (*out = v->i, true) : false;
}

/* Python's slice.indices for a dim of extent n. */
static int pynp_slice(pyinterp_t *I, const pynode_t *at, const pyval_t *sl, int64_t n,
                      int64_t *start, int64_t *step, int64_t *count)
{
	int64_t st = 1, lo, hi;
	if (sl->slice.step && sl->slice.step->kind != PV_NONE &&
	    !pynp_index_int(sl->slice.step, &st))
		return pynp_index_error(I, at);
	if (st == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: slice step cannot be zero");
	lo = st > 0 ? 0 : n - 1;
	hi = st > 0 ? n : -1;
	const pyval_t *b[2] = {sl->slice.lo, sl->slice.hi};
	int64_t *dst[2] = {&lo, &hi};
	for (int k = 0; k < 2; k++) {
		int64_t v;
		if (!b[k] || b[k]->kind == PV_NONE)
			continue;
		if (!pynp_index_int(b[k], &v))
			return pynp_index_error(I, at);
		if (v < 0)
			v = v + n < 0 ? (st > 0 ? 0 : -1) : v + n;
		else if (v >= n)
			v = st > 0 ? n : n - 1;
		*dst[k] = v;
	}
	*start = lo;
	*step = st;
	*count = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0)
	                : (lo > hi ? (lo - hi - st - 1) / -st : 0);
	return DALIC_OK;
}

static int pynp_select(pyinterp_t *I, const pynode_t *at, const pynp_array_t *a, pyval_t *idx,
                       sel_t *s)
{
	pyval_t **items = &idx;
	int n = 1, ellipsis = -1, consumed = 0;
	if (idx->kind == PV_TUPLE) {
		items = idx->tuple.items;
		n = idx->tuple.n;
	}
	for (int i = 0; i < n; i++) {
		if (items[i]->kind == PV_ELLIPSIS) {
			if (ellipsis >= 0)
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "IndexError: an index can only have a single "
				                          "ellipsis ('...')");
			ellipsis = i;
		} else if (items[i]->kind != PV_NONE) {
			consumed++;
		}
	}
	if (consumed > a->ndim)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "IndexError: too many indices for array: array is "
		                          "%d-dimensional, but %d were indexed",
		                          a->ndim, consumed);
	memset(s, 0, sizeof *s);
	int dim = 0;
	for (int i = 0; i <= n; i++) {
		bool fill = (i == ellipsis) || (i == n && ellipsis < 0);
		if (fill) {
			for (int k = 0; k < a->ndim - consumed; k++, dim++) {
				if (s->nsel >= 2 * DALIC_MAX_NDIM)
					return pynp_index_error(I, at);
				s->s[s->nsel].src_dim = dim;
				s->s[s->nsel].step = 1;
				s->s[s->nsel].count = a->shape[dim];
				s->s[s->nsel++].keep = true;
			}
			if (i == n)
				break;
			continue;
		}
		if (i == n)
			break;
		if (s->nsel >= 2 * DALIC_MAX_NDIM)
			return pynp_index_error(I, at);
		pyval_t *x = items[i];
		int64_t k;
		if (x->kind == PV_NONE) {
			s->s[s->nsel].src_dim = -1;
			s->s[s->nsel].count = 1;
			s->s[s->nsel++].keep = true;
		} else if (x->kind == PV_SLICE) {
			s->s[s->nsel].src_dim = dim;
			DALIC_TRY(pynp_slice(I, at, x, a->shape[dim], &s->s[s->nsel].start,
			                     &s->s[s->nsel].step, &s->s[s->nsel].count));
			s->s[s->nsel++].keep = true;
			dim++;
		} else if (pynp_index_int(x, &k)) {
			if (k < -a->shape[dim] || k >= a->shape[dim])
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "IndexError: index %lld is out of bounds for "
				                          "axis %d with size %lld",
				                          (long long)k, dim, (long long)a->shape[dim]);
			s->s[s->nsel].src_dim = dim;
			s->s[s->nsel].start = k < 0 ? k + a->shape[dim] : k;
			s->s[s->nsel].count = 1;
			s->nsel++;
			dim++;
		} else {
			return pynp_index_error(I, at);
		}
	}
	s->size = 1;
	for (int i = 0; i < s->nsel; i++) {
		if (!s->s[i].keep)
			continue;
		if (s->out_ndim >= DALIC_MAX_NDIM)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "IndexError: the result has more than %d dimensions",
			                          DALIC_MAX_NDIM);
		s->out_shape[s->out_ndim++] = s->s[i].count;
		s->size *= s->s[i].count;
	}
	return DALIC_OK;
}

/* Flat source offsets of the selection, in result order (C order over the kept dims). */
static void pynp_sel_offsets(const pynp_array_t *a, const sel_t *s, int64_t *offs)
{
	int64_t stride[DALIC_MAX_NDIM], st = 1;
	for (int d = a->ndim - 1; d >= 0; d--) {
		stride[d] = st;
		st *= a->shape[d];
	}
	int64_t idx[2 * DALIC_MAX_NDIM] = {0};
	for (int64_t k = 0; k < s->size; k++) {
		int64_t off = 0;
		for (int i = 0; i < s->nsel; i++)
			if (s->s[i].src_dim >= 0)
				off += (s->s[i].start + idx[i] * s->s[i].step) * stride[s->s[i].src_dim];
		offs[k] = off;
		for (int i = s->nsel - 1; i >= 0; i--) {
			if (!s->s[i].keep)
				continue;
			if (++idx[i] < s->s[i].count)
				break;
			idx[i] = 0;
		}
	}
}

/* a[mask] and a[[i, j, ...]] (integer list or array on the first axis). */
static int pynp_fancy_get(pyinterp_t *I, const pynode_t *at, pynp_array_t *a, pyval_t *idx,
                          pyval_t **out)
{
	pyval_t *iv;
	DALIC_TRY(dalic_pynp_asarray(I, at, idx, DALIC_NO_TYPE, &iv));
	pynp_array_t *ix = dalic_pynp_array(iv);
	size_t isz = dalic_dtype_size(a->dtype);
	if (ix->dtype == DALIC_BOOL) {
		if (ix->ndim != a->ndim || memcmp(ix->shape, a->shape, sizeof(int64_t) * a->ndim))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "IndexError: boolean index did not match the indexed "
			                          "array");
		int64_t n = 0;
		for (int64_t i = 0; i < ix->size; i++)
			n += ix->data[i] != 0;
		DALIC_TRY(dalic_pynp_new(I, at, a->dtype, 1, &n, out));
		pynp_array_t *r = dalic_pynp_array(*out);
		for (int64_t i = 0, k = 0; i < ix->size; i++)
			if (ix->data[i])
				memcpy(r->data + isz * (size_t)k++, a->data + isz * (size_t)i, isz);
		return dalic_pynp_refresh(I, r);
	}
	if (ix->ndim != 1 || dalic_dtype_is_float(ix->dtype) || a->ndim == 0)
		return pynp_index_error(I, at);
	int64_t shape[DALIC_MAX_NDIM], row = 1;
	shape[0] = ix->size;
	for (int d = 1; d < a->ndim; d++)
		row *= (shape[d] = a->shape[d]);
	DALIC_TRY(dalic_pynp_new(I, at, a->dtype, a->ndim, shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	for (int64_t i = 0; i < ix->size; i++) {
		int64_t k = dalic_dtype_load_i64(ix->dtype, ix->data, i);
		if (k < -a->shape[0] || k >= a->shape[0])
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "IndexError: index %lld is out of bounds for axis 0 "
			                          "with size %lld",
			                          (long long)k, (long long)a->shape[0]);
		if (k < 0)
			k += a->shape[0];
		memcpy(r->data + isz * (size_t)(i * row), a->data + isz * (size_t)(k * row),
		       isz * (size_t)row);
	}
	return dalic_pynp_refresh(I, r);
}

static int pynp_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *idx,
                        pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->ndim == 0 && idx->kind != PV_TUPLE && idx->kind != PV_ELLIPSIS &&
	    idx->kind != PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "IndexError: invalid index to scalar variable.");
	if (idx->kind == PV_LIST || (dalic_pynp_array(idx) && dalic_pynp_array(idx)->ndim > 0))
		return pynp_fancy_get(I, at, a, idx, out);
	sel_t s;
	DALIC_TRY(pynp_select(I, at, a, idx, &s));
	int64_t *offs = dalic_pyarena_alloc(I->a, sizeof *offs * (size_t)(s.size + 1));
	if (!offs)
		return dalic_pyeval_oom(I, at);
	pynp_sel_offsets(a, &s, offs);
	if (I->numba && s.out_ndim == 0) /* numba: an element is a number of the function */
		PYEVAL_RET(dalic_pynp_item(I, a, offs[0]));
	DALIC_TRY(dalic_pynp_new(I, at, a->dtype, s.out_ndim, s.out_shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	size_t isz = dalic_dtype_size(a->dtype);
	for (int64_t k = 0; k < s.size; k++)
		memcpy(r->data + isz * (size_t)k, a->data + isz * (size_t)offs[k], isz);
	/* a single element is a numpy scalar */
	r->scalar = s.out_ndim == 0;
	return dalic_pynp_refresh(I, r);
}

static int pynp_setitem(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *idx,
                        pyval_t *value)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->scalar)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: '%s' object does not support item assignment",
		                          dalic_dtype_short(a->dtype));
	if (I->sealed)
		DALIC_TRY(dalic_pycall_check_write(I, at, a->data, "an array"));
	sel_t s;
	DALIC_TRY(pynp_select(I, at, a, idx, &s));
	pyval_t *vv;
	if (value->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, value, "array item");
	DALIC_TRY(dalic_pynp_asarray(I, at, value, DALIC_NO_TYPE, &vv));
	pynp_array_t *src = dalic_pynp_array(vv);
	/* the value broadcasts to the selection: its dims align with the trailing ones */
	if (src->ndim > s.out_ndim)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: could not broadcast the value into the "
		                          "selection");
	for (int d = 0; d < src->ndim; d++) {
		int64_t e = src->shape[src->ndim - 1 - d], o = s.out_shape[s.out_ndim - 1 - d];
		if (e != 1 && e != o)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: could not broadcast the value into the "
			                          "selection");
	}
	int64_t *offs = dalic_pyarena_alloc(I->a, sizeof *offs * (size_t)(s.size + 1));
	if (!offs)
		return dalic_pyeval_oom(I, at);
	pynp_sel_offsets(a, &s, offs);
	int64_t idxs[DALIC_MAX_NDIM] = {0};
	bool as_float = dalic_dtype_is_float(src->dtype);
	for (int64_t k = 0; k < s.size; k++) {
		int64_t so = 0, st = 1;
		for (int d = src->ndim - 1; d >= 0; d--) {
			int od = d + s.out_ndim - src->ndim;
			if (src->shape[d] != 1)
				so += idxs[od] * st;
			st *= src->shape[d];
		}
		if (as_float)
			dalic_pynp_store_f64(a->dtype, a->data, offs[k],
			                     dalic_dtype_load_f64(src->dtype, src->data, so));
		else
			dalic_pynp_store_i64(a->dtype, a->data, offs[k],
			                     dalic_dtype_load_i64(src->dtype, src->data, so));
		for (int d = s.out_ndim - 1; d >= 0; d--) {
			if (++idxs[d] < s.out_shape[d])
				break;
			idxs[d] = 0;
		}
	}
	return dalic_pynp_refresh(I, a);
}

/* ---- iteration, len, truth ------------------------------------------------------------ */

static int pynp_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->ndim == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: iteration over a 0-d array");
	if (a->shape[0] > PY_MAX_LOOP_ITERATIONS)
		return dalic_pyeval_limit(I, at, "iterating over more than %d array items",
		                          PY_MAX_LOOP_ITERATIONS);
	*n = (int)a->shape[0];
	*items = dalic_pyarena_alloc(I->a, sizeof **items * (size_t)(*n + 1));
	if (!*items)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < *n; i++) {
		pyval_t *k = dalic_pyval_int(I->a, i);
		if (!k)
			return dalic_pyeval_oom(I, at);
		DALIC_TRY(pynp_getitem(I, at, v, k, &(*items)[i]));
	}
	return DALIC_OK;
}

static int pynp_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->ndim == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: len() of unsized object");
	*out = a->shape[0];
	return DALIC_OK;
}

static int pynp_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->size != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: The truth value of %s is ambiguous. Use "
		                          "a.any() or a.all()",
		                          a->size ? "an array with more than one element"
		                                  : "an empty array");
	*out = dalic_dtype_load_f64(a->dtype, a->data, 0) != 0;
	return DALIC_OK;
}

/* ---- attributes and methods ----------------------------------------------------------- */

static pyval_t *pynp_shape_tuple(pyinterp_t *I, const pynp_array_t *a)
{
	pyval_t *t = dalic_pyval_tuple(I->a, a->ndim);
	for (int d = 0; t && d < a->ndim; d++)
		if (!(t->tuple.items[d] = dalic_pyval_int(I->a, a->shape[d])))
			return NULL;
	return t;
}

static int pynp_tolist_rec(pyinterp_t *I, const pynp_array_t *a, int dim, int64_t *pos,
                           pyval_t **out)
{
	if (dim == a->ndim) {
		*out = dalic_pynp_item(I, a, (*pos)++);
		return *out ? DALIC_OK : DALIC_ENOMEM;
	}
	if (a->shape[dim] > PY_MAX_LOOP_ITERATIONS)
		return DALIC_EINVAL;
	pyval_t *l = dalic_pyval_list(I->a, (int)a->shape[dim] + 1);
	if (!l)
		return DALIC_ENOMEM;
	for (int64_t i = 0; i < a->shape[dim]; i++) {
		pyval_t *x;
		DALIC_TRY(pynp_tolist_rec(I, a, dim + 1, pos, &x));
		if (dalic_pyval_list_append(I->a, l, x))
			return DALIC_ENOMEM;
	}
	*out = l;
	return DALIC_OK;
}

static int pynp_m_tolist(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "tolist", args, 0, 0));
	int64_t pos = 0;
	int rc = pynp_tolist_rec(I, dalic_pynp_array(self), 0, &pos, out);
	if (rc == DALIC_EINVAL)
		return dalic_pyeval_limit(I, at, "tolist() of an axis longer than %d",
		                          PY_MAX_LOOP_ITERATIONS);
	return rc ? dalic_pyeval_oom(I, at) : DALIC_OK;
}

static int pynp_m_item(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	DALIC_TRY(dalic_pybi_nargs(I, at, "item", args, 0, 1));
	int64_t k = 0;
	if (args->npos) {
		if (!pynp_index_int(args->pos[0], &k) || k < -a->size || k >= a->size)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "IndexError: index out of bounds for item()");
		if (k < 0)
			k += a->size;
	} else if (a->size != 1) {
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: can only convert an array of size 1 to a "
		                          "Python scalar");
	}
	PYEVAL_RET(dalic_pynp_item(I, a, k));
}

static int pynp_m_reshape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	if (args->npos == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: reshape() takes a shape");
	pyval_t *t = args->npos == 1 ? args->pos[0] : dalic_pybi_tuple(I, args->pos, args->npos);
	if (!t)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(dalic_pynp_shape_arg(I, at, "reshape", t, true, &ndim, shape));
	return dalic_pynp_reshape(I, at, dalic_pynp_array(self), ndim, shape, out);
}

static int pynp_m_astype(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	pyval_t *dt = args->npos ? args->pos[0] : dalic_pyeval_kwarg(args, "dtype");
	dalic_dtype_t t;
	if (!dt || args->npos > 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: astype() takes a dtype");
	DALIC_TRY(dalic_pynp_dtype_arg(I, at, dt, &t));
	DALIC_TRY(dalic_pynp_astype(I, at, dalic_pynp_array(self), t, out));
	dalic_pynp_array(*out)->scalar = dalic_pynp_array(self)->scalar;
	return DALIC_OK;
}

static int pynp_m_copy(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	return dalic_pynp_astype(I, at, a, a->dtype, out);
}

static int pynp_m_flatten(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	return dalic_pynp_reshape(I, at, a, 1, &a->size, out);
}

static int pynp_m_squeeze(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	int64_t shape[DALIC_MAX_NDIM];
	int n = 0;
	for (int d = 0; d < a->ndim; d++)
		if (a->shape[d] != 1)
			shape[n++] = a->shape[d];
	return dalic_pynp_reshape(I, at, a, n, shape, out);
}

static int pynp_m_transpose(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                            const pyargs_t *args, pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	int64_t perm[DALIC_MAX_NDIM], shape[DALIC_MAX_NDIM];
	int n = a->ndim;
	if (args->npos) {
		pyval_t *t =
		    args->npos == 1 ? args->pos[0] : dalic_pybi_tuple(I, args->pos, args->npos);
		if (!t)
			return dalic_pyeval_oom(I, at);
		DALIC_TRY(dalic_pynp_shape_arg(I, at, "transpose", t, false, &n, perm));
	} else {
		for (int d = 0; d < n; d++)
			perm[d] = n - 1 - d;
	}
	bool seen[DALIC_MAX_NDIM] = {0};
	for (int d = 0; d < n; d++) {
		if (n != a->ndim || perm[d] >= n || seen[perm[d]])
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: axes don't match array");
		seen[perm[d]] = true;
		shape[d] = a->shape[perm[d]];
	}
	DALIC_TRY(dalic_pynp_new(I, at, a->dtype, n, shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	int64_t stride[DALIC_MAX_NDIM], st = 1, idx[DALIC_MAX_NDIM] = {0};
	for (int d = n - 1; d >= 0; d--) {
		stride[d] = st;
		st *= a->shape[d];
	}
	size_t isz = dalic_dtype_size(a->dtype);
	for (int64_t k = 0; k < r->size; k++) {
		int64_t off = 0;
		for (int d = 0; d < n; d++)
			off += idx[d] * stride[perm[d]];
		memcpy(r->data + isz * (size_t)k, a->data + isz * (size_t)off, isz);
		for (int d = n - 1; d >= 0; d--) {
			if (++idx[d] < shape[d])
				break;
			idx[d] = 0;
		}
	}
	return dalic_pynp_refresh(I, r);
}

static int pynp_m_anyall(pyinterp_t *I, const pynode_t *at, pyval_t *self, bool any,
                         pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(self);
	bool r = !any; /* any: false until a non-zero; all: true until a zero */
	for (int64_t i = 0; i < a->size; i++)
		if ((dalic_dtype_load_f64(a->dtype, a->data, i) != 0) == any) {
			r = any;
			break;
		}
	pyval_t *b = dalic_pyval_bool(r);
	return dalic_pynp_scalar(I, at, DALIC_BOOL, b, out);
}

static int pynp_m_any(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	return pynp_m_anyall(I, at, self, true, out);
}

static int pynp_m_all(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	return pynp_m_anyall(I, at, self, false, out);
}

static const pyreg_t pynp_methods[] = {
    {"tolist", pynp_m_tolist},       {"item", pynp_m_item},
    {"reshape", pynp_m_reshape},     {"astype", pynp_m_astype},
    {"copy", pynp_m_copy},           {"flatten", pynp_m_flatten},
    {"ravel", pynp_m_flatten},       {"squeeze", pynp_m_squeeze},
    {"transpose", pynp_m_transpose}, {"any", pynp_m_any},
    {"all", pynp_m_all},             {NULL, NULL},
};

static pycfn_t pynp_find_method(const char *name)
{
	for (const pyreg_t *r = pynp_methods; r->name; r++)
		if (!strcmp(r->name, name))
			return r->fn;
	for (const pyreg_t *r = dalic_pynp_reductions; r->name; r++)
		if (!strcmp(r->name, name))
			return r->fn;
	return NULL;
}

static int pynp_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                        pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	*out = NULL;
	if (!strcmp(name, "shape"))
		PYEVAL_RET(pynp_shape_tuple(I, a));
	if (!strcmp(name, "dtype"))
		PYEVAL_RET(dalic_pynp_dtype_value(I, a->dtype, false));
	if (!strcmp(name, "ndim"))
		PYEVAL_RET(dalic_pyval_int(I->a, a->ndim));
	if (!strcmp(name, "size"))
		PYEVAL_RET(dalic_pyval_int(I->a, a->size));
	if (!strcmp(name, "itemsize"))
		PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)dalic_dtype_size(a->dtype)));
	if (!strcmp(name, "nbytes"))
		PYEVAL_RET(dalic_pyval_int(I->a, a->size * (int64_t)dalic_dtype_size(a->dtype)));
	if (!strcmp(name, "T"))
		return pynp_m_transpose(I, at, v, &(pyargs_t){0}, out);
	pycfn_t fn = pynp_find_method(name);
	if (fn)
		PYEVAL_RET(dalic_pybi_make(I, name, fn, v, NULL));
	return DALIC_OK;
}

/* ---- the type ------------------------------------------------------------------------- */

static const char *pynp_type_name(const pyval_t *v)
{
	pynp_array_t *a = dalic_pynp_array(v);
	return a->scalar ? dalic_dtype_short(a->dtype) : "numpy.ndarray";
}

static pyval_t *pynp_scalar_hook(const pyval_t *v)
{
	return dalic_pynp_array(v)->py;
}

static bool pynp_index_hook(const pyval_t *v, int64_t *out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	return a->ndim == 0 && a->py && a->py->kind == PV_INT ? (*out = a->py->i, true) : false;
}

static bool pynp_equal(const pyval_t *x, const pyval_t *y)
{
	pynp_array_t *a = dalic_pynp_array(x), *b = dalic_pynp_array(y);
	if (a->ndim || b->ndim || !a->py || !b->py)
		return x == y;
	return dalic_pyval_equal(a->py, b->py);
}

static uint64_t pynp_hash(const pyval_t *v)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->ndim == 0 && a->py)
		return dalic_pyval_hash(a->py);
	return (uint64_t)(uintptr_t)v;
}

const pytype_t dalic_pynp_array_type = {
    .name = "numpy.ndarray",
    .type_name = pynp_type_name,
    .format = dalic_pynp_format,
    .equal = pynp_equal,
    .hash = pynp_hash,
    .scalar = pynp_scalar_hook,
    .index = pynp_index_hook,
    .getattr = pynp_getattr,
    .getitem = pynp_getitem,
    .setitem = pynp_setitem,
    .items = pynp_items,
    .len = pynp_len,
    .truth = pynp_truth,
    .unary = dalic_pynp_unary,
    .binop = dalic_pynp_binop,
    .compare = dalic_pynp_compare,
};
