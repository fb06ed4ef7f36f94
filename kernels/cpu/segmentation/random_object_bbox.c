/*
 * segmentation.random_object_bbox: the bounding box of a random object (a connected blob of
 * equal labels) of a segmentation map, DALI 2.4's draws on the sample's Philox generator:
 *   1. uniform_real<double>(0, 1) < foreground_prob decides foreground; otherwise the whole
 *      input is the box (and the class output is the background label);
 *   2. with ignore_class, the blobs are every run of non-background labels joined across
 *      axes; otherwise a class is drawn (uniform_real<double> * the weights' float CDF, a
 *      lower bound that skips zero weights) among `classes` (or the labels present, sorted)
 *      and its blobs are found; a class without a box meeting `threshold` gets weight 0 and
 *      another is drawn, until none is left (then the whole input);
 *   3. the blobs are numbered by their first element in raster order (DALI's disjoint sets
 *      keep the smallest index as the root and number the roots in order), boxes below
 *      `threshold` dropped (the rest keep their order), and uniform_int picks one of them, or
 *      of the k_largest by volume (ties by number).
 * Elements join their neighbours along every axis when the labels are equal; a class is
 * compared after a cast to the input's type, as DALI does. cache_objects changes nothing in the output
 * (DALI caches the boxes of inputs it saw; dalic finds them again).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define ROBB_MAX_CLASSES 1024
#define ROBB_MAX_DIM 6

enum { ROBB_ANCHOR_SHAPE, ROBB_START_END, ROBB_BOX };

typedef struct robb {
	int format, class_out; /* class_out: output index of the class label, -1 when none */
	bool ignore_class;
	int k_largest; /* 0: all */
} robb_t;

static int robb_format(const char *f)
{
	return !f ? -1 : !strcmp(f, "anchor_shape") ? ROBB_ANCHOR_SHAPE
	       : !strcmp(f, "start_end")           ? ROBB_START_END
	       : !strcmp(f, "box")                 ? ROBB_BOX
	                                           : -1;
}

static int robb_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *f = dalic_graphdef_op_arg(def, "format");
	const dalic_value_t *c = dalic_graphdef_op_arg(def, "output_class");
	bool box = f && f->kind == DALIC_V_STRING && f->n > 0 && robb_format(f->s[0]) == ROBB_BOX;
	bool cls = c && c->kind != DALIC_V_NONE && dalic_value_get_i(c, 0);
	return (box ? 1 : 2) + (cls ? 1 : 0);
}

static int robb_init(dalic_op_ctx_t *ctx)
{
	robb_t *r = ctx->state;
	const char *f = dalic_arg_string(ctx, "format");
	r->format = robb_format(f);
	if (r->format < 0)
		return dalic_op_fail(ctx, NULL, -1, "Invalid output format: \"%s\"\nPossible values: "
		                     "\"anchor_shape\", \"start_end\" and \"box\".", f ? f : "");
	r->ignore_class = dalic_arg_bool(ctx, "ignore_class");
	bool output_class = dalic_arg_bool(ctx, "output_class");
	if (r->ignore_class && (dalic_arg_given(ctx, "classes") ||
	                        dalic_arg_given(ctx, "class_weights") || output_class))
		return dalic_op_fail(ctx, NULL, -1, "Class-related arguments ``classes``, ``weights`` "
		                     "and ``output_class`` cannot be used when ``ignore_class`` is "
		                     "True");
	r->class_out = output_class ? (r->format == ROBB_BOX ? 1 : 2) : -1;
	r->k_largest = 0;
	if (dalic_arg_given(ctx, "k_largest")) {
		int64_t k = dalic_arg_int(ctx, "k_largest");
		if (k < 1)
			return dalic_op_fail(ctx, NULL, -1, "``k_largest`` must be at least 1; got %lld",
			                     (long long)k);
		r->k_largest = k > INT_MAX ? INT_MAX : (int)k;
	}
	return DALIC_OK;
}

