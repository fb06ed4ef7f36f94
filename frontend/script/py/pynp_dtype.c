/*
 * Dtypes of the numpy subset (see pynp.h): the scalar types (np.float32, np.uint8...: called,
 * they make numpy scalars or arrays) and dtype objects (a.dtype, np.dtype('float32')), which
 * compare equal to each other and to the dtype's name as numpy's do, and the conversion of
 * whatever a script passes as `dtype=` into a dtype.
 */
#include "frontend/script/py/pynp.h"

#include "frontend/script/py/pydict.h"

#include <string.h>

pyval_t *dalic_pynp_dtype_value(pyinterp_t *I, dalic_dtype_t t, bool is_type)
{
	pynp_dtype_t *d = dalic_pyarena_alloc(I->a, sizeof *d);
	if (!d)
		return NULL;
	d->dtype = t;
	d->is_type = is_type;
	return dalic_pyval_host(I->a, &dalic_pynp_dtype_type, d);
}

/* numpy's names and array-protocol codes of the numeric dtypes. */
static dalic_dtype_t pynp_dtype_by_name(const char *s)
{
	static const struct {
		const char *name;
		dalic_dtype_t t;
	} names[] = {
	    {"bool", DALIC_BOOL},     {"bool_", DALIC_BOOL},     {"?", DALIC_BOOL},
	    {"b1", DALIC_BOOL},       {"uint8", DALIC_UINT8},    {"u1", DALIC_UINT8},
	    {"B", DALIC_UINT8},       {"uint16", DALIC_UINT16},  {"u2", DALIC_UINT16},
	    {"uint32", DALIC_UINT32}, {"u4", DALIC_UINT32},      {"uint64", DALIC_UINT64},
	    {"u8", DALIC_UINT64},     {"int8", DALIC_INT8},      {"i1", DALIC_INT8},
	    {"b", DALIC_INT8},        {"int16", DALIC_INT16},    {"i2", DALIC_INT16},
	    {"int32", DALIC_INT32},   {"i4", DALIC_INT32},       {"int64", DALIC_INT64},
	    {"i8", DALIC_INT64},      {"int", DALIC_INT64},      {"float16", DALIC_FLOAT16},
	    {"f2", DALIC_FLOAT16},    {"half", DALIC_FLOAT16},   {"float32", DALIC_FLOAT},
	    {"f4", DALIC_FLOAT},      {"single", DALIC_FLOAT},   {"float64", DALIC_FLOAT64},
	    {"f8", DALIC_FLOAT64},    {"float", DALIC_FLOAT64},  {"double", DALIC_FLOAT64},
	    {"uint", DALIC_UINT64},   {"intp", DALIC_INT64},     {"uintp", DALIC_UINT64},
	};
	if (*s == '<' || *s == '|' || *s == '=')
		s++;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i].name, s))
			return names[i].t;
	return DALIC_NO_TYPE;
}

int dalic_pynp_dtype_arg(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t *out)
{
	pynp_dtype_t *d = dalic_pynp_dtype(v);
	if (d) {
		*out = d->dtype;
		return DALIC_OK;
	}
	pynp_array_t *a = dalic_pynp_array(v);
	if (a) { /* np.zeros(3, dtype=x.dtype) reads x.dtype; passing x itself is an error */
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: Cannot interpret an array as a data type");
	}
	*out = DALIC_NO_TYPE;
	if (v->kind == PV_STR)
		*out = pynp_dtype_by_name(v->str.s);
	else if (v->kind == PV_BUILTIN && v->builtin.name &&
	         (!strcmp(v->builtin.name, "int") || !strcmp(v->builtin.name, "float") ||
	          !strcmp(v->builtin.name, "bool")))
		*out = pynp_dtype_by_name(v->builtin.name); /* Python's types: int64, float64 */
	if (*out != DALIC_NO_TYPE)
		return DALIC_OK;
	if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, "dtype");
	pybuf_t b = {0};
	dalic_pyval_format(&b, v, true);
	int rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
	                            "TypeError: data type %s not understood (dalic's numpy subset "
	                            "knows bool, int8..int64, uint8..uint64, float16, float32, "
	                            "float64)",
	                            b.s && !b.oom ? b.s : "?");
	dalic_pybuf_free(&b);
	return rc;
}

