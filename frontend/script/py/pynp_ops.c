/*
 * Arithmetic of the numpy subset (see pynp.h): dtype promotion as NumPy 2 does it (NEP 50:
 * a Python int, float or bool operand is "weak" and takes the array's type when its kind
 * allows, numpy scalars and arrays are "strong"), broadcasting, the binary operators, the
 * comparisons, unary minus / plus / invert, and the conversions into arrays (np.asarray,
 * astype). Integers wrap as numpy's do; integer division by zero gives 0 (numpy warns),
 * negative integer powers are numpy's ValueError.
 */
#include "frontend/script/py/pynp.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <math.h>
#include <string.h>

/* ---- dtypes --------------------------------------------------------------------------- */

typedef enum { K_BOOL, K_UINT, K_SINT, K_FLOAT } pynp_kind_t;

static pynp_kind_t pynp_kind(dalic_dtype_t t)
{
	if (t == DALIC_BOOL)
		return K_BOOL;
	if (dalic_dtype_is_float(t))
		return K_FLOAT;
	return dalic_dtype_is_signed(t) ? K_SINT : K_UINT;
}

static int pynp_bits(dalic_dtype_t t)
{
	return (int)dalic_dtype_size(t) * 8;
}

static dalic_dtype_t pynp_int_type(bool is_signed, int bits)
{
	switch (bits) {
	case 8:
		return is_signed ? DALIC_INT8 : DALIC_UINT8;
	case 16:
		return is_signed ? DALIC_INT16 : DALIC_UINT16;
	case 32:
		return is_signed ? DALIC_INT32 : DALIC_UINT32;
	default:
		return is_signed ? DALIC_INT64 : DALIC_UINT64;
	}
}

static dalic_dtype_t pynp_float_type(int bits)
{
	return bits <= 16 ? DALIC_FLOAT16 : bits <= 32 ? DALIC_FLOAT : DALIC_FLOAT64;
}

dalic_dtype_t dalic_pynp_promote(dalic_dtype_t a, dalic_dtype_t b)
{
	pynp_kind_t ka = pynp_kind(a), kb = pynp_kind(b);
	int ba = pynp_bits(a), bb = pynp_bits(b);
	if (ka == K_BOOL)
		return b;
	if (kb == K_BOOL)
		return a;
	if (ka == K_FLOAT || kb == K_FLOAT) {
		/* a float wide enough for the integer: 8-bit ints fit float16, 16-bit float32 */
		int need = 0;
		if (ka != K_FLOAT)
			need = ba <= 8 ? 16 : ba <= 16 ? 32 : 64;
		if (kb != K_FLOAT)
			need = bb <= 8 ? 16 : bb <= 16 ? 32 : 64;
		int have = ka == K_FLOAT && kb == K_FLOAT ? (ba > bb ? ba : bb)
		           : ka == K_FLOAT                ? ba
		                                          : bb;
		return pynp_float_type(have > need ? have : need);
	}
	if (ka == kb)
		return pynp_int_type(ka == K_SINT, ba > bb ? ba : bb);
	int sbits = ka == K_SINT ? ba : bb, ubits = ka == K_UINT ? ba : bb;
	if (sbits > ubits)
		return pynp_int_type(true, sbits);
	return ubits < 64 ? pynp_int_type(true, ubits * 2) : DALIC_FLOAT64;
}

void dalic_pynp_store_f64(dalic_dtype_t t, void *base, int64_t i, double v)
{
	switch (pynp_kind(t)) {
	case K_BOOL:
		((uint8_t *)base)[i] = v != 0;
		return;
	case K_FLOAT:
		if (t == DALIC_FLOAT16)
			((uint16_t *)base)[i] = dalic_dtype_float_to_half((float)v);
		else if (t == DALIC_FLOAT)
			((float *)base)[i] = (float)v;
		else
			((double *)base)[i] = v;
		return;
	default:
		/* numpy's float -> int cast truncates; out of range it is undefined there, here
		 * it saturates (NaN gives 0) */
		if (isnan(v))
			v = 0;
		v = trunc(v);
		if (pynp_kind(t) == K_UINT && v < 0) {
			dalic_pynp_store_i64(t, base, i, v < -9.2e18 ? INT64_MIN : (int64_t)v);
			return;
		}
		dalic_dtype_store_sat(t, base, i, v);
		return;
	}
}