static int robb_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	robb_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	int nd = in->ndim;
	if (ws->batch_size > 0 && (nd < 1 || nd > ROBB_MAX_DIM))
		return dalic_op_fail(ctx, ws, -1, "Unsuported number of dimensions %d; must be 1..6",
		                     nd);
	switch (in->dtype) {
	case DALIC_BOOL: case DALIC_UINT8: case DALIC_INT8: case DALIC_UINT16: case DALIC_INT16:
	case DALIC_UINT32: case DALIC_INT32: break;
	default:
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	}
	if (dalic_arg_given(ctx, "threshold") || dalic_arg_input(ws, "threshold"))
		for (int i = 0; i < ws->batch_size; i++) {
			double v[ROBB_MAX_DIM + 1];
			int n = 0;
			int rc = dalic_arg_floats_at(ctx, ws, "threshold", i, v, ROBB_MAX_DIM + 1, &n);
			if (rc || n != nd)
				return dalic_op_fail(ctx, ws, i, "Argument \"threshold\" expected shape "
				                     "%d but got %d values, which can't be interpreted as "
				                     "the expected shape.", nd, n);
		}
	for (int k = 0; k < ws->num_outputs; k++) {
		dalic_batch_t *out = ws->outputs[k];
		bool cls = k == r->class_out;
		DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_INT32, cls ? 0 : 1));
		for (int i = 0; i < ws->batch_size && !cls; i++)
			dalic_batch_shape_mut(out, i)[0] = r->format == ROBB_BOX ? 2 * nd : nd;
	}
	return DALIC_OK;
}

/* The label of element k as DALI reads it: the input type's value converted to int. */
static int32_t robb_load(dalic_dtype_t t, const void *p, int64_t k)
{
	switch (t) {
	case DALIC_BOOL: return ((const uint8_t *)p)[k] != 0;
	case DALIC_UINT8: return ((const uint8_t *)p)[k];
	case DALIC_INT8: return ((const int8_t *)p)[k];
	case DALIC_UINT16: return ((const uint16_t *)p)[k];
	case DALIC_INT16: return ((const int16_t *)p)[k];
	case DALIC_UINT32: return (int32_t)((const uint32_t *)p)[k];
	default: return ((const int32_t *)p)[k];
	}
}

/* static_cast<T>(v), back to int: the label a class matches. */
static int32_t robb_cast(dalic_dtype_t t, int32_t v)
{
	switch (t) {
	case DALIC_BOOL: return v != 0;
	case DALIC_UINT8: return (uint8_t)v;
	case DALIC_INT8: return (int8_t)v;
	case DALIC_UINT16: return (uint16_t)v;
	case DALIC_INT16: return (int16_t)v;
	default: return v;
	}
}

/* One sample's working data. */
typedef struct robb_sample {
	int nd;
	int64_t shape[ROBB_MAX_DIM], n;
	int32_t *lab;    /* the labels, as int */
	int64_t *parent; /* disjoint sets; -1: background */
	int32_t *boxes;  /* per blob: lo[nd], hi[nd] */
	int64_t nblobs;
} robb_sample_t;

static int64_t robb_find(int64_t *p, int64_t x)
{
	int64_t r = x;
	while (p[r] != r)
		r = p[r];
	while (p[x] != r) {
		int64_t next = p[x];
		p[x] = r;
		x = next;
	}
	return r;
}

static void robb_merge(int64_t *p, int64_t a, int64_t b)
{
	a = robb_find(p, a);
	b = robb_find(p, b);
	if (a < b)
		p[b] = a;
	else if (b < a)
		p[a] = b;
}

/* Labels the blobs of elements whose label is `only` (any non-background label when
 * only_any) and numbers them by first element; fills s->boxes. */
