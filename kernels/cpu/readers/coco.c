/*
 * readers.coco (DALI's readers__COCO / COCOReader): images of a COCO data set with their
 * annotations (coco_ann.h): outputs images (the file's bytes), bboxes [N, 4] float, labels
 * [N] int32, then polygons [P, 3] int32 and vertices [V, 2] float with polygon_masks (or the
 * deprecated `masks`, whose polygon rows count coordinates instead of vertices), or the
 * pixelwise mask [H, W, 1] int32 (layout HWC; coco_rle.h) with pixelwise_masks, then
 * image_ids [1] int32 with image_ids (or the deprecated save_img_ids).
 *
 * The order of samples is DALI's FileLabelLoader's (the reader core), over the samples the
 * annotations give; each sample's source is its file_name. The annotation file is read at
 * build (or at the first run with lazy_init), or DALI's preprocessed annotation files are
 * (coco_meta.h), which save_preprocessed_annotations writes after reading the JSON.
 */
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/coco_ann.h"
#include "kernels/common/coco_meta.h"
#include "kernels/common/img_files.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct coco_reader {
	dalic_rdcore_t core;
	img_file_list_t files; /* entry k is sample k */
	coco_ann_t ann;
	bool polygons, legacy, pixelwise, image_ids, ratio;
} coco_reader_t;
_Static_assert(offsetof(coco_reader_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t coco_kind = {.list_shuffle = true, .epoch = RDCORE_EPOCH_LIST};

static bool coco_def_flag(const dalic_opdef_t *def, const char *name)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, name);
	if (!v || v->n < 1)
		return false;
	return v->kind == DALIC_V_BOOL ? v->b[0] : v->kind == DALIC_V_INT ? v->i[0] != 0 : false;
}

/* images, bboxes, labels, (polygons, vertices), (pixelwise masks), (image_ids) */
static int coco_outputs_for(const dalic_opdef_t *def)
{
	bool poly = coco_def_flag(def, "polygon_masks") || coco_def_flag(def, "masks");
	bool ids = coco_def_flag(def, "image_ids") || coco_def_flag(def, "save_img_ids");
	return 3 + 2 * poly + coco_def_flag(def, "pixelwise_masks") + ids;
}

static bool coco_flag(dalic_op_ctx_t *ctx, const char *name)
{
	return dalic_arg_given(ctx, name) && dalic_arg_bool(ctx, name);
}

/* The first of two argument names given (the deprecated one second), or NULL. */
static const char *coco_given(dalic_op_ctx_t *ctx, const char *name, const char *old)
{
	return dalic_arg_given(ctx, name) ? name : dalic_arg_given(ctx, old) ? old : NULL;
}

/* The annotations: DALI's preprocessed files or the JSON file (then saved when asked). */
static int coco_load(dalic_op_ctx_t *ctx, coco_reader_t *r, char *err, size_t errn)
{
	coco_meta_parts_t parts = {r->polygons, r->pixelwise, r->image_ids};
	const char *pre = coco_given(ctx, "preprocessed_annotations", "meta_files_path");
	if (pre)
		return dalic_coco_meta_load(&r->ann, dalic_arg_string(ctx, pre), parts, err, errn);
	const dalic_value_t *images = dalic_arg(ctx, "images");
	coco_opts_t o = {
	    .size_threshold = (float)dalic_arg_float(ctx, "size_threshold"),
	    .include_iscrowd = dalic_arg_bool(ctx, "include_iscrowd"),
	    .ltrb = dalic_arg_bool(ctx, "ltrb"),
	    .ratio = dalic_arg_bool(ctx, "ratio"),
	    .skip_empty = dalic_arg_bool(ctx, "skip_empty"),
	    .remap = !dalic_arg_bool(ctx, "avoid_class_remapping"),
	    .polygons = r->polygons || r->pixelwise,
	    .rles = r->pixelwise,
	    .images = images->kind == DALIC_V_NONE ? NULL : (const char *const *)images->s,
	    .nimages = images->kind == DALIC_V_NONE ? 0 : images->n,
	};
	const char *path = dalic_arg_string(ctx, "annotations_file");
	DALIC_TRY(dalic_coco_ann_load(&r->ann, path ? path : "", &o, err, errn));
	const char *dir = coco_given(ctx, "save_preprocessed_annotations_dir", "dump_meta_files_path");
	if (dir && (coco_flag(ctx, "save_preprocessed_annotations") || coco_flag(ctx, "dump_meta_files")))
		return dalic_coco_meta_save(&r->ann, dalic_arg_string(ctx, dir), parts, err, errn);
	return 0;
}