void dalic_pynp_store_i64(dalic_dtype_t t, void *base, int64_t i, int64_t v)
{
	switch (t) {
#define PYNP_STORE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                   \
	case DALIC_##ID:                                                                           \
		if (DALIC_DTYPE_IS(FLOAT, CLASS))                                                  \
			dalic_pynp_store_f64(t, base, i, (double)v);                               \
		else if (t == DALIC_BOOL)                                                          \
			((uint8_t *)base)[i] = v != 0;                                             \
		else /* integers wrap: keep the low bits */                                        \
			((CT *)base)[i] = (CT)(uint64_t)v;                                         \
		return;
		DALIC_DTYPES_NUMERIC(PYNP_STORE)
#undef PYNP_STORE
	default:
		return;
	}
}

/* ---- Python values -> arrays ---------------------------------------------------------- */

/* Shape and inferred dtype of nested sequences: every level must be rectangular. */
typedef struct nest {
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	dalic_dtype_t dtype; /* DALIC_NO_TYPE until an element is seen */
} nest_t;

static int pynp_seq(const pyval_t *v, pyval_t ***items, int *n)
{
	if (v->kind == PV_LIST) {
		*items = v->list->items;
		*n = v->list->n;
		return 1;
	}
	if (v->kind == PV_TUPLE) {
		*items = v->tuple.items;
		*n = v->tuple.n;
		return 1;
	}
	return 0;
}

static int pynp_ragged(pyinterp_t *I, const pynode_t *at)
{
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "ValueError: setting an array element with a sequence. The "
	                          "requested array has an inhomogeneous shape");
}

static int pynp_scan(pyinterp_t *I, const pynode_t *at, pyval_t *v, int depth, nest_t *s)
{
	pyval_t **items = NULL;
	int n = 0;
	pynp_array_t *arr = dalic_pynp_array(v);
	if (pynp_seq(v, &items, &n) || (arr && arr->ndim > 0)) {
		int64_t len = arr ? arr->shape[0] : n;
		if (depth >= DALIC_MAX_NDIM)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: arrays of more than %d dimensions are "
			                          "not supported",
			                          DALIC_MAX_NDIM);
		if (depth == s->ndim) {
			if (s->dtype != DALIC_NO_TYPE && depth > 0)
				return pynp_ragged(I, at);
			s->shape[s->ndim++] = len;
		} else if (s->shape[depth] != len) {
			return pynp_ragged(I, at);
		}
		if (arr) {
			/* an array nested in a list: its dims continue the shape */
			for (int d = 1; d < arr->ndim; d++) {
				if (depth + d >= DALIC_MAX_NDIM)
					return pynp_ragged(I, at);
				if (depth + d == s->ndim)
					s->shape[s->ndim++] = arr->shape[d];
				else if (s->shape[depth + d] != arr->shape[d])
					return pynp_ragged(I, at);
			}
			if (depth + arr->ndim != s->ndim)
				return pynp_ragged(I, at);
			s->dtype = s->dtype == DALIC_NO_TYPE ? arr->dtype
			                                     : dalic_pynp_promote(s->dtype, arr->dtype);
			return DALIC_OK;
		}
		for (int i = 0; i < n; i++)
			DALIC_TRY(pynp_scan(I, at, items[i], depth + 1, s));
		if (n == 0 && depth + 1 != s->ndim)
			return pynp_ragged(I, at);
		return DALIC_OK;
	}
	if (depth != s->ndim)
		return pynp_ragged(I, at);
	dalic_dtype_t t;
	if (arr)
		t = arr->dtype;
	else if (v->kind == PV_BOOL)
		t = DALIC_BOOL;
	else if (v->kind == PV_INT)
		t = DALIC_INT64;
	else if (v->kind == PV_FLOAT)
		t = DALIC_FLOAT64;
	else if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, "numpy array element");
	else
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: numpy arrays of '%s' are outside dalic's "
		                          "numpy subset (numbers and bools only)",
		                          dalic_pyval_type_name(v));
	/* Python scalars among arrays are weak: an int next to float32 stays float32 */
	if (s->dtype == DALIC_NO_TYPE)
		s->dtype = t;
	else if (arr)
		s->dtype = dalic_pynp_promote(s->dtype, t);
	else if (t == DALIC_FLOAT64 && !dalic_dtype_is_float(s->dtype))
		s->dtype = DALIC_FLOAT64;
	else if (t == DALIC_INT64 && s->dtype == DALIC_BOOL)
		s->dtype = DALIC_INT64;
	return DALIC_OK;
}

