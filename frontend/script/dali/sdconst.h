/*
 * types.Constant and constant promotion (docs/dali-behaviour.md §6.11): a Python scalar with no shape,
 * layout, device or extra arguments is a ScalarConstant that arithmetic inlines; anything
 * else becomes a Constant operator. Positional non-DataNode operator inputs, pipeline
 * outputs that are Python values and constants returned from conditional branches go
 * through the same path.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDCONST_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDCONST_H

#include "frontend/script/dali/sdali.h"

/* types.Constant(value, dtype, shape, layout, device, **kwargs). */
int dalic_sdconst_types_constant(pyinterp_t *I, const pynode_t *at, const pyargs_t *args,
                                 pyval_t **out);
/* A Constant operator node holding `value` (scalar or flat list); dtype < 0 = inferred;
 * device NULL = cpu. */
int dalic_sdconst_node(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                       const char *device, pyval_t **out);
/* The cpu Constant for a pipeline output that is a Python value. DALI makes it when the
 * graph is built, with no current pipeline, so it is named "__Constant_detached_<n>" from a
 * counter of the whole script and takes no id from the pipeline (docs/dali-behaviour.md §1.3). */
int dalic_sdconst_output_node(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                              pyval_t **out);

/* The Constant operator itself: `data` a flat list of ints (isint: idata) or floats (fdata),
 * `shape` a list, the DALIDataType, optional layout / device (NULL: cpu) / extra keywords. */
int dalic_sdconst_emit(pyinterp_t *I, const pynode_t *at, pyval_t *data, bool isint,
                       pyval_t *shape, int dtype, pyval_t *layout, const char *device,
                       const pyargs_t *extra, pyval_t **out);

#endif
