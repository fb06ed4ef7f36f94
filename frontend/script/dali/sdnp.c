/*
 * NumPy values in DALI's API (see sdnp.h). Arithmetic: DALI passes Python ints and floats
 * through and wraps everything else in types.Constant, so a 0-d array or numpy scalar becomes
 * a ScalarConstant of its own dtype ("$0:float64"), except numpy.float64 scalars, which are
 * Python floats by type but not `type(x) is float`: DALI rejects them, and so does dalic.
 * Arrays become Constant operators as types.ConstantNode builds them.
 */
#include "frontend/script/dali/sdnp.h"

#include "frontend/script/dali/sdconst.h"

#include "engine/dtype.h"

#include <string.h>

pyval_t *dalic_sdnp_scalar_value(const pyval_t *v)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (!a || a->size != 1 || a->ndim > 1)
		return NULL;
	return a->py;
}

int dalic_sdnp_operand(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	pynp_array_t *a = dalic_pynp_array(v);
	if (a->ndim > 0)
		return dalic_sdnp_constant(I, at, v, -1, NULL, NULL, NULL, NULL, out);
	if (a->scalar && a->dtype == DALIC_FLOAT64)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Argument to arithmetic operation not supported.Got <class "
		    "'numpy.float64'>, expected a return value from otherDALI Operator  or a "
		    "constant value of type 'bool', 'int', 'float' or 'nvidia.dali.types.Constant'.");
	*out = dalic_sdval_new_sconst(I->a, a->py, a->dtype);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

/* _preprocess_constant_array_type: float64 -> float32; with no dtype, int64 / uint64 ->
 * int32 / uint32 when every value fits. */
static int sdnp_preprocess(pyinterp_t *I, const pynode_t *at, pynp_array_t *a, int dtype,
                           pynp_array_t **out)
{
	dalic_dtype_t to = a->dtype;
	if (a->dtype == DALIC_FLOAT64)
		to = DALIC_FLOAT;
	else if (dtype < 0 && (a->dtype == DALIC_INT64 || a->dtype == DALIC_UINT64)) {
		bool is_signed = a->dtype == DALIC_INT64;
		for (int64_t i = 0; i < a->size; i++) {
			int64_t x = dalic_dtype_load_i64(a->dtype, a->data, i);
			bool fits = is_signed ? x >= INT32_MIN && x <= INT32_MAX
			                      : (uint64_t)x <= UINT32_MAX;
			if (!fits)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL, "OverflowError: Integer %lld out of range for %s",
				    (long long)x, is_signed ? "int32" : "uint32");
		}
		to = is_signed ? DALIC_INT32 : DALIC_UINT32;
	}
	if (to == a->dtype) {
		*out = a;
		return DALIC_OK;
	}
	pyval_t *c;
	DALIC_TRY(dalic_pynp_astype(I, at, a, to, &c));
	*out = dalic_pynp_array(c);
	return DALIC_OK;
}

int dalic_sdnp_constant(pyinterp_t *I, const pynode_t *at, pyval_t *v, int dtype, pyval_t *shape,
                        pyval_t *layout, const char *device, const pyargs_t *extra,
                        pyval_t **out)
{
	pynp_array_t *a = NULL;
	DALIC_TRY(sdnp_preprocess(I, at, dalic_pynp_array(v), dtype, &a));
	if (dtype < 0)
		dtype = a->dtype;
	if (shape) { /* value.reshape(shape) */
		int ndim;
		int64_t s[DALIC_MAX_NDIM];
		pyval_t *r;
		DALIC_TRY(dalic_pynp_shape_arg(I, at, "Constant", shape, true, &ndim, s));
		DALIC_TRY(dalic_pynp_reshape(I, at, a, ndim, s, &r));
		a = dalic_pynp_array(r);
	}
	pyval_t *sl = dalic_pyval_list(I->a, a->ndim + 1), *data = dalic_pyval_list(I->a, 16);
	if (!sl || !data)
		return dalic_pyeval_oom(I, at);
	for (int d = 0; d < a->ndim; d++)
		if (dalic_pyval_list_append(I->a, sl, dalic_pyval_int(I->a, a->shape[d])))
			return dalic_pyeval_oom(I, at);
	bool isint = !dalic_dtype_is_float(a->dtype);
	for (int64_t i = 0; i < a->size; i++) {
		pyval_t *x = isint ? dalic_pyval_int(I->a, dalic_dtype_load_i64(a->dtype, a->data, i))
		                   : dalic_pyval_float(I->a, dalic_dtype_load_f64(a->dtype, a->data, i));
		if (!x || dalic_pyval_list_append(I->a, data, x))
			return dalic_pyeval_oom(I, at);
	}
	return dalic_sdconst_emit(I, at, data, isint, sl, dtype, layout, device, extra, out);
}

