/*
 * tensor_subscript: NumPy-like indexing of every sample, what `x[1, 2:5, ::-1]` on a DataNode
 * lowers to. Subscript i applies to input dim i and is either an index `at_i` (the dim is
 * removed; negative counts from the end; out of range is an error naming the sample) or a
 * range `lo_i` / `hi_i` / `step_i` (the dim is kept; bounds are clamped like Python slices,
 * negative bounds count from the end, a negative step walks backwards, step 0 is an error).
 * Each value may be given per sample as an integer 0D argument input. `num_subscripts` (the
 * subscripts written, full-range ones included) must not exceed the input rank; dims past the
 * last subscript are kept whole.
 *
 * setup works out, per sample, the start, step and count of every input dim. When the
 * selected elements are one contiguous run of the input (leading dims pinned to one position,
 * then one dim with step 1, then whole dims) the output borrows the input at an offset and
 * nothing is copied; otherwise run_sample copies with strides. Semantics and messages follow
 * DALI's dali/operators/generic/slice/subscript.h.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SUBSCRIPTS = 32 };

typedef struct subscript_plan {
	int64_t start[DALIC_MAX_NDIM], step[DALIC_MAX_NDIM], count[DALIC_MAX_NDIM];
	bool borrowed; /* the output sample points into the input; run has nothing to do */
} subscript_plan_t;

typedef struct subscript_state {
	int nsub;          /* subscripts with any argument: 1 + the highest such index */
	int nsub_declared; /* num_subscripts, or nsub when not given */
	bool is_index[MAX_SUBSCRIPTS], is_range[MAX_SUBSCRIPTS];
	subscript_plan_t *plans; /* max_batch_size entries */
} subscript_state_t;

static const char *const part_names[4] = {"at", "lo", "hi", "step"};
enum { AT, LO, HI, STEP };

static void subscript_arg_name(char *buf, size_t n, int part, int d)
{
	snprintf(buf, n, "%s_%d", part_names[part], d);
}

static int subscript_init(dalic_op_ctx_t *ctx)
{
	subscript_state_t *st = ctx->state;
	for (int d = 0; d < MAX_SUBSCRIPTS; d++) {
		bool given[4];
		for (int p = 0; p < 4; p++) {
			char name[16];
			subscript_arg_name(name, sizeof name, p, d);
			given[p] = dalic_arg_given(ctx, name);
		}
		if (given[AT] && (given[LO] || given[HI]))
			return dalic_fail(DALIC_EINVAL,
			                  "operator '%s' (%s): the subscript for dimension %d is "
			                  "specified both as an index and as a range",
			                  ctx->inst, ctx->schema->name, d);
		if (given[AT] && given[STEP])
			return dalic_fail(DALIC_EINVAL,
			                  "operator '%s' (%s): the subscript for dimension %d is "
			                  "specified as an index - it cannot have a step",
			                  ctx->inst, ctx->schema->name, d);
		st->is_index[d] = given[AT];
		st->is_range[d] = given[LO] || given[HI] || given[STEP];
		if (st->is_index[d] || st->is_range[d])
			st->nsub = d + 1;
	}
	st->nsub_declared = st->nsub;
	if (dalic_arg_given(ctx, "num_subscripts")) {
		int64_t n = dalic_arg_int(ctx, "num_subscripts");
		if (n < st->nsub || n > MAX_SUBSCRIPTS)
			return dalic_fail(
			    DALIC_EINVAL,
			    "operator '%s' (%s): num_subscripts = %lld, but subscript %d "
			    "is given (at most %d)",
			    ctx->inst, ctx->schema->name, (long long)n, st->nsub - 1,
			    MAX_SUBSCRIPTS);
		st->nsub_declared = (int)n;
	}
	st->plans =
	    calloc((size_t)(ctx->max_batch_size > 0 ? ctx->max_batch_size : 1), sizeof *st->plans);
	return st->plans ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory for subscripts");
}

