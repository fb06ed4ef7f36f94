/* Joining tensors for cat and stack (see join.h). */
#include "kernels/common/join.h"

#include "engine/checked.h"
#include "engine/dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dalic_join_init(dalic_op_ctx_t *ctx, bool new_axis)
{
	join_state_t *st = ctx->state;
	st->new_axis = new_axis;
	const char *name = dalic_arg_string(ctx, "axis_name");
	if (name) {
		if (!new_axis && dalic_arg_given(ctx, "axis"))
			return dalic_op_fail(ctx, NULL, -1,
			                     "Arguments ``axis`` and ``axis_name`` cannot be used "
			                     "together.");
		if (strlen(name) != 1)
			return dalic_op_fail(ctx, NULL, -1,
			                     "``axis_name`` must be a single character; got %s",
			                     name);
		st->axis_name = name[0];
	}
	st->joined = calloc((size_t)ctx->schema->max_inputs, sizeof *st->joined);
	return st->joined ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

void dalic_join_fini(dalic_op_ctx_t *ctx)
{
	join_state_t *st = ctx->state;
	free(st->joined);
}

static void join_format_shape(const dalic_batch_t *b, int i, char *buf, size_t n)
{
	dalic_batch_format_shape(dalic_batch_shape(b, i), b->ndim, "[]", buf, n);
}

/* The joined axis (cat: named by axis_name in input 0's layout), in [0, max]. */
static int join_axis(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int ndim)
{
	join_state_t *st = ctx->state;
	const char *layout = ws->inputs[0]->layout;
	int axis;
	if (st->axis_name && !st->new_axis) {
		const char *at = strchr(layout, st->axis_name);
		if (!at)
			return dalic_op_fail(ctx, ws, -1,
			                     "``axis_name`` specifies an undefined axis '%c' for "
			                     "layout \"%s\"",
			                     st->axis_name, layout);
		axis = (int)(at - layout);
	} else {
		int64_t a = dalic_arg_int(ctx, "axis");
		int max = st->new_axis ? ndim : ndim - 1;
		if (a < -ndim || a > max)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "Invalid axis argument, %lld for %d-D tensors. Accepted "
			    "range is [ %d, %d], with negative indices being counted "
			    "from the back.",
			    (long long)a, ndim, -ndim, max);
		axis = (int)(a < 0 ? a + max + 1 : a);
	}
	st->axis = axis;
	return DALIC_OK;
}

/* Output layout: cat keeps input 0's; stack inserts axis_name at the axis, or has none. */
static int join_layout(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, char *out)
{
	const join_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	out[0] = 0;
	if (!st->new_axis) {
		snprintf(out, DALIC_MAX_NDIM + 1, "%s", in->layout);
		return DALIC_OK;
	}
	if (!st->axis_name)
		return DALIC_OK;
	if (!in->layout[0] && in->ndim > 0)
		return dalic_op_fail(ctx, ws, -1,
		                     "Specifying the new axis name with ``axis_name`` with "
		                     "non-scalar input requires a non-empty input layout.");
	snprintf(out, DALIC_MAX_NDIM + 1, "%.*s%c%s", st->axis, in->layout, st->axis_name,
	         in->layout + st->axis);
	return DALIC_OK;
}

/* Shape of output sample i from the joined inputs, checking that they fit together. */
static int join_sample_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t *shape)
{
	const join_state_t *st = ctx->state;
	const dalic_batch_t *ref = ws->inputs[st->first_joined];
	const int64_t *rs = dalic_batch_shape(ref, i);
	int nd = ref->ndim, axis = st->axis;
	for (int d = 0, s = 0; d < nd + st->new_axis; d++) {
		if (d != axis) {
			shape[d] = rs[s++];
			continue;
		}
		shape[d] = 0; /* summed below */
		s += !st->new_axis;
	}
	for (int k = st->first_joined; k < ws->num_inputs; k++) {
		if (!st->joined[k])
			continue;
		const dalic_batch_t *in = ws->inputs[k];
		const int64_t *s = dalic_batch_shape(in, i);
		for (int d = 0; d < nd; d++) {
			if (s[d] == rs[d] || (!st->new_axis && d == axis))
				continue;
			char a[128], b[128];
			join_format_shape(in, i, a, sizeof a);
			join_format_shape(ref, i, b, sizeof b);
			if (st->new_axis)
				return dalic_op_fail(
				    ctx, ws, i,
				    "Tensor stacking requires that all tensors being "
				    "stacked are of equal shape: input %d has shape %s, "
				    "input %d has shape %s",
				    st->first_joined, b, k, a);
			return dalic_op_fail(
			    ctx, ws, i,
			    "Concatenated tensors can differ in size only in the "
			    "concatenation axis (%d). Tensor %d in batch %d has a "
			    "shape %s which is not compatible with respective tensor "
			    "in batch %d of shape %s. Mismatch in axis %d.",
			    axis, i, k, a, st->first_joined, b, d);
		}
		/* each extent is representable and so is the sum: the output is checked later,
		 * but a sum past INT64_MAX must not wrap before that */
		int64_t add = st->new_axis ? 1 : s[axis];
		if (!dalic_ck_add_i64(shape[axis], add, &shape[axis]))
			return dalic_op_fail(ctx, ws, i, "the joined extent overflows");
	}
	return DALIC_OK;
}

