/* random_bbox_crop's window search (see rbc_search.h); arithmetic in float, as DALI's. */
#include "kernels/common/rbc_search.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/rng_std.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments ---- */

static int rbc_init_ranges(dalic_op_ctx_t *ctx, rbc_t *r)
{
	const dalic_value_t *sc = dalic_arg(ctx, "scaling");
	if (sc->n != 2)
		return dalic_op_fail(ctx, NULL, -1,
				     "`scaling` must be a range `[min, max]`. Got %d values", sc->n);
	r->scale_min = (float)dalic_value_get_f(sc, 0);
	r->scale_max = (float)dalic_value_get_f(sc, 1);
	if (!(r->scale_min >= 0 && r->scale_min <= r->scale_max))
		return dalic_op_fail(ctx, NULL, -1,
				     "`scaling` range must be positive and min <= max. Got: %g, %g",
				     r->scale_min, r->scale_max);
	if ((r->has_prune = dalic_arg_given(ctx, "bbox_prune_threshold"))) {
		r->prune = (float)dalic_arg_float(ctx, "bbox_prune_threshold");
		if (!(0 <= r->prune && r->prune <= 1.f))
			return dalic_op_fail(ctx, NULL, -1,
					     "`bbox_prune_threshold` must be in range `[0.0,1.0]`. Got: "
					     "%g",
					     r->prune);
	}
	const dalic_value_t *ar = dalic_arg(ctx, "aspect_ratio");
	if (ar->n != 2 && ar->n != 6)
		return dalic_op_fail(ctx, NULL, -1,
				     "`aspect_ratio` range argument should have 2 elements, or 6 "
				     "elements in case of 3D bounding boxes. Got %d elements",
				     ar->n);
	r->num_ar = ar->n / 2;
	for (int k = 0; k < r->num_ar; k++) {
		r->ar_min[k] = (float)dalic_value_get_f(ar, 2 * k);
		r->ar_max[k] = (float)dalic_value_get_f(ar, 2 * k + 1);
		if (!(r->ar_min[k] >= 0 && r->ar_min[k] <= r->ar_max[k]))
			return dalic_op_fail(ctx, NULL, -1,
					     "`aspect_ratio` range must be positive and min <= max. "
					     "Got: %g, %g",
					     r->ar_min[k], r->ar_max[k]);
	}
	return DALIC_OK;
}

int dalic_rbc_init(dalic_op_ctx_t *ctx, rbc_t *r)
{
	DALIC_TRY(rbc_init_ranges(ctx, r));
	r->has_crop_shape = dalic_arg_given(ctx, "crop_shape");
	if (r->has_crop_shape && !dalic_arg_given(ctx, "input_shape"))
		return dalic_op_fail(ctx, NULL, -1,
				     "``input_shape`` must be provided when providing ``crop_shape``");
	if (dalic_arg_given(ctx, "ltrb") && dalic_arg_given(ctx, "bbox_layout"))
		return dalic_op_fail(ctx, NULL, -1,
				     "`ltrb` and `bbox_layout` can't be provided at the same time. "
				     "`ltrb` was deprecated in favor of `bbox_layout`.");
	bool allow_no_crop = dalic_arg_bool(ctx, "allow_no_crop");
	if (r->has_crop_shape) {
		if (!dalic_arg_given(ctx, "allow_no_crop"))
			allow_no_crop = false;
		if (allow_no_crop)
			return dalic_op_fail(ctx, NULL, -1,
					     "`allow_no_crop` is incompatible with providing the crop "
					     "shape explicitly");
		if (dalic_arg_given(ctx, "aspect_ratio"))
			return dalic_op_fail(ctx, NULL, -1,
					     "`aspect_ratio` is incompatible with providing the crop "
					     "shape explicitly");
		if (dalic_arg_given(ctx, "scaling"))
			return dalic_op_fail(ctx, NULL, -1,
					     "`scaling` is incompatible with providing the crop shape "
					     "explicitly");
	}
	const dalic_value_t *th = dalic_arg(ctx, "thresholds");
	if (th->n < 1)
		return dalic_op_fail(ctx, NULL, -1, "At least one threshold value must be provided");
	r->num_attempts = (int)dalic_arg_int(ctx, "num_attempts");
	if (r->num_attempts <= 0)
		return dalic_op_fail(ctx, NULL, -1,
				     "Minimum number of attempts must be greater than zero");
	r->options = calloc((size_t)th->n + 1, sizeof *r->options);
	if (!r->options)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < th->n; k++) {
		float t = (float)dalic_value_get_f(th, k);
		if (!(0.0 <= t && t <= 1.0))
			return dalic_op_fail(ctx, NULL, -1,
					     "Threshold value must be within the range [0.0, 1.0]. "
					     "Received: %g",
					     t);
		r->options[r->num_options++] = (rbc_option_t){false, t};
	}
	const char *type = dalic_arg_string(ctx, "threshold_type");
	r->iou = !type || !strcmp(type, "iou");
	if (!r->iou && strcmp(type, "overlap"))
		return dalic_op_fail(ctx, NULL, -1,
				     "Not supported ``threshold_type`` value: \"%s\". Supported values "
				     "are: \"iou\", \"overlap\".",
				     type);
	if (allow_no_crop)
		r->options[r->num_options++] = (rbc_option_t){true, 0.0f};
	r->total_num_attempts = -1;
	if (dalic_arg_given(ctx, "total_num_attempts")) {
		r->total_num_attempts = (int)dalic_arg_int(ctx, "total_num_attempts");
		if (r->total_num_attempts <= 0)
			return dalic_op_fail(ctx, NULL, -1,
					     "Minimum total number of attempts must be greater than "
					     "zero");
	}
	r->all_above = dalic_arg_bool(ctx, "all_boxes_above_threshold");
	r->quiet = dalic_arg_bool(ctx, "quiet");
	return DALIC_OK;
}

