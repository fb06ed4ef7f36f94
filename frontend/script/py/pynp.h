/*
 * The numpy subset of the Python core (docs/scripts.md lists it): `ndarray` (contiguous, C
 * order, up to DALIC_MAX_NDIM dims, numeric dtypes), numpy scalars (a 0-d array marked as a
 * scalar: np.float32(1.5)), dtype objects and scalar types (np.float32 is both, as in numpy),
 * and the `numpy` module with the constructors, elementwise arithmetic with broadcasting and
 * the reductions pipeline modules use. Semantics are NumPy 2's: NEP 50 promotion (Python
 * scalars are weak, numpy scalars and arrays strong), C casts for astype, floor division and
 * modulo as Python's. Dtypes are dalic's (DALI's numbering), so the DALI layer turns arrays
 * into constants without a table. Everything lives in the load's arena.
 *
 * Files: pynp.c (the module, constructors), pynp_array.c (the ndarray type: attributes,
 * methods, indexing), pynp_ops.c (promotion, broadcasting, operators, casts), pynp_func.c
 * (elementwise functions, reductions, joining), pynp_fmt.c (repr and str), pynp_dtype.c
 * (dtype objects and scalar types).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYNP_H
#define DALIC_FRONTEND_SCRIPT_PY_PYNP_H

#include "engine/dtype.h"
#include "frontend/script/py/pybi.h"

/* Largest array the subset builds: the arena's budget bounds memory; this bounds counts. */
#define PYNP_MAX_ELEMS ((int64_t)1 << 28)

typedef struct pynp_array {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	int64_t size;        /* product of shape */
	unsigned char *data; /* size * itemsize bytes, C order */
	bool scalar;         /* a numpy scalar (np.float32(1)), not an array */
	pyval_t *py;         /* the Python scalar of a one-element array (float(a), int(a)) */
} pynp_array_t;

/* np.float32 (a scalar type) and a.dtype (a dtype object) alike. */
typedef struct pynp_dtype {
	dalic_dtype_t dtype;
	bool is_type; /* the scalar type np.float32 rather than dtype('float32') */
} pynp_dtype_t;

extern const pytype_t dalic_pynp_array_type, dalic_pynp_dtype_type;

static inline pynp_array_t *dalic_pynp_array(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pynp_array_type) ? v->host.data : NULL;
}

static inline pynp_dtype_t *dalic_pynp_dtype(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pynp_dtype_type) ? v->host.data : NULL;
}

/* ---- arrays (pynp_array.c) ---- */
/* A new zeroed array; an error when it would be too large. */
int dalic_pynp_new(pyinterp_t *I, const pynode_t *at, dalic_dtype_t t, int ndim,
                   const int64_t *shape, pyval_t **out);
/* A numpy scalar of type t holding v (converted as numpy converts). */
int dalic_pynp_scalar(pyinterp_t *I, const pynode_t *at, dalic_dtype_t t, pyval_t *v,
                      pyval_t **out);
/* Element i (flat index) as a Python int, float or bool. NULL when out of memory. */
pyval_t *dalic_pynp_item(pyinterp_t *I, const pynp_array_t *a, int64_t i);
/* Refreshes a->py after the data of a one-element array changed. */
int dalic_pynp_refresh(pyinterp_t *I, pynp_array_t *a);
/* The scalar types / dtype objects as values. */
pyval_t *dalic_pynp_dtype_value(pyinterp_t *I, dalic_dtype_t t, bool is_type);

/* ---- conversions (pynp_ops.c) ---- */
/* np.asarray(v, dtype): nested lists / tuples of numbers, numpy values, bytes are refused.
 * `dtype` DALIC_NO_TYPE infers (bool < int64 < float64). *out may be v itself. */
int dalic_pynp_asarray(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t dtype,
                       pyval_t **out);
/* A copy of a converted to t (numpy's astype: C casts, integers wrap). */
int dalic_pynp_astype(pyinterp_t *I, const pynode_t *at, const pynp_array_t *a, dalic_dtype_t t,
                      pyval_t **out);
/* The dtype a value names: a scalar type, a dtype object, a string ('float32', 'f4'), the
 * Python types int / float / bool. */
int dalic_pynp_dtype_arg(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t *out);
/* The result dtype of an operation between two dtypes (numpy's promotion table). */
dalic_dtype_t dalic_pynp_promote(dalic_dtype_t a, dalic_dtype_t b);
/* Stores v into element i of an array of type t as numpy's casts do. */
void dalic_pynp_store_f64(dalic_dtype_t t, void *base, int64_t i, double v);
void dalic_pynp_store_i64(dalic_dtype_t t, void *base, int64_t i, int64_t v);

/* ---- the module (pynp.c) ---- */
/* Registers `numpy` with the module machinery. */
int dalic_pynp_open(pyinterp_t *I);

/* ---- shared by the pynp files ---- */
/* The ndarray type's operator hooks (pynp_ops.c). */
int dalic_pynp_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                     pyval_t **out);
int dalic_pynp_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out);
int dalic_pynp_unary(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v, pyval_t **out);
/* repr / str of arrays, scalars and dtypes (pynp_fmt.c). */
void dalic_pynp_format(pybuf_t *b, const pyval_t *v, bool repr);
void dalic_pynp_format_item(pybuf_t *b, dalic_dtype_t t, const void *data, int64_t i);
/* Methods and module functions shared by name (pynp_func.c): a.sum() and np.sum(a)... */
extern const pyreg_t dalic_pynp_reductions[], dalic_pynp_functions[];
/* Adds the elementwise functions (sqrt, exp, abs...) to the module `mod`. */
int dalic_pynp_register_ufuncs(pyinterp_t *I, pyval_t *mod);
/* The array a method or function works on (np.asarray of v); errors name f. */
int dalic_pynp_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v,
                   pynp_array_t **out);
/* A shape given as an int or a sequence of ints (zeros, reshape...); `neg` allows -1. */
int dalic_pynp_shape_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v, bool neg,
                         int *ndim, int64_t *shape);
/* Reshapes (copying) a into shape, one extent may be -1. */
int dalic_pynp_reshape(pyinterp_t *I, const pynode_t *at, const pynp_array_t *a, int ndim,
                       const int64_t *shape, pyval_t **out);
/* The scalar types' and dtype objects' attribute / call hooks (pynp_dtype.c). */
int dalic_pynp_dtype_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                             pyval_t **out);
int dalic_pynp_dtype_call(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
                          pyval_t **out);
/* np.dtype(x) */
int dalic_pynp_dtype_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out);

#endif
