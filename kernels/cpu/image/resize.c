/*
 * resize (DALI's Resize): scales images to sizes given by resize_x / resize_y, `size`,
 * resize_shorter or resize_longer under DALI's mode / max_size / subpixel_scale rules
 * (img_resize_attr.c), optionally from a region of interest, with DALI's filters
 * (img_resample.c); the body is kernels/common/img_resize_op.c, shared with
 * resize_crop_mirror. Every plane or frame is resampled with the same filter tables.
 * save_attrs adds a second output with each input's [H, W] (int32), as DALI.
 */
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/img_resize_op.h"

static int resize_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "save_attrs");
	return v && v->kind != DALIC_V_NONE && dalic_value_get_i(v, 0) ? 2 : 1;
}

static int resize_init(dalic_op_ctx_t *ctx)
{
	return dalic_img_resize_op_init(ctx, ctx->state);
}

static int resize_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	int rc = dalic_img_resize_op_setup(ctx, ws, ctx->state, NULL);
	dalic_batch_t *attrs = ws->num_outputs > 1 ? ws->outputs[1] : NULL;
	if (rc || !attrs)
		return rc;
	if ((rc = dalic_batch_set_meta(attrs, ws->batch_size, DALIC_INT32, 1)))
		return rc;
	for (int i = 0; i < ws->batch_size; i++)
		dalic_batch_shape_mut(attrs, i)[0] = 2;
	return DALIC_OK;
}

static int resize_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	img_resize_op_t *r = ctx->state;
	if (ws->num_outputs > 1) { /* save_attrs: the input's [H, W] */
		const int64_t *shape = dalic_batch_shape(ws->inputs[0], i);
		int32_t *a = ws->outputs[1]->ptrs[i];
		a[0] = (int32_t)shape[r->h_dim];
		a[1] = (int32_t)shape[r->h_dim + 1];
	}
	return dalic_img_resize_op_run_sample(ctx, ws, r, i, thread);
}

static void resize_fini(dalic_op_ctx_t *ctx)
{
	dalic_img_resize_op_fini(ctx->state);
}

static const dalic_arg_schema_t args[] = {
	IMG_RESIZE_ARGS,
	{"save_attrs", DALIC_ARG_BOOL, "False", "Second output with the input [H, W]."},
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Deprecated; ignored."},
	IMG_RESAMPLING_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(img_resize_op_t),
	.init = resize_init,
	.setup = resize_setup,
	.run_sample = resize_run_sample,
	.fini = resize_fini,
};

DALIC_OPERATOR(Resize) = {
	.name = "Resize",
	.fn = "resize",
	.doc = "Resizes images (HWC, CHW, FHWC...) with DALI's size rules and filters.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.outputs_for = resize_outputs_for,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