static void pynp_fill(pyval_t *v, pynp_array_t *dst, int64_t *pos)
{
	pyval_t **items = NULL;
	int n = 0;
	pynp_array_t *arr = dalic_pynp_array(v);
	if (arr) {
		for (int64_t i = 0; i < arr->size; i++) {
			if (dalic_dtype_is_float(arr->dtype) || dalic_dtype_is_float(dst->dtype))
				dalic_pynp_store_f64(dst->dtype, dst->data, (*pos)++,
				                     dalic_dtype_load_f64(arr->dtype, arr->data, i));
			else
				dalic_pynp_store_i64(dst->dtype, dst->data, (*pos)++,
				                     dalic_dtype_load_i64(arr->dtype, arr->data, i));
		}
		return;
	}
	if (pynp_seq(v, &items, &n)) {
		for (int i = 0; i < n; i++)
			pynp_fill(items[i], dst, pos);
		return;
	}
	if (v->kind == PV_FLOAT)
		dalic_pynp_store_f64(dst->dtype, dst->data, (*pos)++, v->f);
	else
		dalic_pynp_store_i64(dst->dtype, dst->data, (*pos)++,
		                     v->kind == PV_BOOL ? v->b : v->i);
}

/* The range of an integer dtype (the dtype table's LO / HI columns). */
static void pynp_int_range(dalic_dtype_t t, double *lo, double *hi)
{
	switch (t) {
#define PYNP_RANGE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                   \
	case DALIC_##ID:                                                                           \
		*lo = (double)(LO);                                                                \
		*hi = (double)(HI);                                                                \
		return;
		DALIC_DTYPES_NUMERIC(PYNP_RANGE)
#undef PYNP_RANGE
	default:
		*lo = *hi = 0;
	}
}

/* A Python int stored into an integer array must fit it (NumPy 2's OverflowError). */
static int pynp_check_fits(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t t)
{
	pyval_t **items = NULL;
	int n = 0;
	if (pynp_seq(v, &items, &n)) {
		for (int i = 0; i < n; i++)
			DALIC_TRY(pynp_check_fits(I, at, items[i], t));
		return DALIC_OK;
	}
	if (v->kind != PV_INT || !dalic_dtype_is_integral(t) || t == DALIC_BOOL)
		return DALIC_OK;
	double lo, hi;
	pynp_int_range(t, &lo, &hi);
	bool fits = t == DALIC_UINT64 ? v->i >= 0 : (double)v->i >= lo && (double)v->i <= hi;
	if (!fits)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "OverflowError: Python integer %lld out of bounds for %s",
		                          (long long)v->i, dalic_dtype_short(t));
	return DALIC_OK;
}

/* Strings in v parsed as a numeric dtype t asks (numpy: int(s) for integer types, float(s)
 * for floating ones; np.array(['3'], dtype=np.uint8), the labels read from a file list):
 * *out is v itself when it holds none. */
static int pynp_parse_strings(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t t,
                              pyval_t **out)
{
	pyval_t **items = NULL;
	int n = 0;
	*out = v;
	if (v->kind == PV_STR && t != DALIC_BOOL) {
		pyval_t *conv = dalic_pydict_get_str(I->builtins,
		                                     dalic_dtype_is_float(t) ? "float" : "int");
		return conv ? dalic_pyeval_call1(I, at, conv, v, out) : DALIC_OK;
	}
	if (!pynp_seq(v, &items, &n))
		return DALIC_OK;
	pyval_t *copy = NULL;
	for (int i = 0; i < n; i++) {
		pyval_t *x;
		DALIC_TRY(pynp_parse_strings(I, at, items[i], t, &x));
		if (x != items[i] && !copy) {
			if (!(copy = dalic_pyval_list(I->a, n)))
				return dalic_pyeval_oom(I, at);
			for (int k = 0; k < n; k++)
				if (dalic_pyval_list_append(I->a, copy, items[k]))
					return dalic_pyeval_oom(I, at);
		}
		if (copy)
			copy->list->items[i] = x;
	}
	if (copy)
		*out = copy;
	return DALIC_OK;
}