void dalic_rbc_fini(rbc_t *r)
{
	free(r->options);
	free(r->results);
	free(r->kept);
	free(r->boxes);
}

/* ---- layouts ---- */

/* Index of each character of `want` in `layout` (same letters in another order), or -1. */
static bool rbc_permutation(const char *layout, const char *want, int *perm)
{
	size_t n = strlen(want);
	if (strlen(layout) != n)
		return false;
	for (size_t k = 0; k < n; k++) {
		const char *at = strchr(layout, want[k]);
		if (!at)
			return false;
		perm[k] = (int)(at - layout);
		for (size_t j = 0; j < k; j++)
			if (perm[j] == perm[k])
				return false;
	}
	return true;
}

static int rbc_layout(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r)
{
	const char *se = r->ndim == 3 ? "xyzXYZ" : "xyXY", *ss = r->ndim == 3 ? "xyzWHD" : "xyWH";
	const char *layout = dalic_arg_string(ctx, "bbox_layout");
	if (!layout || !*layout)
		layout = dalic_arg_bool(ctx, "ltrb") ? se : ss;
	if (rbc_permutation(layout, se, r->perm)) {
		r->start_shape = false;
		return DALIC_OK;
	}
	if (rbc_permutation(layout, ss, r->perm)) {
		r->start_shape = true;
		return DALIC_OK;
	}
	return dalic_op_fail(ctx, ws, -1,
			     "`bbox_layout` should be a permutation of `%s` or `%s`. Got: `%s`", se, ss,
			     layout);
}

/* crop_shape / input_shape of sample i in W, H(, D) order (CollectShape). */
static int rbc_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
		     int ndim, int64_t *out)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	int nd = 0;
	if (in) {
		if (in->dtype != DALIC_INT32)
			return dalic_op_fail(ctx, ws, i,
					     "argument '%s': Calling type does not match buffer data "
					     "type, requested type: int32 current buffer type: %s",
					     name, dalic_dtype_cname(in->dtype));
		if (in->num_samples != ws->batch_size)
			return dalic_op_fail(ctx, ws, -1,
					     "Unexpected number of samples in argument `%s`: %d, "
					     "expected: %d",
					     name, in->num_samples, ws->batch_size);
		int64_t len = dalic_batch_sample_elems(in, i);
		if (len != ndim)
			return dalic_op_fail(ctx, ws, i,
					     "Unexpected number of elements in argument `%s`: %lld, "
					     "expected: %d",
					     name, (long long)len, ndim);
	}
	double v[DALIC_MAX_NDIM];
	DALIC_TRY(dalic_arg_floats_at(ctx, ws, name, i, v, DALIC_MAX_NDIM, &nd));
	if (nd != ndim)
		return dalic_op_fail(ctx, ws, i, "Argument `%s` must be a %dD vector. Got %d elements.",
				     name, ndim, nd);
	const char *sl = dalic_arg_string(ctx, "shape_layout");
	const char *want = nd == 3 ? "WHD" : "WH";
	int perm[RBC_MAX_DIM] = {0, 1, 2};
	if (sl && *sl && strcmp(sl, want) && !rbc_permutation(sl, want, perm))
		return dalic_op_fail(ctx, ws, -1,
				     "`shape_layout` should be a permutation of %s` for the provided "
				     "inputs",
				     want);
	for (int d = 0; d < nd; d++)
		out[d] = (int64_t)v[perm[d]];
	return DALIC_OK;
}