static int coco_prepare(dalic_op_ctx_t *ctx)
{
	coco_reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	char err[1024];
	if (coco_load(ctx, r, err, sizeof err))
		return dalic_op_fail(ctx, NULL, -1, "%s", err);
	const char *root = dalic_arg_string(ctx, "file_root");
	for (int64_t k = 0; k < r->ann.nsamples; k++)
		if (dalic_img_file_list_add(&r->files, root, r->ann.samples[k].file_name,
		                            (int32_t)k))
			return dalic_op_fail(ctx, NULL, -1, "%s", dalic_last_error());
	if (r->files.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files found.");
	return dalic_rdcore_set_size(&r->core, ctx, r->files.n);
}

static void coco_fini(dalic_op_ctx_t *ctx)
{
	coco_reader_t *r = ctx->state;
	dalic_coco_ann_free(&r->ann);
	dalic_img_file_list_free(&r->files);
	dalic_rdcore_fini(&r->core);
}

static int coco_init_state(dalic_op_ctx_t *ctx)
{
	coco_reader_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &coco_kind));
	r->core.prepare = coco_prepare;
	if (dalic_arg_bool(ctx, "skip_cached_images"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "COCOReader doesn't support `skip_cached_images` option");
	r->legacy = coco_flag(ctx, "masks");
	r->polygons = dalic_arg_bool(ctx, "polygon_masks") || r->legacy;
	r->image_ids = dalic_arg_bool(ctx, "image_ids") || coco_flag(ctx, "save_img_ids");
	r->pixelwise = dalic_arg_bool(ctx, "pixelwise_masks");
	r->ratio = dalic_arg_bool(ctx, "ratio");
	if (r->pixelwise && r->polygons)
		return dalic_op_fail(ctx, NULL, -1,
		                     "``pixelwise_masks`` and ``polygon_masks`` are mutually exclusive");
	if (coco_given(ctx, "preprocessed_annotations", "meta_files_path") &&
	    dalic_arg(ctx, "images")->kind != DALIC_V_NONE)
		return dalic_op_fail(ctx, NULL, -1,
		                     "When reading data from preprocessed annotation files, \"images\" "
		                     "is not supported.");
	bool save = dalic_arg_given(ctx, "save_preprocessed_annotations") ||
	            coco_flag(ctx, "dump_meta_files");
	if (save != !!coco_given(ctx, "save_preprocessed_annotations_dir", "dump_meta_files_path"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "``save_preprocessed_annotations`` and "
		                     "``save_preprocessed_annotations_dir`` should be provided together");
	return r->core.lazy ? DALIC_OK : coco_prepare(ctx);
}

static int coco_init(dalic_op_ctx_t *ctx)
{
	int rc = coco_init_state(ctx);
	if (rc)
		coco_fini(ctx);
	return rc;
}

static int coco_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	coco_reader_t *r = ctx->state;
	DALIC_TRY(coco_prepare(ctx));
	int n = ws->batch_size, nout = 3 + 2 * r->polygons + r->pixelwise + r->image_ids;
	int pix = 3 + 2 * r->polygons; /* the pixelwise mask's output */
	static const struct {
		dalic_dtype_t t;
		int ndim;
	} outs[] = {{DALIC_UINT8, 1}, {DALIC_FLOAT, 2}, {DALIC_INT32, 1}};
	for (int k = 0; k < nout; k++) {
		bool extra = k >= 3, verts = extra && r->polygons && k == 4;
		bool ids = r->image_ids && k == nout - 1;
		dalic_dtype_t t = !extra ? outs[k].t : verts ? DALIC_FLOAT : DALIC_INT32;
		int ndim = !extra ? outs[k].ndim : ids ? 1 : r->pixelwise && k == pix ? 3 : 2;
		DALIC_TRY(dalic_batch_set_meta(ws->outputs[k], n, t, ndim));
		dalic_batch_set_layout(ws->outputs[k], r->pixelwise && k == pix ? "HWC" : "");
	}
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		img_file_entry_t *e = &r->files.v[r->core.selected[i]];
		const coco_sample_t *s = &r->ann.samples[e->label];
		for (int k = 0; k < nout; k++)
			ws->outputs[k]->sources[i] = e->path;
		char err[512];
		if (dalic_rdio_entry_size(e, r->core.read_ahead, !r->core.no_mmap, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		dalic_batch_shape_mut(ws->outputs[0], i)[0] = e->size;
		dalic_batch_set_shape(ws->outputs[1], i, (const int64_t[]){s->nbox, 4});
		dalic_batch_set_shape(ws->outputs[2], i, (const int64_t[]){s->nbox});
		if (r->polygons) {
			dalic_batch_set_shape(ws->outputs[3], i, (const int64_t[]){s->npoly, 3});
			dalic_batch_set_shape(ws->outputs[4], i, (const int64_t[]){s->nvert, 2});
		}
		if (r->pixelwise)
			dalic_batch_set_shape(ws->outputs[pix], i,
			                      (const int64_t[]){s->height, s->width, 1});
		if (r->image_ids)
			dalic_batch_set_shape(ws->outputs[nout - 1], i, (const int64_t[]){1});
	}
	return DALIC_OK;
}

static int coco_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	coco_reader_t *r = ctx->state;
	const img_file_entry_t *e = &r->files.v[r->core.selected[i]];
	const coco_sample_t *s = &r->ann.samples[e->label];
	const coco_ann_t *a = &r->ann;
	memcpy(ws->outputs[1]->ptrs[i], a->boxes + 4 * s->box0, sizeof(float) * 4 * (size_t)s->nbox);
	memcpy(ws->outputs[2]->ptrs[i], a->labels + s->box0, sizeof(int32_t) * (size_t)s->nbox);
	if (r->polygons) {
		int32_t *poly = ws->outputs[3]->ptrs[i];
		memcpy(poly, a->polys + 3 * s->poly0, sizeof(int32_t) * 3 * (size_t)s->npoly);
		for (int64_t k = 0; r->legacy && k < s->npoly; k++) { /* coordinates, not vertices */
			poly[3 * k + 1] *= 2;
			poly[3 * k + 2] *= 2;
		}
		memcpy(ws->outputs[4]->ptrs[i], a->verts + 2 * s->vert0,
		       sizeof(float) * 2 * (size_t)s->nvert);
	}
	if (r->pixelwise) {
		coco_mask_in_t in = {
		    .h = (uint32_t)s->height, .w = (uint32_t)s->width,
		    .labels = a->labels + s->box0, .nbox = s->nbox,
		    .polys = a->polys + 3 * s->poly0, .npoly = s->npoly,
		    .verts = a->verts + 2 * s->vert0, .nvert = s->nvert, .ratio = r->ratio,
		    .rle_ref = a->rle_ref + s->rle0, .rle_idx = a->rle_idx + s->rle0,
		    .pool = a->pool, .nrle = s->nrle,
		};
		char err[512];
		if (dalic_coco_pixelwise(&in, ws->outputs[3]->ptrs[i], err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "pixelwise_masks: %s", err);
	}
	if (r->image_ids)
		*(int32_t *)ws->outputs[3 + 2 * r->polygons + r->pixelwise]->ptrs[i] = s->id;
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	char err[512];
	if (dalic_rdio_entry_read(e, !r->core.no_mmap, dst, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	(void)thread;
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"annotations_file", DALIC_ARG_STRING, "''", "The COCO JSON annotations file."},
	{"file_root", DALIC_ARG_STRING, "None", "Directory the images' file_name are relative to."},
	{"images", DALIC_ARG_STRING_LIST, "None",
	 "The images to read, in this order (file_name as in the annotations)."},
	{"ltrb", DALIC_ARG_BOOL, "False", "Boxes as [left, top, right, bottom]."},
	{"ratio", DALIC_ARG_BOOL, "False", "Box and vertex coordinates relative to the image size."},
	{"size_threshold", DALIC_ARG_FLOAT, "0.1",
	 "Objects whose box width or height is below this are left out."},
	{"skip_empty", DALIC_ARG_BOOL, "False", "Leave out images without objects."},
	{"include_iscrowd", DALIC_ARG_BOOL, "True", "Keep annotations with iscrowd=1."},
	{"avoid_class_remapping", DALIC_ARG_BOOL, "False",
	 "Labels are the category ids themselves, not 1..number of categories."},
	{"polygon_masks", DALIC_ARG_BOOL, "False", "Two more outputs: polygons and vertices."},
	{"masks", DALIC_ARG_BOOL, "False",
	 "Deprecated polygon_masks (polygon rows count coordinates)."},
	{"pixelwise_masks", DALIC_ARG_BOOL, "False",
	 "One more output: the [H, W, 1] int32 mask of each pixel's label."},
	{"image_ids", DALIC_ARG_BOOL, "False", "One more output: the image id."},
	{"save_img_ids", DALIC_ARG_BOOL, "False", "Deprecated image_ids."},
	{"preprocessed_annotations", DALIC_ARG_STRING, "''",
	 "Directory of preprocessed annotation files to read instead of the JSON."},
	{"meta_files_path", DALIC_ARG_STRING, "''", "Deprecated preprocessed_annotations."},
	{"save_preprocessed_annotations", DALIC_ARG_BOOL, "False",
	 "Save the annotations read as preprocessed annotation files."},
	{"save_preprocessed_annotations_dir", DALIC_ARG_STRING, "''",
	 "Where to save preprocessed annotation files."},
	{"dump_meta_files", DALIC_ARG_BOOL, "False", "Deprecated save_preprocessed_annotations."},
	{"dump_meta_files_path", DALIC_ARG_STRING, "''",
	 "Deprecated save_preprocessed_annotations_dir."},
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(coco_reader_t),
	.init = coco_init,
	.setup = coco_setup,
	.run_sample = coco_run_sample,
	.fini = coco_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__COCO) = {
	.name = "readers__COCO",
	.fn = "readers.coco",
	.aliases = {"COCOReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads the images of a COCO data set with their boxes, labels and optionally "
	       "polygon or pixelwise masks and image ids.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 3,
	.outputs_for = coco_outputs_for,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