int dalic_pynp_asarray(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t dtype,
                       pyval_t **out)
{
	if (dtype != DALIC_NO_TYPE && !dalic_pynp_array(v))
		DALIC_TRY(pynp_parse_strings(I, at, v, dtype, &v));
	if (v->kind == PV_HOST && v->host.type->array) { /* __array__ */
		DALIC_TRY(v->host.type->array(I, at, v, &v));
		if (!dalic_pynp_array(v))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: __array__ did not return an array");
	}
	pynp_array_t *arr = dalic_pynp_array(v);
	if (arr && !arr->scalar && (dtype == DALIC_NO_TYPE || dtype == arr->dtype)) {
		*out = v;
		return DALIC_OK;
	}
	if (arr && arr->ndim == 0) {
		DALIC_TRY(dalic_pynp_astype(I, at, arr, dtype == DALIC_NO_TYPE ? arr->dtype : dtype,
		                            out));
		dalic_pynp_array(*out)->scalar = false;
		return DALIC_OK;
	}
	nest_t s = {.dtype = DALIC_NO_TYPE};
	DALIC_TRY(pynp_scan(I, at, v, 0, &s));
	if (s.dtype == DALIC_NO_TYPE)
		s.dtype = DALIC_FLOAT64; /* np.array([]) */
	dalic_dtype_t t = dtype == DALIC_NO_TYPE ? s.dtype : dtype;
	if (dtype != DALIC_NO_TYPE)
		DALIC_TRY(pynp_check_fits(I, at, v, t));
	DALIC_TRY(dalic_pynp_new(I, at, t, s.ndim, s.shape, out));
	pynp_array_t *dst = dalic_pynp_array(*out);
	int64_t pos = 0;
	pynp_fill(v, dst, &pos);
	return dalic_pynp_refresh(I, dst);
}

