/*
 * DALI's TensorListCPU and TensorCPU as a debug pipeline's print() sees them while debug mode
 * renders it (sdprint.c): node.get() is the node's batch of this iteration, tl[i] a sample,
 * np.array(tl[i]) / tl.as_array() copies as numpy arrays; printed, they read as debug mode
 * prints batches. Valid only during that rendering (the batch is borrowed).
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDTENSOR_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDTENSOR_H

#include "frontend/script/dali/sdali.h"

typedef struct sdtlist {
	const char *node;
	const dalic_batch_t *b;
	const dalic_print_env_t *env;
} sdtlist_t;

typedef struct sdtensor {
	sdtlist_t *tl;
	int index;
} sdtensor_t;

extern const pytype_t dalic_sdtensor_list_type, dalic_sdtensor_type;

static inline sdtlist_t *dalic_sdtensor_list(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdtensor_list_type) ? v->host.data : NULL;
}

/* node.get() while a print is rendered: the TensorList of `node` this iteration. */
int dalic_sdtensor_get(pyinterp_t *I, const pynode_t *at, const char *node, pyval_t **out);

#endif
