/*
 * sphere (DALI's Sphere): bulges an HWC image (uint8 or float) as if seen on a sphere: output
 * pixel (x, y), measured from the centre (W / 2, H / 2) at its pixel centre
 * (t = (x + 0.5 - W / 2, y + 0.5 - H / 2)), samples the input at centre + |t| / d * t, d being
 * the larger half-extent truncated to an integer; NN or LINEAR interpolation, `fill_value`
 * outside (kernels/common/displace.c). All in float, as DALI.
 */
#include "engine/kernel.h"
#include "kernels/common/displace.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef struct sphere {
	dalic_thread_scratch_t scratch;
} sphere_t;

static int sphere_init(dalic_op_ctx_t *ctx)
{
	sphere_t *s = ctx->state;
	int rc = dalic_displace_init(ctx);
	if (rc)
		return rc;
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static void sphere_row(const void *params, int64_t y, int64_t h, int64_t w, float *px, float *py)
{
	for (int64_t x = 0; x < w; x++)
		dalic_displace_sphere_point(x, y, w, h, &px[x], &py[x]);
}

static int sphere_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	sphere_t *s = ctx->state;
	int64_t w = dalic_batch_shape(ws->inputs[0], i)[1];
	int rc;
	float *buf = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread,
	                                      sizeof(float) * (size_t)(2 * w + 1), &rc);
	if (!buf)
		return rc;
	return dalic_displace_run_sample(ctx, ws, i, sphere_row, NULL, buf);
}

static void sphere_fini(dalic_op_ctx_t *ctx)
{
	sphere_t *s = ctx->state;
	dalic_thread_scratch_free(&s->scratch);
}

static const dalic_arg_schema_t args[] = {
    DALIC_DISPLACE_ARGS,
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(sphere_t),
    .init = sphere_init,
    .setup = dalic_displace_setup,
    .run_sample = sphere_run_sample,
    .fini = sphere_fini,
};

DALIC_OPERATOR(Sphere) = {
    .name = "Sphere",
    .fn = "sphere",
    .doc = "Sphere augmentation: images bulged from their centre.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