/* ---- boxes ---- */

static float rbc_volume(const rbc_box_t *b, int nd)
{
	float v = b->hi[0] - b->lo[0];
	for (int d = 1; d < nd; d++)
		v *= b->hi[d] - b->lo[d];
	return v;
}

/* Box::intersection: zeros when the boxes do not overlap. */
static rbc_box_t rbc_intersection(const rbc_box_t *a, const rbc_box_t *b, int nd)
{
	rbc_box_t t = {{0}, {0}};
	for (int d = 0; d < nd; d++) {
		t.lo[d] = a->lo[d] > b->lo[d] ? a->lo[d] : b->lo[d];
		t.hi[d] = a->hi[d] < b->hi[d] ? a->hi[d] : b->hi[d];
	}
	for (int d = 0; d < nd; d++)
		if (!(t.hi[d] > t.lo[d]))
			return (rbc_box_t){{0}, {0}};
	return t;
}

static float rbc_metric(const rbc_t *r, const rbc_box_t *crop, const rbc_box_t *box)
{
	rbc_box_t in = rbc_intersection(crop, box, r->ndim);
	float inter = rbc_volume(&in, r->ndim);
	if (!r->iou)
		return inter / rbc_volume(box, r->ndim);
	if (inter == 0)
		return 0.0f;
	float uni = rbc_volume(crop, r->ndim) + rbc_volume(box, r->ndim);
	uni -= inter;
	return inter / uni;
}

/* Whether box k stays: its centroid in the window, or enough of its area (prune threshold). */
static bool rbc_keep(const rbc_t *r, const rbc_box_t *crop, const rbc_box_t *box)
{
	if (r->has_prune) {
		rbc_box_t in = rbc_intersection(crop, box, r->ndim);
		float inter = rbc_volume(&in, r->ndim);
		return inter != 0 && inter / rbc_volume(box, r->ndim) >= r->prune;
	}
	for (int d = 0; d < r->ndim; d++) {
		float c = (box->hi[d] + box->lo[d]) * 0.5f;
		if (!(c >= crop->lo[d] && c < crop->hi[d]))
			return false;
	}
	return true;
}

/* ReadBoxes: coordinates in bbox_layout, checked to lie in [0, 1]. */
static int rbc_read_boxes(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r, int i,
			  int64_t n)
{
	if (n > r->cap_boxes) {
		rbc_box_t *b = realloc(r->boxes, sizeof *b * (size_t)n);
		if (!b)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		r->boxes = b;
		r->cap_boxes = n;
	}
	int nd = r->ndim;
	const float *in = ws->inputs[0]->ptrs[i];
	for (int64_t k = 0; k < n; k++) {
		rbc_box_t *b = &r->boxes[k];
		const float *c = in + k * 2 * nd;
		for (int d = 0; d < nd; d++) {
			b->lo[d] = c[r->perm[d]];
			b->hi[d] = c[r->perm[nd + d]];
			if (r->start_shape)
				b->hi[d] += b->lo[d];
		}
		bool inside = true;
		for (int d = 0; d < nd; d++)
			inside &= b->lo[d] >= 0.0f && b->hi[d] <= 1.0f;
		if (!inside) {
			char txt[160];
			if (nd == 2)
				snprintf(txt, sizeof txt, "{(%g, %g), (%g, %g)}", b->lo[0], b->lo[1],
					 b->hi[0], b->hi[1]);
			else
				snprintf(txt, sizeof txt, "{(%g, %g, %g), (%g, %g, %g)}", b->lo[0],
					 b->lo[1], b->lo[2], b->hi[0], b->hi[1], b->hi[2]);
			return dalic_op_fail(ctx, ws, i, "box %s is out of bounds %s", txt,
					     nd == 2 ? "{(0, 0), (1, 1)}" : "{(0, 0, 0), (1, 1, 1)}");
		}
	}
	return DALIC_OK;
}