int dalic_pynp_dtype_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "dtype", args, 1, 1));
	dalic_dtype_t t;
	DALIC_TRY(dalic_pynp_dtype_arg(I, at, args->pos[0], &t));
	PYEVAL_RET(dalic_pynp_dtype_value(I, t, false));
}

/* np.float32(x): a numpy scalar of a number, an array of a sequence, 0 with no argument. */
int dalic_pynp_dtype_call(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
                          pyval_t **out)
{
	pynp_dtype_t *d = dalic_pynp_dtype(v);
	if (!d->is_type)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: 'numpy.dtype' object is not callable");
	DALIC_TRY(dalic_pybi_nargs(I, at, dalic_dtype_short(d->dtype), args, 0, 1));
	pyval_t *x = args->npos ? args->pos[0] : dalic_pyval_false();
	if (x->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, dalic_dtype_short(d->dtype), out);
	if (x->kind == PV_STR) {
		/* np.float32("0.5"): numpy parses the text */
		pyval_t *conv;
		pyval_t *fn = dalic_pydict_get_str(I->builtins,
		                                   dalic_dtype_is_float(d->dtype) ? "float" : "int");
		if (!fn)
			return dalic_pyeval_oom(I, at);
		DALIC_TRY(dalic_pyeval_call1(I, at, fn, x, &conv));
		x = conv;
	}
	return dalic_pynp_scalar(I, at, d->dtype, x, out);
}

int dalic_pynp_dtype_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                             pyval_t **out)
{
	pynp_dtype_t *d = dalic_pynp_dtype(v);
	*out = NULL;
	if (!strcmp(name, "name") || !strcmp(name, "__name__"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_dtype_short(d->dtype)));
	if (!strcmp(name, "itemsize"))
		PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)dalic_dtype_size(d->dtype)));
	if (!strcmp(name, "kind"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, d->dtype == DALIC_BOOL               ? "b"
		                                  : dalic_dtype_is_float(d->dtype)  ? "f"
		                                  : dalic_dtype_is_signed(d->dtype) ? "i"
		                                                                    : "u"));
	if (!strcmp(name, "type"))
		PYEVAL_RET(dalic_pynp_dtype_value(I, d->dtype, true));
	if (!strcmp(name, "str"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_dtype_npy_descr(d->dtype)));
	return DALIC_OK;
}

static bool pynp_dtype_equal(const pyval_t *x, const pyval_t *y)
{
	return dalic_pynp_dtype(x)->dtype == dalic_pynp_dtype(y)->dtype;
}

static uint64_t pynp_dtype_hash(const pyval_t *v)
{
	return 0x9e3779b97f4a7c15ULL * (uint64_t)(dalic_pynp_dtype(v)->dtype + 1);
}

/* dtype == np.float32, dtype == 'float32' */
static int pynp_dtype_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l,
                              pyval_t *r, pyval_t **out)
{
	if (op != CMP_EQ && op != CMP_NE)
		return PY_NOT_HANDLED;
	pyval_t *other = dalic_pynp_dtype(l) ? r : l;
	dalic_dtype_t mine = dalic_pynp_dtype(dalic_pynp_dtype(l) ? l : r)->dtype, theirs;
	if (dalic_pynp_dtype(other))
		theirs = dalic_pynp_dtype(other)->dtype;
	else if (other->kind == PV_STR)
		theirs = pynp_dtype_by_name(other->str.s);
	else
		return PY_NOT_HANDLED;
	*out = dalic_pyval_bool((mine == theirs) == (op == CMP_EQ));
	return DALIC_OK;
}

static const char *pynp_dtype_type_name(const pyval_t *v)
{
	return dalic_pynp_dtype(v)->is_type ? "type" : "numpy.dtype";
}

const pytype_t dalic_pynp_dtype_type = {
    .name = "numpy.dtype",
    .type_name = pynp_dtype_type_name,
    .format = dalic_pynp_format,
    .equal = pynp_dtype_equal,
    .hash = pynp_dtype_hash,
    .getattr = dalic_pynp_dtype_getattr,
    .call = dalic_pynp_dtype_call,
    .compare = pynp_dtype_compare,
};
