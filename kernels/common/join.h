/*
 * Joining tensors for cat and stack (DALI's TensorJoin, dali/operators/generic/join.cc):
 * every input has the same dtype and ndim; sample i of the output joins sample i of each
 * input along `axis`, an existing one (cat: the extents add up, the others must match) or a
 * new one (stack: every input's shape must be equal; the output has one more dim).
 *
 * Both are one copy: with `outer` the volume of the dims before the axis, the output is, for
 * each outer index in turn, each input's contiguous block of the dims from the axis on.
 */
#ifndef DALIC_KERNELS_JOIN_H
#define DALIC_KERNELS_JOIN_H

#include "engine/kernel.h"

typedef struct join_state {
	bool new_axis;    /* stack */
	char axis_name;   /* 0 when not given */
	int axis;         /* resolved for the current batch */
	int first_joined; /* cat: inputs with no elements in the whole batch are skipped */
	bool *joined;     /* per input: part of the output (max inputs of the schema) */
} join_state_t;

/* Reads axis / axis_name; new_axis selects stack's rules. Errors name the operator. */
int dalic_join_init(dalic_op_ctx_t *ctx, bool new_axis);
void dalic_join_fini(dalic_op_ctx_t *ctx);
/* Checks the inputs and sets output 0's dtype, layout and shapes. */
int dalic_join_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
int dalic_join_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread);

#endif
