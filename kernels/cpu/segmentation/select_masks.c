/*
 * segmentation.select_masks (DALI's SelectMasks): the polygons of the selected masks and
 * their vertices. Inputs: mask_ids (int32 [m]), polygons (int32 [p, 3]: mask id, start and
 * end vertex), vertices ([v, d], any type). Outputs: polygons (int32 [m, 3]), one per selected
 * mask in mask_ids order, with the id kept or (reindex_masks) replaced by its position in
 * mask_ids and the vertex range renumbered; vertices ([sum of ranges, d]).
 *
 * As DALI 2.4 (select_masks.cc): a mask is one polygon; when several polygons share a
 * selected id, the last one stands. Errors in DALI's order and words: a repeated id, then per
 * polygon of a selected mask (input order) its range out of the vertices or reversed, then a
 * selected id with no polygon.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <stdlib.h>
#include <string.h>

/* One selected mask: its id, position in mask_ids and vertex range (-1: no polygon yet). */
typedef struct select_masks_sel {
	int32_t id, pos;
	int32_t start, end;
} select_masks_sel_t;

typedef struct select_masks_state {
	select_masks_sel_t *sel; /* every sample's selection, back to back; sorted by id */
	int64_t cap;
	int64_t *first; /* where sample i's selection starts in sel */
	int cap_first;
} select_masks_state_t;

static int select_masks_cmp(const void *a, const void *b)
{
	int32_t x = ((const select_masks_sel_t *)a)->id, y = ((const select_masks_sel_t *)b)->id;
	return (x > y) - (x < y);
}

static select_masks_sel_t *select_masks_find(select_masks_sel_t *sel, int64_t m, int32_t id)
{
	select_masks_sel_t key = {.id = id};
	return bsearch(&key, sel, (size_t)m, sizeof *sel, select_masks_cmp);
}

static int select_masks_check_inputs(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *ids = ws->inputs[0], *poly = ws->inputs[1], *vert = ws->inputs[2];
	if (ids->dtype != DALIC_INT32)
		return dalic_op_fail(ctx, ws, -1, "``mask_ids`` input is expected to be int32");
	if (ids->ndim != 1)
		return dalic_op_fail(ctx, ws, -1, "``mask_ids`` input is expected to be 1D");
	if (poly->dtype != DALIC_INT32)
		return dalic_op_fail(ctx, ws, -1, "``polygons`` input is expected to be int32");
	if (poly->ndim != 2)
		return dalic_op_fail(ctx, ws, -1, "``polygons`` input is expected to be 2D. Got %dD",
				     poly->ndim);
	if (vert->ndim != 2)
		return dalic_op_fail(ctx, ws, -1, "``vertices`` input is expected to be 2D. Got %dD",
				     vert->ndim);
	for (int i = 0; i < ws->batch_size; i++)
		if (dalic_batch_shape(poly, i)[1] != 3)
			return dalic_op_fail(ctx, ws, i,
					     "``polygons`` is expected to contain 2D tensors with 3 "
					     "columns: ``mask_id, start_idx, end_idx``. Got %lld columns.",
					     (long long)dalic_batch_shape(poly, i)[1]);
	return DALIC_OK;
}

static int select_masks_reserve(select_masks_state_t *st, int n, int64_t total)
{
	if (n + 1 > st->cap_first) {
		int64_t *f = realloc(st->first, sizeof *f * (size_t)(n + 1));
		if (!f)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		st->first = f;
		st->cap_first = n + 1;
	}
	if (total > st->cap) {
		select_masks_sel_t *s = realloc(st->sel, sizeof *s * (size_t)total);
		if (!s)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		st->sel = s;
		st->cap = total;
	}
	return DALIC_OK;
}

/* Sample i's selection: ids sorted for lookup, each with its polygon's range. Returns the
 * number of output vertices in *nvert. */