static int robb_blobs(robb_sample_t *s, bool only_any, int32_t only, int32_t bg)
{
	int nd = s->nd;
	int64_t n = s->n, inner = s->shape[nd - 1];
	int64_t *p = s->parent;
	s->nblobs = 0;
	if (n == 0)
		return DALIC_OK;
	for (int64_t k = 0; k < n; k++) {
		int32_t v = s->lab[k];
		bool fg = only_any ? v != bg : v == only;
		p[k] = fg ? k : -1;
	}
	/* runs along the innermost axis: equal values (or, filtered, any foreground) */
	for (int64_t k = 0; k < n; k++)
		if (p[k] >= 0 && k % inner && p[k - 1] >= 0 && (!only_any || s->lab[k - 1] == s->lab[k]))
			robb_merge(p, k - 1, k);
	/* the other axes: equal labels */
	int64_t stride = inner;
	for (int d = nd - 2; d >= 0; d--) {
		int64_t span = stride * s->shape[d];
		for (int64_t k = 0; k < n; k++)
			if (p[k] >= 0 && k % span >= stride && p[k - stride] >= 0 &&
			    (!only_any || s->lab[k - stride] == s->lab[k]))
				robb_merge(p, k - stride, k);
		stride = span;
	}
	/* every element points at its root (the blob's smallest index, so its first element in
	 * raster order); roots, met first, are numbered in that order */
	int64_t nb = 0;
	for (int64_t k = 0; k < n; k++)
		if (p[k] >= 0 && (p[k] = robb_find(p, k)) == k)
			nb++;
	free(s->boxes);
	s->boxes = nb ? malloc(sizeof(int32_t) * 2 * (size_t)nd * (size_t)nb) : NULL;
	if (nb && !s->boxes)
		return dalic_fail(DALIC_ENOMEM, "out of memory for %lld object boxes", (long long)nb);
	s->nblobs = nb;
	int64_t id = 0;
	for (int64_t k = 0; k < n; k++) {
		if (p[k] == -1)
			continue;
		bool first = p[k] == k;
		int64_t b = first ? id++ : -2 - p[p[k]];
		if (first)
			p[k] = -2 - b; /* a root now holds its blob's number */
		int32_t *lo = s->boxes + 2 * nd * b, *hi = lo + nd;
		int64_t rem = k;
		for (int d = nd - 1; d >= 0; d--) {
			int32_t c = (int32_t)(rem % s->shape[d]);
			rem /= s->shape[d];
			if (first || c < lo[d])
				lo[d] = c;
			if (first || c + 1 > hi[d])
				hi[d] = c + 1;
		}
	}
	return DALIC_OK;
}

/* The classes and their weights for one sample (DALI's ClassInfo). */
typedef struct robb_classes {
	int32_t background;
	int n;
	int32_t cls[ROBB_MAX_CLASSES];
	float w[ROBB_MAX_CLASSES], cdf[ROBB_MAX_CLASSES];
	double arg[ROBB_MAX_CLASSES]; /* an argument's values */
	bool explicit_cls; /* classes or class_weights given */
} robb_classes_t;

static int robb_class_info(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const robb_t *r, int i,
                           robb_classes_t *ci)
{
	double *v = ci->arg, bg = 0;
	bool has_bg = dalic_arg_given(ctx, "background") || dalic_arg_input(ws, "background");
	if (has_bg)
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "background", i, &bg));
	ci->background = (int32_t)bg;
	bool has_cls = !r->ignore_class &&
	               (dalic_arg_given(ctx, "classes") || dalic_arg_input(ws, "classes"));
	bool has_w = !r->ignore_class && (dalic_arg_given(ctx, "class_weights") ||
	                                  dalic_arg_input(ws, "class_weights"));
	ci->explicit_cls = has_cls || has_w;
	ci->n = 0;
	int nc = 0, nw = 0;
	if (has_cls) {
		DALIC_TRY(dalic_arg_floats_at(ctx, ws, "classes", i, v, ROBB_MAX_CLASSES, &nc));
		int32_t min = nc ? (int32_t)v[0] : 0;
		bool other_bg = false;
		for (int k = 0; k < nc; k++) {
			ci->cls[k] = (int32_t)v[k];
			ci->w[k] = 1.0f;
			min = ci->cls[k] < min ? ci->cls[k] : min;
			if (ci->cls[k] == ci->background) {
				if (has_bg)
					return dalic_op_fail(ctx, ws, i, "Class label %d coincides with "
					                     "background label - please specify a "
					                     "different background label or remove it from "
					                     "your list of foreground classes.",
					                     (int)ci->cls[k]);
				other_bg = true;
			}
		}
		ci->n = nc;
		if (other_bg && min == INT32_MIN) { /* wrap around below the smallest */
			ci->background = INT32_MAX;
			for (bool taken = true; taken;) {
				taken = false;
				for (int k = 0; k < nc && !taken; k++)
					taken = ci->cls[k] == ci->background;
				ci->background -= taken;
			}
		} else if (other_bg) {
			ci->background = min - 1;
		}
	}
	if (has_w) {
		DALIC_TRY(dalic_arg_floats_at(ctx, ws, "class_weights", i, v, ROBB_MAX_CLASSES, &nw));
		if (has_cls && nw != nc)
			return dalic_op_fail(ctx, ws, i, "If both ``classes`` and ``class_weights`` are "
			                     "provided, their shapes must match. Got:\n  classes.shape "
			                     "= {%d}\n  weights.shape = {%d}", nc, nw);
		for (int k = 0; k < nw; k++)
			ci->w[k] = (float)v[k];
		if (!has_cls)
			for (int k = 0, c = 0; k < nw; k++, c++) {
				c += c == ci->background;
				ci->cls[k] = c;
			}
		ci->n = nw;
	}
	return DALIC_OK;
}

