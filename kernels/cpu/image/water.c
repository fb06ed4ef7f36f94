/*
 * water (DALI's Water): makes an HWC image (uint8 or float) look underwater by sampling
 * output pixel (x, y) at
 *   px = x + ampl_x * sinf(freq_x * y + phase_x),  py = y + ampl_y * cosf(freq_y * x + phase_y)
 * in float, with NN or LINEAR interpolation and `fill_value` outside (kernels/common/
 * displace.c). The sine depends on the row only and the cosine on the column only, so each is
 * computed once per row / column with the same float operations DALI does per pixel.
 */
#include "engine/kernel.h"
#include "kernels/common/displace.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef struct water {
	dalic_displace_water_t a;
	dalic_thread_scratch_t scratch;
} water_t;

/* The column terms of one sample, read by water_row. */
typedef struct water_sample {
	const water_t *s;
	const float *dy; /* ampl_y * cosf(freq_y * x + phase_y) per column */
} water_sample_t;

static int water_init(dalic_op_ctx_t *ctx)
{
	water_t *s = ctx->state;
	int rc = dalic_displace_init(ctx);
	if (rc)
		return rc;
	s->a.ax = (float)dalic_arg_float(ctx, "ampl_x");
	s->a.ay = (float)dalic_arg_float(ctx, "ampl_y");
	s->a.fx = (float)dalic_arg_float(ctx, "freq_x");
	s->a.fy = (float)dalic_arg_float(ctx, "freq_y");
	s->a.phx = (float)dalic_arg_float(ctx, "phase_x");
	s->a.phy = (float)dalic_arg_float(ctx, "phase_y");
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static void water_row(const void *params, int64_t y, int64_t h, int64_t w, float *px, float *py)
{
	const water_sample_t *ws = params;
	const water_t *s = ws->s;
	float dx = dalic_displace_water_dx(&s->a, y);
	for (int64_t x = 0; x < w; x++)
		dalic_displace_water_point(x, y, dx, ws->dy[x], &px[x], &py[x]);
}

static int water_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	water_t *s = ctx->state;
	int64_t w = dalic_batch_shape(ws->inputs[0], i)[1];
	int rc;
	float *buf = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread,
	                                      sizeof(float) * (size_t)(3 * w + 1), &rc);
	if (!buf)
		return rc;
	float *dy = buf + 2 * w;
	for (int64_t x = 0; x < w; x++)
		dy[x] = dalic_displace_water_dy(&s->a, x);
	water_sample_t p = {s, dy};
	return dalic_displace_run_sample(ctx, ws, i, water_row, &p, buf);
}

static void water_fini(dalic_op_ctx_t *ctx)
{
	water_t *s = ctx->state;
	dalic_thread_scratch_free(&s->scratch);
}

static const dalic_arg_schema_t args[] = {
    {"ampl_x", DALIC_ARG_FLOAT, "10.0", "Amplitude of the wave along x."},
    {"ampl_y", DALIC_ARG_FLOAT, "10.0", "Amplitude of the wave along y."},
    {"freq_x", DALIC_ARG_FLOAT, "0.04908738521234052", "Frequency along x (2 pi / 128)."},
    {"freq_y", DALIC_ARG_FLOAT, "0.04908738521234052", "Frequency along y (2 pi / 128)."},
    {"phase_x", DALIC_ARG_FLOAT, "0.0", "Phase along x."},
    {"phase_y", DALIC_ARG_FLOAT, "0.0", "Phase along y."},
    DALIC_DISPLACE_ARGS,
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(water_t),
    .init = water_init,
    .setup = dalic_displace_setup,
    .run_sample = water_run_sample,
    .fini = water_fini,
};

DALIC_OPERATOR(Water) = {
    .name = "Water",
    .fn = "water",
    .doc = "Water augmentation: images displaced by sine waves, as if underwater.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
