/*
 * equalize (DALI's Equalize, legacy alias experimental.equalize): histogram equalization of
 * uint8 images, every channel and every frame on its own, as OpenCV's equalizeHist (DALI's
 * CPU kernel) computes it: with h the 256-bin histogram of a plane of n pixels and i its
 * lowest non-empty bin, lut[i] = 0 and lut[j] = round_even((h[i+1] + ... + h[j]) * scale) for
 * j > i, scale = 255.0f / (n - h[i]) in float; a single-valued plane is left as it is.
 * Layouts: HW, HWC, CHW, FHW, FHWC, FCHW (no layout: HW, HWC or FHWC by the number of dims).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <math.h>
#include <string.h>

/* Where a sample's planes are: `outer` planes of h*w pixels, each holding `inner` interleaved
 * channels (inner > 1 only for channel-last layouts). */
typedef struct equalize_geom {
	int64_t outer, inner, hw;
} equalize_geom_t;

static const char *equalize_layout(const dalic_batch_t *in)
{
	if (in->layout[0])
		return in->layout;
	return in->ndim == 2 ? "HW" : in->ndim == 3 ? "HWC" : in->ndim == 4 ? "FHWC" : "";
}

static int equalize_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	static const char *const ok[] = {"HW", "HWC", "CHW", "FHW", "FHWC", "FCHW"};
	const char *l = equalize_layout(in);
	bool known = false;
	for (int k = 0; k < 6; k++)
		known |= !strcmp(l, ok[k]);
	if (!known || (int)strlen(l) != in->ndim)
		return dalic_op_fail(ctx, ws, -1,
		                     "The layout \"%s\" does not match any of the "
		                     "allowed layouts for input 0. Valid layouts are: "
		                     "HW, HWC, CHW, FHW, FHWC, FCHW",
		                     in->layout);
	if (in->dtype != DALIC_UINT8)
		return dalic_op_fail(ctx, ws, -1,
		                     "Unsupported input type for equalize operator: %s. "
		                     "Expected input type: `uint8_t`.",
		                     dalic_dtype_cname(in->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	if (rc)
		return rc;
	dalic_batch_set_layout(ws->outputs[0], l);
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t c = l[strlen(l) - 1] == 'C' ? dalic_batch_shape(in, i)[in->ndim - 1] : 1;
		if (c > 512)
			return dalic_op_fail(ctx, ws, i,
			                     "The CPU equalize operator supports images "
			                     "with number of channels in [1, 512] "
			                     "channels. However, the sample at index %d "
			                     "has %lld channels.",
			                     i, (long long)c);
		ws->outputs[0]->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* Equalizes n pixels read and written `stride` apart. */
static void equalize_plane(const uint8_t *in, uint8_t *out, int64_t n, int64_t stride)
{
	int64_t hist[256] = {0};
	for (int64_t k = 0; k < n; k++)
		hist[in[k * stride]]++;
	int i = 0;
	while (i < 255 && !hist[i])
		i++;
	uint8_t lut[256];
	if (hist[i] == n) { /* one value (or nothing): OpenCV leaves it */
		for (int64_t k = 0; k < n; k++)
			out[k * stride] = (uint8_t)i;
		return;
	}
	float scale = 255.0f / (float)(n - hist[i]);
	int64_t sum = 0;
	memset(lut, 0, sizeof lut);
	for (int j = i + 1; j < 256; j++) {
		sum += hist[j];
		float v = (float)sum * scale;
		long r = lrintf(v); /* cvRound: nearest, ties to even */
		lut[j] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
	}
	for (int64_t k = 0; k < n; k++)
		out[k * stride] = lut[in[k * stride]];
}

static int equalize_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	const char *l = dalic_batch_layout(ws->outputs[0]);
	const int64_t *shape = dalic_batch_shape(in, i);
	int nd = in->ndim;
	bool last = l[nd - 1] == 'C';
	/* the two dims before C (channel-last) or the last two are H and W */
	int h = last ? nd - 3 : nd - 2;
	equalize_geom_t g = {1, last ? shape[nd - 1] : 1, shape[h] * shape[h + 1]};
	for (int d = 0; d < h; d++)
		g.outer *= shape[d];
	const uint8_t *src = in->ptrs[i];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	for (int64_t o = 0; o < g.outer; o++)
		for (int64_t c = 0; c < g.inner; c++) {
			int64_t base = o * g.hw * g.inner + c;
			equalize_plane(src + base, dst + base, g.hw, g.inner);
		}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {0},
};

static const dalic_kernel_t kernel = {.setup = equalize_setup, .run_sample = equalize_run_sample};

DALIC_OPERATOR(Equalize) = {
    .name = "Equalize",
    .fn = "equalize",
    .aliases = {"experimental__Equalize", "experimental.equalize"},
    .doc = "Histogram equalization of uint8 images, per channel and per frame.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
