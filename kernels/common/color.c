/* Shared code of the colour operators (see color.h). */
#include "kernels/common/color.h"

#include "kernels/common/sat_cast.h"

#include <math.h>
#include <string.h>

/* DALI's kernels round every product and sum to float; keep them apart even where the target
 * has fused multiply-add, so results match DALI's bit for bit. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

/* after the pragma: its inline per-value rules must not be contracted either */
#include "kernels/common/color_px.h"

int dalic_color_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type,
                      const dalic_dtype_t *types, int ntypes, int nch)
{
	const dalic_batch_t *in = ws->inputs[0];
	const char *l = in->layout;
	if (l[0] ? strcmp(l, "HWC") && strcmp(l, "FHWC") && strcmp(l, "DHWC")
	         : in->ndim != 3 && in->ndim != 4) {
		if (l[0])
			return dalic_op_fail(ctx, ws, -1,
			                     "The layout \"%s\" does not match any of "
			                     "the allowed layouts for input 0. Valid "
			                     "layouts are: HWC, FHWC, DHWC",
			                     l);
		return dalic_op_fail(ctx, ws, -1,
		                     "The number of dimensions %d does not match any "
		                     "of the allowed layouts for input 0. Valid "
		                     "layouts are: HWC, FHWC, DHWC",
		                     in->ndim);
	}
	bool in_ok = false, out_ok = false;
	for (int k = 0; k < ntypes; k++) {
		in_ok |= in->dtype == types[k];
		out_ok |= out_type == types[k];
	}
	if (!in_ok)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (!out_ok)
		return dalic_op_fail(ctx, ws, -1, "Unsupported output type: %s",
		                     dalic_dtype_cname(out_type));
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_copy_meta(out, in);
	if (rc)
		return rc;
	out->dtype = out_type;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t c = dalic_batch_shape(in, i)[in->ndim - 1];
		if (nch && c != nch)
			return dalic_op_fail(ctx, ws, i,
			                     "%lld channels; this operator needs %d (RGB "
			                     "images)",
			                     (long long)c, nch);
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

dalic_dtype_t dalic_color_dtype_arg(const dalic_op_ctx_t *ctx)
{
	return dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype")
	                                     : DALIC_NO_TYPE;
}

int dalic_color_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
                    float *out)
{
	const dalic_batch_t *a = dalic_arg_input(ws, name);
	if (a && i < a->num_samples && dalic_batch_sample_elems(a, i) != 1) {
		char shape[96];
		dalic_batch_format_shape(dalic_batch_shape(a, i), a->ndim, "{}", shape,
		                         sizeof shape);
		return dalic_op_fail(ctx, ws, i,
		                     "`%s` must be a 1xN or Nx1 (N = 1) tensor list. "
		                     "Got: %s",
		                     name, shape);
	}
	double v;
	int rc = dalic_arg_float_at(ctx, ws, name, i, &v);
	*out = (float)v;
	return rc;
}

/* ---- ColorTwist ------------------------------------------------------------------------ */

/* Rgb2Yiq as DALI writes it, and the float inverse DALI derives from it at start-up. The
 * inverse differs from the correctly rounded one by an ulp in some elements; these are the
 * values DALI 2.4 uses, read back from its outputs on unit vectors (saturation 0..4 and
 * hue probes fix every element), so the composed matrices match DALI's bit for bit. */
static const float color_rgb2yiq[3][3] = {
    {.299f, .587f, .114f}, {.596f, -.274f, -.321f}, {.211f, -.523f, .311f}};
static const float color_yiq2rgb[3][3] = {{0x1.ffd402p-1f, 0x1.e9bfc4p-1f, 0x1.3de196p-1f},
                                          {0x1.ffced4p-1f, -0x1.16cf1ep-2f, -0x1.4b7ebcp-1f},
                                          {0x1.00b84ep+0f, -0x1.1b5a64p+0f, 0x1.b49576p+0f}};

/* r = a * b, each element one float dot product summed left to right (DALI's mat3). */
static void color_mat_mul(const float a[3][3], const float b[3][3], float r[3][3])
{
	float t[3][3];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			float v = a[i][0] * b[0][j];
			v += a[i][1] * b[1][j];
			v += a[i][2] * b[2][j];
			t[i][j] = v;
		}
	memcpy(r, t, sizeof t);
}

static void color_diag(float d0, float d1, float d2, float r[3][3])
{
	memset(r, 0, sizeof(float) * 9);
	r[0][0] = d0;
	r[1][1] = d1;
	r[2][2] = d2;
}