/* ---- the search ---- */

/* Fixes the extents to the aspect ratios given as a single value, in a random dimension order,
 * then rescales so the largest extent stays (FixAspectRatios). */
static void rbc_fix_aspect(const rbc_t *r, float *shape, dalic_philox_t *g)
{
	int nd = r->ndim, k = 0;
	float fixed[RBC_MAX_DIM * RBC_MAX_DIM] = {0};
	bool need_fix = false;
	for (int d0 = 0; d0 < nd; d0++) {
		for (int d1 = d0 + 1; d1 < nd; d1++) {
			if (r->ar_min[k] == r->ar_max[k]) {
				fixed[d0 * nd + d1] = r->ar_min[k];
				fixed[d1 * nd + d0] = (float)(1.0 / (double)r->ar_min[k]);
				need_fix = true;
			}
			k = (k + 1) % r->num_ar;
		}
	}
	if (!need_fix)
		return;
	int32_t order[RBC_MAX_DIM] = {0, 1, 2};
	dalic_philox_t copy = *g;
	dalic_rng_std_shuffle(order, (size_t)nd, dalic_rng_philox_next_fn, &copy);
	float max_extent = 0.0f;
	for (int d = 0; d < nd; d++)
		max_extent = max_extent < shape[d] ? shape[d] : max_extent;
	for (int i0 = 0; i0 < nd; i0++) {
		for (int i1 = i0 + 1; i1 < nd; i1++) {
			int d0 = order[i0], d1 = order[i1];
			float ar = fixed[d1 * nd + d0];
			if (ar > 0)
				shape[d1] = shape[d0] * ar;
		}
	}
	float new_max = 0.0f;
	for (int d = 0; d < nd; d++)
		new_max = new_max < shape[d] ? shape[d] : new_max;
	for (int d = 0; d < nd; d++)
		shape[d] = max_extent * shape[d] / new_max;
}

static bool rbc_valid_aspect(const rbc_t *r, const float *shape)
{
	int k = 0;
	for (int i = 0; i < r->ndim; i++) {
		for (int j = i + 1; j < r->ndim; j++) {
			float ar = shape[i] / shape[j];
			if (!(ar >= r->ar_min[k] && ar <= r->ar_max[k]))
				return false;
			k = (k + 1) % r->num_ar;
		}
	}
	return true;
}

/* One candidate window: *rel relative to the input, *out as output. False: rejected by the
 * aspect ratio. */
static bool rbc_candidate(const rbc_t *r, const int64_t *crop, const int64_t *input,
			  dalic_philox_t *g, rbc_box_t *rel, rbc_box_t *out)
{
	int nd = r->ndim;
	float shape[RBC_MAX_DIM];
	if (r->has_crop_shape) {
		for (int d = 0; d < nd; d++) {
			shape[d] = (float)crop[d];
			out->hi[d] = shape[d];
			rel->hi[d] = shape[d] / (float)input[d];
		}
		for (int d = 0; d < nd; d++) {
			int64_t room = input[d] - crop[d];
			int64_t lo = room < 0 ? room : 0, hi = room < 0 ? 0 : room;
			float anchor = (float)dalic_rng_std_uniform_int(g, lo, hi);
			out->lo[d] = anchor;
			rel->lo[d] = anchor / (float)input[d];
		}
		for (int d = 0; d < nd; d++) {
			out->hi[d] += out->lo[d];
			rel->hi[d] += rel->lo[d];
		}
		return true;
	}
	for (int d = 0; d < nd; d++)
		shape[d] = dalic_rng_std_uniform_real_f32(g, r->scale_min, r->scale_max);
	rbc_fix_aspect(r, shape, g);
	if (!rbc_valid_aspect(r, shape))
		return false;
	for (int d = 0; d < nd; d++) {
		float anchor = dalic_rng_std_uniform_real_f32(g, 0.0f, 1.0f - shape[d]);
		rel->lo[d] = anchor;
		rel->hi[d] = anchor + shape[d];
	}
	*out = *rel;
	return true;
}