int dalic_sdnp_dtype_error(pyinterp_t *I, const pynode_t *at, const char *where,
                           const pyval_t *v)
{
	pynp_dtype_t *d = dalic_pynp_dtype(v);
	const char *n = d ? dalic_dtype_short(d->dtype) : "?";
	dalic_dtype_t dali = d ? d->dtype : DALIC_NO_TYPE;
	return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
	                          "TypeError: %s: numpy.%s is a numpy type, not a DALIDataType "
	                          "(DALI refuses it too); write types.%s or "
	                          "types.to_dali_type(np.%s)",
	                          where, n, dalic_dtype_name(dali), n);
}

/* ---- types.to_dali_type / to_numpy_type ----------------------------------------------- */

/* types.to_dali_type: DALI's own name table (where "float" is FLOAT, not float64) over the
 * type's name: np.float32 -> 'float32', Python's float -> 'float', or a string. */
static dalic_dtype_t sdnp_dali_type_by_name(const char *n)
{
	static const struct {
		const char *name;
		dalic_dtype_t t;
	} names[] = {
	    {"bool", DALIC_BOOL},     {"bool_", DALIC_BOOL},     {"boolean", DALIC_BOOL},
	    {"int8", DALIC_INT8},     {"sbyte", DALIC_INT8},     {"uint8", DALIC_UINT8},
	    {"byte", DALIC_UINT8},    {"ubyte", DALIC_UINT8},    {"int16", DALIC_INT16},
	    {"short", DALIC_INT16},   {"uint16", DALIC_UINT16},  {"ushort", DALIC_UINT16},
	    {"int32", DALIC_INT32},   {"uint32", DALIC_UINT32},  {"int64", DALIC_INT64},
	    {"long", DALIC_INT64},    {"uint64", DALIC_UINT64},  {"ulong", DALIC_UINT64},
	    {"half", DALIC_FLOAT16},  {"float16", DALIC_FLOAT16}, {"float", DALIC_FLOAT},
	    {"float32", DALIC_FLOAT}, {"float64", DALIC_FLOAT64}, {"double", DALIC_FLOAT64},
	};
	if (!strncmp(n, "torch.", 6))
		n += 6;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i].name, n))
			return names[i].t;
	return DALIC_NO_TYPE;
}

static int sdnp_to_dali_type(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "to_dali_type", args, 1, 1));
	pyval_t *v = args->pos[0];
	const char *name = dalic_pynp_dtype(v) ? dalic_dtype_short(dalic_pynp_dtype(v)->dtype)
	                   : v->kind == PV_STR ? v->str.s
	                   : v->kind == PV_BUILTIN ? v->builtin.name
	                                           : NULL;
	dalic_dtype_t t = name ? sdnp_dali_type_by_name(name) : DALIC_NO_TYPE;
	if (t == DALIC_NO_TYPE) {
		if (v->kind == PV_OPAQUE)
			return dalic_pyeval_opaque_error(I, at, v, "to_dali_type");
		pybuf_t b = {0};
		dalic_pyval_format(&b, v, false);
		int rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                            "TypeError: '%s' could not be converted into any known "
		                            "DALIDataType.",
		                            b.s && !b.oom ? b.s : "?");
		dalic_pybuf_free(&b);
		return rc;
	}
	PYEVAL_RET(dalic_sdval_new_enum(I->a, SDVAL_ENUM_DTYPE, t));
}

static int sdnp_to_numpy_type(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "to_numpy_type", args, 1, 1));
	sdenum_t *e = dalic_sdval_enum(args->pos[0]);
	if (!e || e->type != SDVAL_ENUM_DTYPE || !dalic_dtype_is_numeric((dalic_dtype_t)e->value))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "KeyError: to_numpy_type() takes a numeric DALIDataType");
	PYEVAL_RET(dalic_pynp_dtype_value(I, (dalic_dtype_t)e->value, true));
}

int dalic_sdnp_types_module(pyinterp_t *I, pyval_t *types)
{
	static const pyreg_t fns[] = {{"to_dali_type", sdnp_to_dali_type},
	                              {"to_numpy_type", sdnp_to_numpy_type},
	                              {NULL, NULL}};
	return dalic_pybi_register(I, types->mod->attrs, fns, false);
}