int dalic_pynp_astype(pyinterp_t *I, const pynode_t *at, const pynp_array_t *a, dalic_dtype_t t,
                      pyval_t **out)
{
	DALIC_TRY(dalic_pynp_new(I, at, t, a->ndim, a->shape, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	r->scalar = a->scalar;
	bool as_float = dalic_dtype_is_float(a->dtype);
	for (int64_t i = 0; i < a->size; i++) {
		if (as_float)
			dalic_pynp_store_f64(t, r->data, i, dalic_dtype_load_f64(a->dtype, a->data, i));
		else
			dalic_pynp_store_i64(t, r->data, i, dalic_dtype_load_i64(a->dtype, a->data, i));
	}
	return dalic_pynp_refresh(I, r);
}

/* ---- operands ------------------------------------------------------------------------- */

typedef enum { W_NONE, W_BOOL, W_INT, W_FLOAT } pynp_weak_t;

typedef struct operand {
	pynp_array_t *a;
	pynp_weak_t weak; /* a Python scalar */
	pyval_t *py;      /* the Python value of a weak operand */
} operand_t;

/* PY_NOT_HANDLED when v is not something numpy operates on (a DataNode, a str...). */
static int pynp_operand(pyinterp_t *I, const pynode_t *at, pyval_t *v, operand_t *o)
{
	memset(o, 0, sizeof *o);
	if ((o->a = dalic_pynp_array(v)))
		return DALIC_OK;
	pyval_t *arr;
	switch (v->kind) {
	case PV_BOOL:
	case PV_INT:
	case PV_FLOAT:
		o->weak = v->kind == PV_BOOL ? W_BOOL : v->kind == PV_INT ? W_INT : W_FLOAT;
		o->py = v;
		DALIC_TRY(dalic_pynp_asarray(I, at, v, DALIC_NO_TYPE, &arr));
		break;
	case PV_LIST:
	case PV_TUPLE:
		DALIC_TRY(dalic_pynp_asarray(I, at, v, DALIC_NO_TYPE, &arr));
		break;
	default:
		return PY_NOT_HANDLED;
	}
	o->a = dalic_pynp_array(arr);
	return DALIC_OK;
}

/* The dtype of `strong op weak` (NEP 50). */
static int pynp_weak_result(pyinterp_t *I, const pynode_t *at, const operand_t *s,
                            const operand_t *w, dalic_dtype_t *out)
{
	pynp_kind_t k = pynp_kind(s->a->dtype);
	if (I->numba && w->weak != W_BOOL) { /* numba types literals as int64 / float64 */
		*out = dalic_pynp_promote(s->a->dtype,
		                          w->weak == W_INT ? DALIC_INT64 : DALIC_FLOAT64);
		return DALIC_OK;
	}
	switch (w->weak) {
	case W_BOOL:
		*out = s->a->dtype;
		return DALIC_OK;
	case W_INT:
		if (k == K_BOOL) {
			*out = DALIC_INT64;
			return DALIC_OK;
		}
		*out = s->a->dtype;
		return k == K_FLOAT ? DALIC_OK : pynp_check_fits(I, at, w->py, *out);
	default:
		*out = k == K_FLOAT ? s->a->dtype : DALIC_FLOAT64;
		return DALIC_OK;
	}
}

static int pynp_result_type(pyinterp_t *I, const pynode_t *at, const operand_t *x,
                            const operand_t *y, dalic_dtype_t *out)
{
	if (x->weak && !y->weak)
		return pynp_weak_result(I, at, y, x, out);
	if (y->weak && !x->weak)
		return pynp_weak_result(I, at, x, y, out);
	*out = dalic_pynp_promote(x->a->dtype, y->a->dtype);
	return DALIC_OK;
}

/* ---- broadcasting --------------------------------------------------------------------- */

typedef struct bcast {
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	int64_t size;
	int64_t stride[2][DALIC_MAX_NDIM]; /* element strides of both operands, 0 = broadcast */
} bcast_t;

static void pynp_format_shape(char *buf, size_t n, const pynp_array_t *a)
{
	size_t k = (size_t)snprintf(buf, n, "(");
	for (int d = 0; d < a->ndim && k < n; d++)
		k += (size_t)snprintf(buf + k, n - k, "%lld%s", (long long)a->shape[d],
		                      a->ndim == 1 ? "," : d + 1 < a->ndim ? "," : "");
	if (k < n)
		snprintf(buf + k, n - k, ")");
}

static int pynp_broadcast(pyinterp_t *I, const pynode_t *at, const pynp_array_t *x,
                          const pynp_array_t *y, bcast_t *b)
{
	const pynp_array_t *ops[2] = {x, y};
	b->ndim = x->ndim > y->ndim ? x->ndim : y->ndim;
	b->size = 1;
	for (int d = b->ndim - 1; d >= 0; d--) {
		int64_t ext = 1;
		for (int k = 0; k < 2; k++) {
			int od = d - (b->ndim - ops[k]->ndim);
			int64_t e = od >= 0 ? ops[k]->shape[od] : 1;
			if (e != 1 && ext != 1 && e != ext) {
				char sx[160], sy[160];
				pynp_format_shape(sx, sizeof sx, x);
				pynp_format_shape(sy, sizeof sy, y);
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "ValueError: operands could not be broadcast "
				                          "together with shapes %s %s",
				                          sx, sy);
			}
			if (e != 1)
				ext = e;
		}
		b->shape[d] = ext;
		b->size *= ext;
	}
	for (int k = 0; k < 2; k++) {
		int64_t st = 1;
		for (int d = b->ndim - 1; d >= 0; d--) {
			int od = d - (b->ndim - ops[k]->ndim);
			int64_t e = od >= 0 ? ops[k]->shape[od] : 1;
			b->stride[k][d] = e == 1 ? 0 : st;
			st *= e;
		}
	}
	return DALIC_OK;
}

/* Walks the broadcast index: offsets of both operands for every output element in order. */
typedef struct bwalk {
	int64_t idx[DALIC_MAX_NDIM];
	int64_t off[2];
} bwalk_t;

static void pynp_bwalk_next(const bcast_t *b, bwalk_t *w)
{
	for (int d = b->ndim - 1; d >= 0; d--) {
		w->off[0] += b->stride[0][d];
		w->off[1] += b->stride[1][d];
		if (++w->idx[d] < b->shape[d])
			return;
		w->off[0] -= b->stride[0][d] * b->shape[d];
		w->off[1] -= b->stride[1][d] * b->shape[d];
		w->idx[d] = 0;
	}
}

/* ---- binary operators ----------------------------------------------------------------- */

static double pynp_floor_mod(double a, double b)
{
	double m = fmod(a, b);
	if (m != 0 && ((m < 0) != (b < 0)))
		m += b;
	return m;
}

static int pynp_float_op(pyop_t op, double a, double b, double *r)
{
	switch (op) {
	case OP_PLUS:
		*r = a + b;
		return 1;
	case OP_MINUS:
		*r = a - b;
		return 1;
	case OP_STAR:
		*r = a * b;
		return 1;
	case OP_SLASH:
		*r = a / b;
		return 1;
	case OP_DSLASH:
		*r = b == 0 ? a / b : floor((a - pynp_floor_mod(a, b)) / b);
		return 1;
	case OP_PERCENT:
		*r = b == 0 ? NAN : pynp_floor_mod(a, b);
		return 1;
	case OP_DSTAR:
		*r = pow(a, b);
		return 1;
	default:
		return 0;
	}
}

/* Integer arithmetic modulo 2^64 (numpy wraps); *r is cast to the result type later. */
static int pynp_int_op(pyop_t op, int64_t a, int64_t b, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op) {
	case OP_PLUS:
		*r = (int64_t)(ua + ub);
		return 1;
	case OP_MINUS:
		*r = (int64_t)(ua - ub);
		return 1;
	case OP_STAR:
		*r = (int64_t)(ua * ub);
		return 1;
	case OP_DSLASH:
	case OP_PERCENT: {
		if (b == 0 || (a == INT64_MIN && b == -1)) {
			*r = b == 0 ? 0 : op == OP_DSLASH ? INT64_MIN : 0;
			return 1;
		}
		int64_t q = a / b, m = a % b;
		if (m != 0 && ((m < 0) != (b < 0))) {
			q--;
			m += b;
		}
		*r = op == OP_DSLASH ? q : m;
		return 1;
	}
	case OP_DSTAR: {
		uint64_t acc = 1, base = ua;
		for (int64_t e = b; e > 0; e >>= 1) {
			if (e & 1)
				acc *= base;
			base *= base;
		}
		*r = (int64_t)acc;
		return 1;
	}
	case OP_AMP:
		*r = a & b;
		return 1;
	case OP_PIPE:
		*r = a | b;
		return 1;
	case OP_CARET:
		*r = a ^ b;
		return 1;
	case OP_LSHIFT:
		*r = b < 0 || b >= 64 ? 0 : (int64_t)(ua << b);
		return 1;
	case OP_RSHIFT:
		*r = b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b;
		return 1;
	default:
		return 0;
	}
}