static void subscript_fini(dalic_op_ctx_t *ctx)
{
	subscript_state_t *st = ctx->state;
	free(st->plans);
}

/* Subscript argument `part` of dim d for sample i: the argument input's 0D integer, or the
 * scalar argument. */
static int subscript_value_at(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int part, int d, int i,
                              int64_t *out)
{
	char name[16];
	subscript_arg_name(name, sizeof name, part, d);
	const dalic_batch_t *arg = dalic_arg_input(ws, name);
	if (!arg) {
		*out = dalic_value_get_i(dalic_arg(ctx, name), 0);
		return DALIC_OK;
	}
	if (arg->num_samples <= i)
		return dalic_op_fail(ctx, ws, i, "argument `%s` has %d samples, expected %d", name,
		                     arg->num_samples, ws->inputs[0]->num_samples);
	if (arg->ndim != 0)
		return dalic_op_fail(ctx, ws, i,
		                     "argument `%s`: array indices must be scalar (0D), got %dD "
		                     "tensor",
		                     name, arg->ndim);
	if (!dalic_dtype_is_integral(arg->dtype) || arg->dtype == DALIC_BOOL)
		return dalic_op_fail(ctx, ws, i,
		                     "argument `%s`: array index must be of integral type, got %s",
		                     name, dalic_dtype_name(arg->dtype));
	*out = dalic_dtype_load_i64(arg->dtype, arg->ptrs[i], 0);
	return DALIC_OK;
}

/* Python's slice.indices(): start and count of lo:hi:step over an extent. */
static void subscript_clamp_range(int64_t extent, bool has_lo, int64_t lo, bool has_hi, int64_t hi,
                                  int64_t step, int64_t *start, int64_t *count)
{
	int64_t min = step > 0 ? 0 : -1, max = step > 0 ? extent : extent - 1;
	if (!has_lo)
		lo = step > 0 ? 0 : extent - 1;
	else if (lo < 0)
		lo += extent;
	if (!has_hi)
		hi = step > 0 ? extent : -1;
	else if (hi < 0)
		hi += extent;
	lo = lo < min ? min : lo > max ? max : lo;
	hi = hi < min ? min : hi > max ? max : hi;
	/* lo and hi are within [-1, extent] now; the step may be anything, even INT64_MIN */
	int64_t n = 0;
	if (step > 0 && hi > lo)
		n = (hi - lo - 1) / step + 1;
	else if (step < 0 && lo > hi)
		n = (int64_t)((uint64_t)(lo - hi - 1) / (0 - (uint64_t)step)) + 1;
	*start = lo;
	*count = n;
}

/* The start, step and count of every input dim of sample i. */
static int subscript_plan_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                 subscript_plan_t *p)
{
	const subscript_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	for (int d = 0; d < in->ndim; d++) {
		p->start[d] = 0;
		p->step[d] = 1;
		p->count[d] = shape[d];
	}
	int rc;
	for (int d = 0; d < st->nsub; d++) {
		int64_t v[4] = {0, 0, 0, 1};
		if (st->is_index[d]) {
			if ((rc = subscript_value_at(ctx, ws, AT, d, i, &v[AT])))
				return rc;
			int64_t idx = v[AT] < 0 ? shape[d] + v[AT] : v[AT];
			if (idx < 0 || idx >= shape[d]) {
				char s[160];
				dalic_batch_format_shape(shape, in->ndim, "()", s, sizeof s);
				return dalic_op_fail(
				    ctx, ws, i,
				    "Index %lld is out of range for axis %d of length "
				    "%lld (sample of shape %s)",
				    (long long)v[AT], d, (long long)shape[d], s);
			}
			p->start[d] = idx;
			p->count[d] = 1;
			continue;
		}
		if (!st->is_range[d])
			continue;
		bool given[4] = {false, false, false, false};
		for (int part = LO; part <= STEP; part++) {
			char name[16];
			subscript_arg_name(name, sizeof name, part, d);
			given[part] = dalic_arg_given(ctx, name);
			if (given[part] && (rc = subscript_value_at(ctx, ws, part, d, i, &v[part])))
				return rc;
		}
		if (v[STEP] == 0)
			return dalic_op_fail(ctx, ws, i, "step_%d: the slice step cannot be 0", d);
		p->step[d] = v[STEP];
		subscript_clamp_range(shape[d], given[LO], v[LO], given[HI], v[HI], v[STEP],
		                      &p->start[d], &p->count[d]);
	}
	return DALIC_OK;
}