/* Keeps the indices of the boxes that stay in `rel` at kept[first ..]; returns how many. */
static int64_t rbc_filter(rbc_t *r, const rbc_box_t *rel, int64_t n, int64_t first)
{
	int64_t k = 0;
	for (int64_t b = 0; b < n; b++)
		if (rbc_keep(r, rel, &r->boxes[b]))
			r->kept[first + k++] = (int32_t)b;
	return k;
}

static int rbc_search(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r, int i, int64_t n,
		      const int64_t *crop, const int64_t *input, rbc_result_t *res)
{
	int nd = r->ndim;
	dalic_philox_t g = dalic_op_rng(ctx, i);
	int64_t count = 0;
	float best = -1.0f;
	bool success = false;
	*res = (rbc_result_t){.first_kept = res->first_kept};
	while (!success && (r->total_num_attempts < 0 || count < r->total_num_attempts)) {
		if (r->total_num_attempts < 0 && count >= RBC_MAX_ATTEMPTS)
			return dalic_op_fail(ctx, ws, i,
					     "no crop window satisfies the thresholds after %d attempts "
					     "(DALI would search forever: give total_num_attempts or "
					     "allow_no_crop)",
					     RBC_MAX_ATTEMPTS);
		rbc_option_t opt = r->options[dalic_rng_std_uniform_int(&g, 0, r->num_options - 1)];
		if (opt.no_crop) {
			for (int d = 0; d < nd; d++) {
				res->rel.lo[d] = res->crop.lo[d] = 0.0f;
				res->rel.hi[d] = res->crop.hi[d] = 1.0f;
				if (r->has_crop_shape)
					res->crop.hi[d] *= (float)input[d];
			}
			for (int64_t b = 0; b < n; b++)
				r->kept[res->first_kept + b] = (int32_t)b;
			res->num_kept = n;
			return DALIC_OK;
		}
		for (int a = 0; a < r->num_attempts; a++, count++) {
			rbc_box_t rel = {{0}, {0}}, out = {{0}, {0}};
			if (!rbc_candidate(r, crop, input, &g, &rel, &out))
				continue;
			float mn = 0.0f, mx = 0.0f;
			for (int64_t b = 0; b < n; b++) {
				float m = rbc_metric(r, &rel, &r->boxes[b]);
				/* std::min / std::max, NaN included */
				mn = b == 0 ? m : mn < m ? mn : m;
				mx = b == 0 ? m : m < mx ? mx : m;
			}
			float metric = r->all_above ? mn : mx;
			/* DALI 2.4: a sample without boxes takes its first window */
			bool valid = n == 0 || metric >= opt.threshold;
			if (metric <= best && !valid)
				continue;
			best = metric;
			res->crop = out;
			res->rel = rel;
			res->num_kept = rbc_filter(r, &rel, n, res->first_kept);
			success = valid && (res->num_kept > 0 || n == 0);
		}
	}
	if (!success && !r->quiet) /* DALI's words; %g is its stream's float format */
		dalic_op_warn(ctx, ws, i, 1,
		              "Could not find a valid cropping window to satisfy the specified "
		              "requirements (attempted %lld times). Using the best cropping window "
		              "so far (best_metric=%g)",
		              (long long)count, (double)best);
	return DALIC_OK;
}