static const char *pynp_op_name(pyop_t op)
{
	switch (op) {
	case OP_PLUS:
		return "add";
	case OP_MINUS:
		return "subtract";
	case OP_STAR:
		return "multiply";
	case OP_SLASH:
		return "divide";
	case OP_DSLASH:
		return "floor_divide";
	case OP_PERCENT:
		return "remainder";
	case OP_DSTAR:
		return "power";
	case OP_AMP:
		return "bitwise_and";
	case OP_PIPE:
		return "bitwise_or";
	case OP_CARET:
		return "bitwise_xor";
	case OP_LSHIFT:
		return "left_shift";
	case OP_RSHIFT:
		return "right_shift";
	default:
		return "matmul";
	}
}

int dalic_pynp_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                     pyval_t **out)
{
	operand_t x, y;
	int rc = pynp_operand(I, at, l, &x);
	if (rc)
		return rc;
	if ((rc = pynp_operand(I, at, r, &y)))
		return rc;
	dalic_dtype_t t;
	DALIC_TRY(pynp_result_type(I, at, &x, &y, &t));
	bool bitwise = op == OP_AMP || op == OP_PIPE || op == OP_CARET || op == OP_LSHIFT ||
	               op == OP_RSHIFT;
	if (op == OP_AT)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: matrix multiplication (@) is outside dalic's "
		                          "numpy subset");
	if (bitwise && dalic_dtype_is_float(t))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: ufunc '%s' not supported for the input types",
		                          pynp_op_name(op));
	if (op == OP_SLASH && !dalic_dtype_is_float(t))
		t = DALIC_FLOAT64;
	if (t == DALIC_BOOL && !bitwise && op != OP_STAR && op != OP_PLUS)
		t = op == OP_MINUS ? DALIC_BOOL : DALIC_INT8;
	if (t == DALIC_BOOL && op == OP_MINUS)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: numpy boolean subtract, the `-` operator, is "
		                          "not supported, use the bitwise_xor, the `^` operator, or "
		                          "the logical_xor function instead.");
	bcast_t b;
	DALIC_TRY(pynp_broadcast(I, at, x.a, y.a, &b));
	DALIC_TRY(dalic_pynp_new(I, at, t, b.ndim, b.shape, out));
	pynp_array_t *res = dalic_pynp_array(*out);
	res->scalar = b.ndim == 0 && (x.a->scalar || y.a->scalar || x.weak || y.weak);
	bool as_float = dalic_dtype_is_float(t);
	bwalk_t w = {0};
	for (int64_t i = 0; i < b.size; i++, pynp_bwalk_next(&b, &w)) {
		if (as_float) {
			double v = 0;
			pynp_float_op(op, dalic_dtype_load_f64(x.a->dtype, x.a->data, w.off[0]),
			              dalic_dtype_load_f64(y.a->dtype, y.a->data, w.off[1]), &v);
			dalic_pynp_store_f64(t, res->data, i, v);
		} else {
			int64_t a = dalic_dtype_load_i64(x.a->dtype, x.a->data, w.off[0]);
			int64_t c = dalic_dtype_load_i64(y.a->dtype, y.a->data, w.off[1]), v;
			if (op == OP_DSTAR && c < 0)
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "ValueError: Integers to negative integer "
				                          "powers are not allowed.");
			if (!pynp_int_op(op, a, c, &v))
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "TypeError: unsupported operand for %s",
				                          pynp_op_name(op));
			dalic_pynp_store_i64(t, res->data, i, v);
		}
	}
	return dalic_pynp_refresh(I, res);
}