void dalic_color_twist_matrix(float hue, float saturation, float value, float brightness,
                              float contrast, float half_range, float m[3][3], float *offset)
{
	float t[3][3];
	color_diag(brightness, brightness, brightness, m);
	color_diag(contrast, contrast, contrast, t);
	color_mat_mul(m, t, m);
	color_mat_mul(m, color_yiq2rgb, m);
	/* hue * M_PI / 180 in double, stored as float, then cos/sin of that float */
	float h = (float)(hue * M_PI / 180);
	double c = cos(h), s = sin(h);
	color_diag(1, (float)c, (float)c, t);
	t[1][2] = (float)s;
	t[2][1] = -(float)s;
	color_mat_mul(m, t, m);
	color_diag(1, saturation, saturation, t);
	color_mat_mul(m, t, m);
	color_diag(value, value, value, t);
	color_mat_mul(m, t, m);
	color_mat_mul(m, color_rgb2yiq, m);
	*offset = (half_range - half_range * contrast) * brightness;
}

/* One loop per (input, output) pair: three loads as float, three dot products plus the
 * offset, three saturating stores. */
#define COLOR_TWIST_LOOP(IT, LOAD, OT, STORE)                                                      \
	do {                                                                                       \
		const IT *s = in;                                                                  \
		OT *d = out;                                                                       \
		for (int64_t p = 0; p < npix; p++, s += 3, d += 3) {                               \
			float r = LOAD(s[0]), g = LOAD(s[1]), b = LOAD(s[2]);                      \
			d[0] = STORE(dalic_color_twist_dot(r, g, b, m00, m01, m02, offset));       \
			d[1] = STORE(dalic_color_twist_dot(r, g, b, m10, m11, m12, offset));       \
			d[2] = STORE(dalic_color_twist_dot(r, g, b, m20, m21, m22, offset));       \
		}                                                                                  \
	} while (0)

#define COLOR_LOAD_PLAIN(x) ((float)(x))
#define COLOR_LOAD_HALF(x) dalic_half_to_f32(x)
#define COLOR_STORE_FLOAT(v) (v)

/* The output switch for one input type. */
#define COLOR_TWIST_OUT(IT, LOAD)                                                                  \
	switch (ot) {                                                                              \
	case DALIC_UINT8:                                                                          \
		COLOR_TWIST_LOOP(IT, LOAD, uint8_t, dalic_sat_f2u8);                               \
		break;                                                                             \
	case DALIC_INT16:                                                                          \
		COLOR_TWIST_LOOP(IT, LOAD, int16_t, dalic_sat_f2i16);                              \
		break;                                                                             \
	case DALIC_INT32:                                                                          \
		COLOR_TWIST_LOOP(IT, LOAD, int32_t, dalic_sat_f2i32);                              \
		break;                                                                             \
	case DALIC_FLOAT:                                                                          \
		COLOR_TWIST_LOOP(IT, LOAD, float, COLOR_STORE_FLOAT);                              \
		break;                                                                             \
	case DALIC_FLOAT16:                                                                        \
		COLOR_TWIST_LOOP(IT, LOAD, uint16_t, dalic_sat_f2half);                            \
		break;                                                                             \
	default:                                                                                   \
		break;                                                                             \
	}

void dalic_color_twist_apply(const float m[3][3], float offset, dalic_dtype_t it, const void *in,
                             dalic_dtype_t ot, void *out, int64_t npix)
{
	const float m00 = m[0][0], m01 = m[0][1], m02 = m[0][2];
	const float m10 = m[1][0], m11 = m[1][1], m12 = m[1][2];
	const float m20 = m[2][0], m21 = m[2][1], m22 = m[2][2];
	switch (it) {
	case DALIC_UINT8:
		COLOR_TWIST_OUT(uint8_t, COLOR_LOAD_PLAIN) break;
	case DALIC_INT16:
		COLOR_TWIST_OUT(int16_t, COLOR_LOAD_PLAIN) break;
	case DALIC_INT32:
		COLOR_TWIST_OUT(int32_t, COLOR_LOAD_PLAIN) break;
	case DALIC_FLOAT:
		COLOR_TWIST_OUT(float, COLOR_LOAD_PLAIN) break;
	case DALIC_FLOAT16:
		COLOR_TWIST_OUT(uint16_t, COLOR_LOAD_HALF) break;
	default:
		break;
	}
}

static const dalic_dtype_t color_twist_types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32,
                                                  DALIC_FLOAT, DALIC_FLOAT16};

int dalic_color_twist_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type)
{
	if (out_type == DALIC_NO_TYPE)
		out_type = ws->inputs[0]->dtype;
	return dalic_color_setup(ctx, ws, out_type, color_twist_types, 5, 3);
}

void dalic_color_twist_sample(dalic_dtype_t it, float hue, float saturation, float value,
                              float brightness, float contrast, float m[3][3], float *offset)
{
	/* the offset's grey level: 0.5 for floating-point inputs, 128 for every integer type */
	float half = dalic_dtype_is_float(it) ? 0.5f : 128.0f;
	dalic_color_twist_matrix(hue, saturation, value, brightness, contrast, half, m, offset);
}