static int rbc_check_input(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1,
				     "Calling type does not match buffer data type, requested type: "
				     "float current buffer type: %s",
				     dalic_dtype_cname(in->dtype));
	if (in->ndim != 2)
		return dalic_op_fail(ctx, ws, -1,
				     "Unexpected number of dimensions for bounding boxes input: %d",
				     in->ndim);
	int64_t ncoords = ws->batch_size > 0 ? dalic_batch_shape(in, 0)[1] : 4;
	for (int i = 0; i < ws->batch_size; i++)
		if (dalic_batch_shape(in, i)[1] != ncoords)
			return dalic_op_fail(ctx, ws, i,
					     "Unexpected number of coordinates for sample %d. Expected "
					     "%lld, got %lld",
					     i, (long long)ncoords,
					     (long long)dalic_batch_shape(in, i)[1]);
	if (ncoords % 2)
		return dalic_op_fail(ctx, ws, -1,
				     "Unexpected number of coordinates for bounding boxes: %lld",
				     (long long)ncoords);
	if (ncoords != 4 && ncoords != 6)
		return dalic_op_fail(ctx, ws, -1, "Unexpected number of dimensions: %lld",
				     (long long)ncoords / 2);
	r->ndim = (int)ncoords / 2;
	if (ws->num_inputs > 1 && ws->inputs[1]->dtype != DALIC_INT32)
		return dalic_op_fail(ctx, ws, -1,
				     "Calling type does not match buffer data type, requested type: "
				     "int32 current buffer type: %s",
				     dalic_dtype_cname(ws->inputs[1]->dtype));
	if (ws->num_inputs > 1 && ws->inputs[1]->ndim < 1)
		return dalic_op_fail(ctx, ws, -1, "labels: expected one label (row) per box, got "
				     "scalars");
	return rbc_layout(ctx, ws, r);
}

static int rbc_reserve(rbc_t *r, int n, int64_t total_boxes)
{
	if (n > r->cap_results) {
		rbc_result_t *res = realloc(r->results, sizeof *res * (size_t)n);
		if (!res)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		r->results = res;
		r->cap_results = n;
	}
	if (total_boxes > r->cap_kept) {
		int32_t *k = realloc(r->kept, sizeof *k * (size_t)total_boxes);
		if (!k)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		r->kept = k;
		r->cap_kept = total_boxes;
	}
	return DALIC_OK;
}

int dalic_rbc_search_batch(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, rbc_t *r)
{
	DALIC_TRY(rbc_check_input(ctx, ws, r));
	const dalic_batch_t *in = ws->inputs[0];
	int64_t total = 0;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t nb = dalic_batch_shape(in, i)[0];
		if (ws->num_inputs > 1 && nb > dalic_batch_shape(ws->inputs[1], i)[0])
			return dalic_op_fail(ctx, ws, i, "%lld boxes but %lld labels", (long long)nb,
					     (long long)dalic_batch_shape(ws->inputs[1], i)[0]);
		if (nb > INT32_MAX)
			return dalic_op_fail(ctx, ws, i, "%lld boxes, at most 2^31 - 1", (long long)nb);
		total += nb;
	}
	DALIC_TRY(rbc_reserve(r, ws->batch_size, total));
	int64_t first = 0;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t crop[RBC_MAX_DIM] = {0}, input[RBC_MAX_DIM] = {1, 1, 1};
		if (r->has_crop_shape) { /* DALI reads input_shape only with crop_shape */
			DALIC_TRY(rbc_shape(ctx, ws, "input_shape", i, r->ndim, input));
			DALIC_TRY(rbc_shape(ctx, ws, "crop_shape", i, r->ndim, crop));
		}
		int64_t nb = dalic_batch_shape(in, i)[0];
		DALIC_TRY(rbc_read_boxes(ctx, ws, r, i, nb));
		r->results[i].first_kept = first;
		DALIC_TRY(rbc_search(ctx, ws, r, i, nb, crop, input, &r->results[i]));
		first += nb;
	}
	return DALIC_OK;
}

void dalic_rbc_write_boxes(const rbc_t *r, int i, const float *in, float *out)
{
	const rbc_result_t *res = &r->results[i];
	int nd = r->ndim;
	for (int64_t k = 0; k < res->num_kept; k++) {
		const float *c = in + (int64_t)r->kept[res->first_kept + k] * 2 * nd;
		float *o = out + k * 2 * nd;
		for (int d = 0; d < nd; d++) {
			float lo = c[r->perm[d]], hi = c[r->perm[nd + d]];
			if (r->start_shape)
				hi += lo;
			float ext = res->rel.hi[d] - res->rel.lo[d];
			float s = ((lo > res->rel.lo[d] ? lo : res->rel.lo[d]) - res->rel.lo[d]) / ext;
			float e = ((hi < res->rel.hi[d] ? hi : res->rel.hi[d]) - res->rel.lo[d]) / ext;
			s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
			e = e < 0.0f ? 0.0f : e > 1.0f ? 1.0f : e;
			if (r->start_shape)
				e -= s;
			o[r->perm[d]] = s;
			o[r->perm[nd + d]] = e;
		}
	}
}