int dalic_pynp_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out)
{
	if (op == CMP_IN || op == CMP_NOTIN || op == CMP_IS || op == CMP_ISNOT)
		return PY_NOT_HANDLED;
	operand_t x, y;
	int rc = pynp_operand(I, at, l, &x);
	if (!rc)
		rc = pynp_operand(I, at, r, &y);
	if (rc)
		return rc;
	dalic_dtype_t t;
	DALIC_TRY(pynp_result_type(I, at, &x, &y, &t));
	bcast_t b;
	DALIC_TRY(pynp_broadcast(I, at, x.a, y.a, &b));
	DALIC_TRY(dalic_pynp_new(I, at, DALIC_BOOL, b.ndim, b.shape, out));
	pynp_array_t *res = dalic_pynp_array(*out);
	res->scalar = b.ndim == 0;
	bool as_float = dalic_dtype_is_float(t);
	bwalk_t w = {0};
	for (int64_t i = 0; i < b.size; i++, pynp_bwalk_next(&b, &w)) {
		int c;
		bool unordered = false;
		if (as_float) {
			double a = dalic_dtype_load_f64(x.a->dtype, x.a->data, w.off[0]);
			double d = dalic_dtype_load_f64(y.a->dtype, y.a->data, w.off[1]);
			unordered = isnan(a) || isnan(d);
			c = a < d ? -1 : a > d;
		} else {
			int64_t a = dalic_dtype_load_i64(x.a->dtype, x.a->data, w.off[0]);
			int64_t d = dalic_dtype_load_i64(y.a->dtype, y.a->data, w.off[1]);
			c = a < d ? -1 : a > d;
		}
		bool v = op == CMP_EQ   ? c == 0
		         : op == CMP_NE ? c != 0
		         : op == CMP_LT ? c < 0
		         : op == CMP_LE ? c <= 0
		         : op == CMP_GT ? c > 0
		                        : c >= 0;
		res->data[i] = unordered ? op == CMP_NE : v;
	}
	return dalic_pynp_refresh(I, res);
}

int dalic_pynp_unary(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v, pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (op == U_INVERT && dalic_dtype_is_float(a->dtype))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: ufunc 'invert' not supported for the input "
		                          "types");
	if (op == U_NEG && a->dtype == DALIC_BOOL)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: The numpy boolean negative, the `-` operator, "
		                          "is not supported, use the `~` operator or the "
		                          "logical_not function instead.");
	DALIC_TRY(dalic_pynp_astype(I, at, a, a->dtype, out));
	pynp_array_t *r = dalic_pynp_array(*out);
	if (op == U_POS)
		return DALIC_OK;
	for (int64_t i = 0; i < r->size; i++) {
		if (dalic_dtype_is_float(r->dtype))
			dalic_pynp_store_f64(r->dtype, r->data, i,
			                     -dalic_dtype_load_f64(r->dtype, r->data, i));
		else if (r->dtype == DALIC_BOOL)
			r->data[i] = !r->data[i];
		else {
			uint64_t x = (uint64_t)dalic_dtype_load_i64(r->dtype, r->data, i);
			dalic_pynp_store_i64(r->dtype, r->data, i,
			                     (int64_t)(op == U_NEG ? 0 - x : ~x));
		}
	}
	return dalic_pynp_refresh(I, r);
}