static int select_masks_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
			       select_masks_sel_t *sel, int64_t *nvert)
{
	const dalic_batch_t *ids = ws->inputs[0], *poly = ws->inputs[1];
	int64_t m = dalic_batch_shape(ids, i)[0];
	const int32_t *id = ids->ptrs[i];
	for (int64_t k = 0; k < m; k++)
		sel[k] = (select_masks_sel_t){id[k], (int32_t)k, -1, -1};
	/* DALI reports the first id met again, in mask_ids order */
	for (int64_t k = 0; k < m; k++)
		for (int64_t j = 0; j < k; j++)
			if (id[j] == id[k])
				return dalic_op_fail(ctx, ws, i,
						     "mask_ids should not have duplicated values. Got "
						     "%d repeated.",
						     id[k]);
	qsort(sel, (size_t)m, sizeof *sel, select_masks_cmp);
	int64_t np = dalic_batch_shape(poly, i)[0], nv = dalic_batch_shape(ws->inputs[2], i)[0];
	const int32_t *p = poly->ptrs[i];
	for (int64_t k = 0; k < np; k++) {
		select_masks_sel_t *s = select_masks_find(sel, m, p[3 * k]);
		if (!s)
			continue;
		s->start = p[3 * k + 1];
		s->end = p[3 * k + 2];
		if (!(s->start >= 0 && s->end <= nv))
			return dalic_op_fail(ctx, ws, i,
					     "Vertex index range for mask id %d [%d, %d) is out of "
					     "bounds. Expected to be within the range of available "
					     "vertices [0, %lld).",
					     s->id, s->start, s->end, (long long)nv);
		if (s->end < s->start)
			return dalic_op_fail(ctx, ws, i,
					     "Vertex start index can't be after end index. Got [%d, %d)",
					     s->start, s->end);
	}
	*nvert = 0;
	for (int64_t k = 0; k < m; k++) {
		const select_masks_sel_t *s = select_masks_find(sel, m, id[k]);
		if (s->start == -1 && s->end == -1)
			return dalic_op_fail(ctx, ws, i,
					     "Selected mask_id %d is not present in the input.", id[k]);
		*nvert += s->end - s->start;
	}
	return DALIC_OK;
}

static int select_masks_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	select_masks_state_t *st = ctx->state;
	DALIC_TRY(select_masks_check_inputs(ctx, ws));
	const dalic_batch_t *ids = ws->inputs[0], *vert = ws->inputs[2];
	int n = ws->batch_size;
	int64_t total = 0;
	for (int i = 0; i < n; i++)
		total += dalic_batch_shape(ids, i)[0];
	DALIC_TRY(select_masks_reserve(st, n, total));
	dalic_batch_t *po = ws->outputs[0], *vo = ws->outputs[1];
	DALIC_TRY(dalic_batch_set_meta(po, n, DALIC_INT32, 2));
	DALIC_TRY(dalic_batch_set_meta(vo, n, vert->dtype, 2));
	dalic_batch_set_layout(vo, vert->layout);
	st->first[0] = 0;
	for (int i = 0; i < n; i++) {
		int64_t m = dalic_batch_shape(ids, i)[0], nvert = 0;
		DALIC_TRY(select_masks_sample(ctx, ws, i, st->sel + st->first[i], &nvert));
		st->first[i + 1] = st->first[i] + m;
		dalic_batch_shape_mut(po, i)[0] = m;
		dalic_batch_shape_mut(po, i)[1] = 3;
		dalic_batch_shape_mut(vo, i)[0] = nvert;
		dalic_batch_shape_mut(vo, i)[1] = dalic_batch_shape(vert, i)[1];
	}
	return DALIC_OK;
}

static int select_masks_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const select_masks_state_t *st = ctx->state;
	select_masks_sel_t *sel = st->sel + st->first[i];
	int64_t m = st->first[i + 1] - st->first[i];
	const int32_t *id = ws->inputs[0]->ptrs[i];
	const dalic_batch_t *vert = ws->inputs[2];
	size_t row = dalic_dtype_size(vert->dtype) * (size_t)dalic_batch_shape(vert, i)[1];
	const char *src = vert->ptrs[i];
	int32_t *po = ws->outputs[0]->ptrs[i];
	char *vo = ws->outputs[1]->ptrs[i];
	bool reindex = dalic_arg_bool(ctx, "reindex_masks");
	int32_t at = 0;
	for (int64_t k = 0; k < m; k++) {
		const select_masks_sel_t *s = select_masks_find(sel, m, id[k]);
		int32_t nv = s->end - s->start;
		po[3 * k] = reindex ? s->pos : s->id;
		po[3 * k + 1] = at;
		po[3 * k + 2] = at + nv;
		memcpy(vo + (size_t)at * row, src + (size_t)s->start * row, (size_t)nv * row);
		at += nv;
	}
	return DALIC_OK;
}

static void select_masks_fini(dalic_op_ctx_t *ctx)
{
	select_masks_state_t *st = ctx->state;
	free(st->sel);
	free(st->first);
}

static const dalic_arg_schema_t args[] = {
    {"reindex_masks", DALIC_ARG_BOOL, "False",
     "Replace the output mask ids with their positions in the mask_ids input."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(select_masks_state_t),
    .setup = select_masks_setup,
    .run_sample = select_masks_run_sample,
    .fini = select_masks_fini,
};

DALIC_OPERATOR(segmentation__SelectMasks) = {
    .name = "segmentation__SelectMasks",
    .fn = "segmentation.select_masks",
    .module = "nvidia.dali.fn.segmentation",
    .doc = "Selects a subset of polygons by their mask ids.",
    .min_inputs = 3,
    .max_inputs = 3,
    .num_outputs = 2,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &kernel,
};