static int robb_int_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The CDF of the weights (summed in double, stored in float); false when they sum to 0. */
static bool robb_cdf(robb_classes_t *ci)
{
	double sum = 0;
	for (int k = 0; k < ci->n; k++) {
		sum += ci->w[k];
		ci->cdf[k] = (float)sum;
	}
	return sum > 0;
}

/* A class index by the CDF, skipping zero weights; -1 when none. */
static int robb_pick_class(const robb_classes_t *ci, dalic_philox_t *g)
{
	if (!ci->n)
		return -1;
	double pos = dalic_rng_std_uniform_real_f64(g, 0, 1) * (double)ci->cdf[ci->n - 1];
	int idx = 0;
	while (idx < ci->n && (double)ci->cdf[idx] < pos) /* std::lower_bound */
		idx++;
	while (idx < ci->n && ci->w[idx] == 0)
		idx++;
	return idx >= ci->n ? -1 : idx;
}

static int64_t robb_volume(const int32_t *box, int nd)
{
	int64_t v = 1;
	for (int d = 0; d < nd; d++)
		v *= (int64_t)box[nd + d] - box[d];
	return v;
}

typedef struct robb_vol {
	int64_t neg_volume;
	int idx;
} robb_vol_t;

static int robb_vol_cmp(const void *a, const void *b)
{
	const robb_vol_t *x = a, *y = b;
	if (x->neg_volume != y->neg_volume)
		return x->neg_volume < y->neg_volume ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* DALI's PickBox: drops boxes below the threshold (keeping the order), then draws one of
 * them or of the k largest; -1 when none is left. */
static int64_t robb_pick_box(const robb_t *r, robb_sample_t *s, const int32_t *thr,
                             dalic_philox_t *g)
{
	int nd = s->nd;
	int64_t n = 0;
	for (int64_t b = 0; b < s->nblobs; b++) {
		const int32_t *box = s->boxes + 2 * nd * b;
		bool small = false;
		for (int d = 0; thr && d < nd; d++)
			small |= box[nd + d] - box[d] < thr[d];
		if (!small)
			memmove(s->boxes + 2 * nd * n++, box, sizeof(int32_t) * 2 * (size_t)nd);
	}
	if (n <= 0)
		return -1;
	int nn = n > INT_MAX ? INT_MAX : (int)n; /* DALI counts boxes in an int */
	if (r->k_largest > 0 && r->k_largest < nn) {
		robb_vol_t *v = malloc(sizeof *v * (size_t)nn);
		if (!v)
			return -2;
		for (int b = 0; b < nn; b++)
			v[b] = (robb_vol_t){-robb_volume(s->boxes + 2 * nd * b, nd), b};
		qsort(v, (size_t)nn, sizeof *v, robb_vol_cmp);
		int k = (int)dalic_rng_std_uniform_int(g, 0, r->k_largest - 1);
		int idx = v[k].idx;
		free(v);
		return idx;
	}
	return dalic_rng_std_uniform_int(g, 0, nn - 1);
}

/* Stores the box [lo, hi) of sample i in the format's outputs. */
static void robb_store(const robb_t *r, const dalic_ws_t *ws, int i, int nd, const int32_t *lo,
                       const int32_t *hi)
{
	int32_t *o1 = ws->outputs[0]->ptrs[i];
	int32_t *o2 = r->format == ROBB_BOX ? o1 + nd : ws->outputs[1]->ptrs[i];
	for (int d = 0; d < nd; d++) {
		o1[d] = lo[d];
		o2[d] = r->format == ROBB_ANCHOR_SHAPE ? hi[d] - lo[d] : hi[d];
	}
}

/* The blobs (of any label, or of `only`) and one of their boxes, into s->boxes[0]. */
static int robb_blob_box(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const robb_t *r, int i,
                         robb_sample_t *s, bool only_any, int32_t only, int32_t bg,
                         const int32_t *thr, dalic_philox_t *g, bool *found)
{
	if (robb_blobs(s, only_any, only, bg))
		return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
	int64_t b = robb_pick_box(r, s, thr, g);
	if (b < -1)
		return dalic_op_fail(ctx, ws, i, "out of memory");
	*found = b >= 0;
	if (*found)
		memmove(s->boxes, s->boxes + 2 * s->nd * b, sizeof(int32_t) * 2 * (size_t)s->nd);
	return DALIC_OK;
}

/* The foreground box of a sample: true with s->boxes[0] the box and *cls its class. */
static int robb_foreground(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const robb_t *r, int i,
                           robb_sample_t *s, robb_classes_t *ci, dalic_philox_t *g,
                           bool *found, int32_t *cls)
{
	const dalic_batch_t *in = ws->inputs[0];
	int32_t thr[ROBB_MAX_DIM];
	bool has_thr = dalic_arg_given(ctx, "threshold") || dalic_arg_input(ws, "threshold");
	if (has_thr) {
		int n;
		DALIC_TRY(dalic_arg_floats_at(ctx, ws, "threshold", i, ci->arg, ROBB_MAX_CLASSES, &n));
		for (int d = 0; d < s->nd; d++)
			thr[d] = (int32_t)ci->arg[d];
	}
	*found = false;
	*cls = ci->background;
	int32_t bg = robb_cast(in->dtype, ci->background);
	if (r->ignore_class)
		return robb_blob_box(ctx, ws, r, i, s, true, 0, bg, has_thr ? thr : NULL, g, found);
	/* the labels present (as int, sorted, without the background) */
	int32_t *present = malloc(sizeof(int32_t) * (size_t)(s->n ? s->n : 1));
	if (!present)
		return dalic_op_fail(ctx, ws, i, "out of memory");
	memcpy(present, s->lab, sizeof(int32_t) * (size_t)s->n);
	qsort(present, (size_t)s->n, sizeof *present, robb_int_cmp);
	size_t np = 0;
	for (int64_t k = 0; k < s->n; k++)
		if ((!np || present[k] != present[np - 1]) && present[k] != ci->background)
			present[np++] = present[k];
	if (!ci->explicit_cls && np > ROBB_MAX_CLASSES) {
		free(present);
		return dalic_op_fail(ctx, ws, i, "more than %d distinct labels", ROBB_MAX_CLASSES);
	}
	if (!ci->explicit_cls) {
		for (size_t k = 0; k < np; k++) {
			ci->cls[k] = present[k];
			ci->w[k] = 1.0f;
		}
		ci->n = (int)np;
	}
	for (int c = 0; c < ci->n; c++) /* classes absent from the input weigh 0 */
		if (!bsearch(&ci->cls[c], present, np, sizeof *present, robb_int_cmp))
			ci->w[c] = 0;
	free(present);
	while (robb_cdf(ci)) {
		int c = robb_pick_class(ci, g);
		if (c < 0)
			return DALIC_OK;
		DALIC_TRY(robb_blob_box(ctx, ws, r, i, s, false, robb_cast(in->dtype, ci->cls[c]), bg,
		                        has_thr ? thr : NULL, g, found));
		if (*found) {
			*cls = ci->cls[c];
			return DALIC_OK;
		}
		ci->w[c] = 0; /* no box of this class is big enough: draw another */
	}
	return DALIC_OK;
}

static int robb_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const robb_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	robb_sample_t s = {.nd = in->ndim, .n = dalic_batch_sample_elems(in, i)};
	const int64_t *sh = dalic_batch_shape(in, i);
	int32_t zero[ROBB_MAX_DIM] = {0}, whole[ROBB_MAX_DIM];
	for (int d = 0; d < s.nd; d++) {
		s.shape[d] = sh[d];
		whole[d] = (int32_t)sh[d];
	}
	if (s.n > INT32_MAX)
		return dalic_op_fail(ctx, ws, i, "%lld elements: boxes are int32", (long long)s.n);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	double prob;
	DALIC_TRY(dalic_arg_float_at(ctx, ws, "foreground_prob", i, &prob));
	bool fg = dalic_rng_std_uniform_real_f64(&g, 0, 1) < (double)(float)prob;
	robb_classes_t *ci = malloc(sizeof *ci);
	if (!ci)
		return dalic_op_fail(ctx, ws, i, "out of memory");
	int rc = robb_class_info(ctx, ws, r, i, ci);
	bool found = false;
	int32_t cls = ci->background;
	if (!rc && fg) {
		s.lab = malloc(sizeof(int32_t) * (size_t)(s.n ? s.n : 1));
		s.parent = malloc(sizeof(int64_t) * (size_t)(s.n ? s.n : 1));
		if (!s.lab || !s.parent)
			rc = dalic_op_fail(ctx, ws, i, "out of memory for a %lld-element mask",
			                   (long long)s.n);
		for (int64_t k = 0; !rc && k < s.n; k++)
			s.lab[k] = robb_load(in->dtype, in->ptrs[i], k);
		if (!rc)
			rc = robb_foreground(ctx, ws, r, i, &s, ci, &g, &found, &cls);
	}
	if (!rc) {
		if (found)
			robb_store(r, ws, i, s.nd, s.boxes, s.boxes + s.nd);
		else
			robb_store(r, ws, i, s.nd, zero, whole);
		if (r->class_out >= 0)
			*(int32_t *)ws->outputs[r->class_out]->ptrs[i] = found ? cls : ci->background;
	}
	free(s.lab);
	free(s.parent);
	free(s.boxes);
	free(ci);
	return rc;
}

