/*
 * NumPy values meeting DALI's API (docs/dali-behaviour.md §6.11, DALI's types.Constant and
 * ops/_operators/math.py): what becomes of a numpy scalar or array used as an arithmetic
 * operand, an operator input, an operator argument or a types.Constant — a ScalarConstant
 * of the array's dtype, or a Constant operator holding the data (float64 sent as float32,
 * int64 as int32 when it fits, as DALI does) — and types.to_dali_type / to_numpy_type.
 * numpy dtypes themselves are not DALIDataTypes: DALI refuses `dtype=np.float32`, and so
 * does dalic, pointing to types.to_dali_type.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDNP_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDNP_H

#include "frontend/script/dali/sdali.h"
#include "frontend/script/py/pynp.h"

/* Whether v is a numpy array or scalar. */
static inline bool dalic_sdnp_is(const pyval_t *v)
{
	return dalic_pynp_array(v) != NULL;
}

/* A numpy value DALI treats as a scalar argument (0-d, or one element of shape (1,)):
 * its Python value; NULL otherwise. */
pyval_t *dalic_sdnp_scalar_value(const pyval_t *v);
/* An arithmetic operand: a ScalarConstant (0-d) or a Constant node (arrays). */
int dalic_sdnp_operand(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
/* DALI's ConstantNode of an array: `dtype` < 0 = the array's (converted), shape / layout
 * may be NULL, device NULL = cpu. */
int dalic_sdnp_constant(pyinterp_t *I, const pynode_t *at, pyval_t *v, int dtype, pyval_t *shape,
                        pyval_t *layout, const char *device, const pyargs_t *extra,
                        pyval_t **out);
/* The error for a numpy dtype where a DALIDataType is expected. */
int dalic_sdnp_dtype_error(pyinterp_t *I, const pynode_t *at, const char *where,
                           const pyval_t *v);
/* Adds to_dali_type / to_numpy_type to nvidia.dali.types. */
int dalic_sdnp_types_module(pyinterp_t *I, pyval_t *types);

#endif