/* True when the selection is one contiguous run of the input: dims pinned to one position,
 * then at most one partial dim walked with step 1, then whole dims. */
static bool subscript_contiguous(const subscript_plan_t *p, const int64_t *shape, int ndim)
{
	int d = 0;
	while (d < ndim && p->count[d] == 1)
		d++;
	if (d < ndim && p->step[d] != 1 && p->count[d] > 1)
		return false;
	for (int e = d + 1; e < ndim; e++)
		if (p->count[e] != shape[e] || (p->step[e] != 1 && p->count[e] > 1))
			return false;
	return true;
}

static int subscript_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	subscript_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->num_samples > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "%d samples exceed the batch size %d",
		                     in->num_samples, ctx->max_batch_size);
	if (in->ndim == 0)
		return dalic_op_fail(ctx, ws, -1, "Cannot apply an index to a scalar.");
	if (st->nsub_declared > in->ndim)
		return dalic_op_fail(ctx, ws, -1, "Too many indices (%d) for a %dD tensor.",
		                     st->nsub_declared, in->ndim);
	int keep[DALIC_MAX_NDIM], out_ndim = 0;
	for (int d = 0; d < in->ndim; d++)
		if (d >= st->nsub || !st->is_index[d])
			keep[out_ndim++] = d;
	int rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, out_ndim);
	if (rc)
		return rc;
	size_t elem = dalic_dtype_size(in->dtype);
	for (int i = 0; i < in->num_samples; i++) {
		subscript_plan_t *p = &st->plans[i];
		if ((rc = subscript_plan_sample(ctx, ws, i, p)))
			return rc;
		const int64_t *shape = dalic_batch_shape(in, i);
		p->borrowed = subscript_contiguous(p, shape, in->ndim);
		if (p->borrowed) {
			/* the input passed dalic_batch_alloc, so its strides fit int64_t */
			int64_t offset = 0, stride = 1, selected = 1;
			for (int d = in->ndim - 1; d >= 0; d--) {
				offset += p->start[d] * stride;
				stride *= shape[d];
				selected *= p->count[d];
			}
			if (selected == 0)
				offset = 0; /* nothing selected: start may be -1 or an extent */
			dalic_batch_share_sample(out, i, in, i);
			out->ptrs[i] = (char *)in->ptrs[i] + (size_t)offset * elem;
		}
		int64_t out_shape[DALIC_MAX_NDIM];
		for (int k = 0; k < out_ndim; k++)
			out_shape[k] = p->count[keep[k]];
		dalic_batch_set_shape(out, i, out_shape);
	}
	char layout[DALIC_MAX_NDIM + 1] = "";
	if ((int)strlen(in->layout) == in->ndim) {
		for (int k = 0; k < out_ndim; k++)
			layout[k] = in->layout[keep[k]];
		layout[out_ndim] = 0;
	}
	dalic_batch_set_layout(out, layout);
	return DALIC_OK;
}

/* Strided copy of a sample that could not be borrowed: walks the selection in order, the
 * innermost dim as one memcpy when its step is 1. */