int dalic_color_twist_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float hue,
                                 float saturation, float value, float brightness, float contrast)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	float m[3][3], offset;
	dalic_color_twist_sample(in->dtype, hue, saturation, value, brightness, contrast, m,
	                         &offset);
	dalic_color_twist_apply(m, offset, in->dtype, in->ptrs[i], out->dtype, out->ptrs[i],
	                        dalic_batch_sample_elems(in, i) / 3);
	return DALIC_OK;
}

/* ---- BrightnessContrast ------------------------------------------------------------------ */

#define COLOR_MULADD_LOOP(IT, OT, STORE)                                                           \
	do {                                                                                       \
		const IT *s = in;                                                                  \
		OT *d = out;                                                                       \
		for (int64_t k = 0; k < n; k++)                                                    \
			d[k] = STORE(dalic_color_muladd((float)s[k], mul, add));                   \
	} while (0)

#define COLOR_MULADD_OUT(IT)                                                                       \
	switch (ot) {                                                                              \
	case DALIC_UINT8:                                                                          \
		COLOR_MULADD_LOOP(IT, uint8_t, dalic_sat_f2u8);                                    \
		break;                                                                             \
	case DALIC_INT16:                                                                          \
		COLOR_MULADD_LOOP(IT, int16_t, dalic_sat_f2i16);                                   \
		break;                                                                             \
	case DALIC_INT32:                                                                          \
		COLOR_MULADD_LOOP(IT, int32_t, dalic_sat_f2i32);                                   \
		break;                                                                             \
	case DALIC_FLOAT:                                                                          \
		COLOR_MULADD_LOOP(IT, float, COLOR_STORE_FLOAT);                                   \
		break;                                                                             \
	default:                                                                                   \
		break;                                                                             \
	}

void dalic_color_muladd_apply(float mul, float add, dalic_dtype_t it, const void *in,
                              dalic_dtype_t ot, void *out, int64_t n)
{
	switch (it) {
	case DALIC_UINT8:
		COLOR_MULADD_OUT(uint8_t) break;
	case DALIC_INT16:
		COLOR_MULADD_OUT(int16_t) break;
	case DALIC_INT32:
		COLOR_MULADD_OUT(int32_t) break;
	case DALIC_FLOAT:
		COLOR_MULADD_OUT(float) break;
	default:
		break;
	}
}

static const dalic_dtype_t color_bc_types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32, DALIC_FLOAT};

int dalic_color_bc_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type)
{
	if (out_type == DALIC_NO_TYPE)
		out_type = ws->inputs[0]->dtype;
	return dalic_color_setup(ctx, ws, out_type, color_bc_types, 4, 0);
}

int dalic_color_bc_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float brightness,
                              float brightness_shift, float contrast, bool has_center)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	float center = dalic_color_half_range(in->dtype);
	if (has_center) {
		int rc = dalic_color_arg(ctx, ws, "contrast_center", i, &center);
		if (rc)
			return rc;
	}
	/* DALI's rearrangement, each step rounded to float (color_px.h, shared with the GPU) */
	float mul, add;
	dalic_color_bc_coeffs(brightness, brightness_shift, contrast, center,
	                      dalic_color_full_range(out->dtype), &mul, &add);
	dalic_color_muladd_apply(mul, add, in->dtype, in->ptrs[i], out->dtype, out->ptrs[i],
	                         dalic_batch_sample_elems(in, i));
	return DALIC_OK;
}

float dalic_color_half_range(dalic_dtype_t t)
{
	switch (t) {
	case DALIC_UINT8:
		return 128.0f;
	case DALIC_INT16:
		return 16384.0f;
	case DALIC_INT32:
		return 1073741824.0f;
	default:
		return 0.5f;
	}
}

float dalic_color_full_range(dalic_dtype_t t)
{
	switch (t) {
	case DALIC_UINT8:
		return 255.0f;
	case DALIC_INT16:
		return 32767.0f;
	case DALIC_INT32:
		return (float)INT32_MAX;
	default:
		return 1.0f;
	}
}

void dalic_color_ycbcr_coeffs(float y[3], float cb[3], float cr[3])
{
	static const double jpeg[3][3] = {{0.299, 0.587, 0.114},
	                                  {-0.16873589, -0.33126411, 0.5},
	                                  {0.5, -0.41868759, -0.08131241}};
	for (int k = 0; k < 3; k++) {
		y[k] = (float)(219.0 / 255 * jpeg[0][k]);
		cb[k] = (float)(224.0 / 255 * jpeg[1][k]);
		cr[k] = (float)(224.0 / 255 * jpeg[2][k]);
	}
}