int dalic_join_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	join_state_t *st = ctx->state;
	const dalic_batch_t *in0 = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	for (int k = 1; k < ws->num_inputs; k++) {
		const dalic_batch_t *in = ws->inputs[k];
		if (in->dtype != in0->dtype || in->ndim != in0->ndim)
			return dalic_op_fail(ctx, ws, -1,
			                     "All inputs must have the same type and number of "
			                     "dimensions. input #0: %s, %d-D; input #%d: %s, %d-D.",
			                     dalic_dtype_cname(in0->dtype), in0->ndim, k,
			                     dalic_dtype_cname(in->dtype), in->ndim);
		if (in->num_samples != in0->num_samples)
			return dalic_op_fail(ctx, ws, -1,
			                     "input #%d has %d samples, input #0 has %d", k,
			                     in->num_samples, in0->num_samples);
	}
	if (!dalic_dtype_is_numeric(in0->dtype))
		return dalic_op_fail(ctx, ws, -1, "The element type %s is not supported.",
		                     dalic_dtype_name(in0->dtype));
	int rc = join_axis(ctx, ws, in0->ndim);
	char layout[DALIC_MAX_NDIM + 1];
	if (rc || (rc = join_layout(ctx, ws, layout)))
		return rc;
	int ndim = in0->ndim + st->new_axis;
	if (ndim > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "stacking %d-D tensors exceeds %d dims",
		                     in0->ndim, DALIC_MAX_NDIM);
	/* concatenation skips inputs without elements; if all are empty, input 0 stands */
	st->first_joined = -1;
	for (int k = 0; k < ws->num_inputs; k++) {
		bool any = st->new_axis;
		for (int i = 0; !any && i < ws->inputs[k]->num_samples; i++)
			any = dalic_batch_sample_elems(ws->inputs[k], i) > 0;
		st->joined[k] = any;
		if (any && st->first_joined < 0)
			st->first_joined = k;
	}
	if (st->first_joined < 0)
		st->joined[st->first_joined = 0] = true;
	if ((rc = dalic_batch_set_meta(out, in0->num_samples, in0->dtype, ndim)))
		return rc;
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < in0->num_samples; i++) {
		if ((rc = join_sample_shape(ctx, ws, i, dalic_batch_shape_mut(out, i))))
			return rc;
		out->sources[i] = in0->sources[i];
	}
	return DALIC_OK;
}

int dalic_join_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const join_state_t *st = ctx->state;
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *osh = dalic_batch_shape(out, i);
	int64_t outer = 1;
	for (int d = 0; d < st->axis; d++)
		outer *= osh[d]; /* a prefix of the output's shape, which is representable */
	if (dalic_batch_sample_elems(out, i) == 0)
		return DALIC_OK;
	char *dst = out->ptrs[i];
	for (int64_t o = 0; o < outer; o++)
		for (int k = st->first_joined; k < ws->num_inputs; k++) {
			if (!st->joined[k])
				continue;
			const dalic_batch_t *in = ws->inputs[k];
			size_t block = dalic_batch_sample_bytes(in, i) / (size_t)outer;
			if (!block)
				continue;
			memcpy(dst, (const char *)in->ptrs[i] + (size_t)o * block, block);
			dst += block;
		}
	return DALIC_OK;
}