static int subscript_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const subscript_state_t *st = ctx->state;
	const subscript_plan_t *p = &st->plans[i];
	if (p->borrowed)
		return DALIC_OK;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	int ndim = in->ndim;
	size_t elem = dalic_dtype_size(in->dtype);
	int64_t stride[DALIC_MAX_NDIM], pos[DALIC_MAX_NDIM] = {0}, total = 1, s = 1;
	for (int d = ndim - 1; d >= 0; d--) {
		stride[d] = s;
		s *= shape[d];
		total *= p->count[d];
	}
	if (total == 0)
		return DALIC_OK;
	const char *src = in->ptrs[i];
	char *dst = dalic_batch_mut(ws->outputs[0], i);
	int last = ndim - 1;
	int64_t inner = p->count[last], inner_step = p->step[last] * stride[last];
	for (;;) {
		int64_t offset = 0;
		for (int d = 0; d < last; d++)
			offset += (p->start[d] + pos[d] * p->step[d]) * stride[d];
		offset += p->start[last];
		if (inner_step == 1) {
			memcpy(dst, src + offset * (int64_t)elem, (size_t)inner * elem);
			dst += inner * (int64_t)elem;
		} else {
			for (int64_t k = 0; k < inner; k++, dst += elem)
				memcpy(dst, src + (offset + k * inner_step) * (int64_t)elem, elem);
		}
		int d = last - 1;
		while (d >= 0 && ++pos[d] == p->count[d])
			pos[d--] = 0;
		if (d < 0)
			return DALIC_OK;
	}
}

#define SUBSCRIPT_ARGS(i)                                                                          \
	{"at_" #i, DALIC_ARG_INT, "None", "Index in dim " #i " (removes the dim).",                \
	 .tensor = true},                                                                          \
	    {"lo_" #i, DALIC_ARG_INT, "None", "Range start in dim " #i ".", .tensor = true},       \
	    {"hi_" #i, DALIC_ARG_INT, "None", "Range end in dim " #i ".", .tensor = true},         \
	{                                                                                          \
		"step_" #i, DALIC_ARG_INT, "None", "Range step in dim " #i ".", .tensor = true     \
	}

static const dalic_arg_schema_t args[] = {
    SUBSCRIPT_ARGS(0),
    SUBSCRIPT_ARGS(1),
    SUBSCRIPT_ARGS(2),
    SUBSCRIPT_ARGS(3),
    SUBSCRIPT_ARGS(4),
    SUBSCRIPT_ARGS(5),
    SUBSCRIPT_ARGS(6),
    SUBSCRIPT_ARGS(7),
    SUBSCRIPT_ARGS(8),
    SUBSCRIPT_ARGS(9),
    SUBSCRIPT_ARGS(10),
    SUBSCRIPT_ARGS(11),
    SUBSCRIPT_ARGS(12),
    SUBSCRIPT_ARGS(13),
    SUBSCRIPT_ARGS(14),
    SUBSCRIPT_ARGS(15),
    SUBSCRIPT_ARGS(16),
    SUBSCRIPT_ARGS(17),
    SUBSCRIPT_ARGS(18),
    SUBSCRIPT_ARGS(19),
    SUBSCRIPT_ARGS(20),
    SUBSCRIPT_ARGS(21),
    SUBSCRIPT_ARGS(22),
    SUBSCRIPT_ARGS(23),
    SUBSCRIPT_ARGS(24),
    SUBSCRIPT_ARGS(25),
    SUBSCRIPT_ARGS(26),
    SUBSCRIPT_ARGS(27),
    SUBSCRIPT_ARGS(28),
    SUBSCRIPT_ARGS(29),
    SUBSCRIPT_ARGS(30),
    SUBSCRIPT_ARGS(31),
    {"num_subscripts", DALIC_ARG_INT, "None",
     "Subscripts written, full-range ones included; the input needs at least that many dims."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(subscript_state_t),
    .init = subscript_init,
    .setup = subscript_setup,
    .run_sample = subscript_run_sample,
    .fini = subscript_fini,
};

DALIC_OPERATOR(TensorSubscript) = {
    .name = "_TensorSubscript", /* DALI 2.4's schema and fn names */
    .fn = "_tensor_subscript",
    .aliases = {"TensorSubscript", "tensor_subscript"},
    .doc = "Applies NumPy-like indexing to every sample; borrows the input when the "
           "selection is contiguous.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