static const dalic_arg_schema_t args[] = {
    {"background", DALIC_ARG_INT, "0",
     "Background label (when not given: 0, or below the smallest of `classes` if 0 is one).",
     .tensor = true},
    {"cache_objects", DALIC_ARG_BOOL, "False",
     "DALI caches the boxes of inputs it saw; dalic accepts it and finds them again."},
    {"class_weights", DALIC_ARG_FLOAT_LIST, "None",
     "Relative probabilities of the foreground classes.", .tensor = true},
    {"classes", DALIC_ARG_INT_LIST, "None",
     "Labels considered foreground (default: every label but the background).",
     .tensor = true},
    {"foreground_prob", DALIC_ARG_FLOAT, "1.0", "Probability of a foreground box.",
     .tensor = true},
    {"format", DALIC_ARG_STRING, "'anchor_shape'",
     "Outputs: 'anchor_shape' (two), 'start_end' (two) or 'box' (one, start then end)."},
    {"ignore_class", DALIC_ARG_BOOL, "False",
     "Pick among all objects alike rather than a class first."},
    {"k_largest", DALIC_ARG_INT, "None", "Only the k largest boxes (by volume) are drawn."},
    {"output_class", DALIC_ARG_BOOL, "False",
     "An extra output with the class of the box (the background label when none)."},
    {"threshold", DALIC_ARG_INT_LIST, "None", "Per-axis minimum size of the boxes.",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(robb_t),
    .init = robb_init,
    .setup = robb_setup,
    .run_sample = robb_run_sample,
};

DALIC_OPERATOR(segmentation__RandomObjectBBox) = {
    .name = "segmentation__RandomObjectBBox",
    .fn = "segmentation.random_object_bbox",
    .module = "nvidia.dali.fn.segmentation",
    .doc = "Randomly selects an object from a mask and returns its bounding box.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 2,
    .outputs_for = robb_outputs_for,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
