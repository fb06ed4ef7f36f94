/*
 * Axis arguments (DALI's AxisArgs, dali/operators/util/axis_args.cc): the dims an operator
 * works on, given by index in `axes` (negative counts from the back; a constant list or, where
 * the schema allows, a per-sample argument input) or by layout letter in `axis_names`. Names
 * win when both could apply; operators that refuse both together say so with
 * DALIC_AXES_EXCLUSIVE. An empty list means every dim with DALIC_AXES_ALL_IF_EMPTY.
 */
#ifndef DALIC_KERNELS_AXES_H
#define DALIC_KERNELS_AXES_H

#include "engine/kernel.h"

#define DALIC_AXES_MAX 64

enum {
	DALIC_AXES_EXCLUSIVE = 1,    /* both arguments given is an error */
	DALIC_AXES_ALL_IF_EMPTY = 2, /* no axes: every dim */
	DALIC_AXES_REPEATS = 4,      /* a dim may be listed more than once */
};

typedef struct axes_arg {
	unsigned flags;
	bool use_names;  /* axis_names (given, or its default when axes is not given) */
	bool per_sample; /* axes is an argument input */
	char names[DALIC_AXES_MAX + 1];
	int axes[DALIC_AXES_MAX];
	int n;                 /* constant axes or names */
	const char *axes_name; /* the argument holding the indices ("axes", "roi_axes") */
} axes_arg_t;

/* Reads `axes` and `axis_names`; errors name the operator. */
int dalic_axes_init(const dalic_op_ctx_t *ctx, axes_arg_t *a, unsigned flags);
/* The same with other argument names; names_arg NULL: the operator has no layout names. */
int dalic_axes_init_named(const dalic_op_ctx_t *ctx, axes_arg_t *a, unsigned flags,
                          const char *axes_arg, const char *names_arg);
/* The dims of sample i (ndim dims, layout may be ""): *n of them into out (DALIC_AXES_MAX
 * room), in the order given, checked for range and repeats; errors name the sample. */
int dalic_axes_get(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const axes_arg_t *a, int i,
                   int ndim, const char *layout, int *out, int *n);
/* True when argument `name` of the operator comes from an argument input. */
bool dalic_axes_is_arg_input(const dalic_op_ctx_t *ctx, const char *name);

#endif
