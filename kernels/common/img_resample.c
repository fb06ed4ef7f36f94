/*
 * Separable resampling (see img_resample.h). Each axis gets a table of `taps` clamped source
 * indices and normalised weights per output position. The hot loops are plain weighted sums
 * over float rows written in blocks of 8 so the compiler vectorises them at -O2; the vertical
 * and horizontal passes have AVX2 forms (img_resample_avx2.c, same bits) chosen at run time.
 */
#include "kernels/common/img_resample.h"
#include "kernels/common/img_resample_px.h"
#include "kernels/common/img_resample_simd.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

int dalic_img_filter_from_interp(int64_t interp)
{
	switch (interp) {
	case DALIC_INTERP_NN: return IMG_FILTER_NN;
	case DALIC_INTERP_LINEAR: return IMG_FILTER_LINEAR;
	case DALIC_INTERP_CUBIC: return IMG_FILTER_CUBIC;
	case DALIC_INTERP_LANCZOS3: return IMG_FILTER_LANCZOS3;
	case DALIC_INTERP_TRIANGULAR: return IMG_FILTER_TRIANGULAR;
	case DALIC_INTERP_GAUSSIAN: return IMG_FILTER_GAUSSIAN;
	default: return -1;
	}
}

void dalic_img_resample_ws_free(img_resample_ws_t *ws)
{
	dalic_img_scratch_free(&ws->taps);
	dalic_img_scratch_free(&ws->tmp);
	dalic_img_scratch_free(&ws->row);
}

bool dalic_img_resample_supports(dalic_dtype_t in, dalic_dtype_t out)
{
	bool ok_in = in == DALIC_UINT8 || in == DALIC_INT16 || in == DALIC_UINT16 ||
		     in == DALIC_FLOAT;
	return ok_in && (out == in || out == DALIC_FLOAT);
}

int dalic_img_resample_fits(int64_t in_h, int64_t in_w, int64_t channels, int64_t out_h,
                            int64_t out_w)
{
	const int64_t max = INT32_MAX;
	if (in_h <= max && in_w <= max && channels <= max && out_h <= max && out_w <= max &&
	    in_w * channels <= max && out_w * channels <= max)
		return DALIC_OK;
	return dalic_fail(DALIC_EUNSUPPORTED,
			  "resampling %lldx%lld to %lldx%lld with %lld channels: extents and rows "
			  "(width x channels) are limited to %lld values",
			  (long long)in_h, (long long)in_w, (long long)out_h, (long long)out_w,
			  (long long)channels, (long long)max);
}

/* ---- filter tables ----------------------------------------------------------------------- */
typedef struct axis {
	int out, taps;
	int lo, hi;      /* source indices used: [lo, hi) */
	int32_t *idx;    /* out * taps, clamped, relative to lo */
	float *w;        /* out * taps */
	float *w4;       /* horizontal, 3-4 channels: each weight 4 times, see HSUM_W4_AT */
} axis_t;

static double resample_sinc(double x)
{
	return x == 0 ? 1.0 : sin(M_PI * x) / (M_PI * x);
}

/* The filter's value at distance t from the centre; half_width = support / 2. */
static double resample_kernel(img_filter_t f, double t, double half_width)
{
	double a = fabs(t) / half_width;
	if (a > 1 || (a == 1 && f != IMG_FILTER_GAUSSIAN))
		return 0;
	switch (f) {
	case IMG_FILTER_GAUSSIAN:
		return exp(-4.0 * a * a); /* DALI's table: exp(-x^2), x in [-2, 2] */
	case IMG_FILTER_CUBIC: {
		double x = 2 * a, x2 = x * x, x3 = x2 * x;
		return x > 1 ? -0.5 * x3 + 2.5 * x2 - 4 * x + 2 : 1.5 * x3 - 2.5 * x2 + 1;
	}
	case IMG_FILTER_LANCZOS3:
		return resample_sinc(3 * a) * resample_sinc(a);
	default: /* LINEAR, TRIANGULAR */
		return 1 - a;
	}
}

/* The filter an axis uses and its support (window width in source pixels). */
static void resample_axis_filter(int out, double lo, double hi, const img_filters_t *f,
                                 img_filter_t *type, double *support)
{
	double extent = fabs(hi - lo);
	bool down = out < extent;
	*type = down ? f->min : f->mag;
	bool aa = down && f->antialias;
	if (*type == IMG_FILTER_LINEAR && aa)
		*type = IMG_FILTER_TRIANGULAR;
	double k = aa ? extent / out : 1; /* widening factor */
	switch (*type) {
	case IMG_FILTER_NN: *support = 1; break;
	case IMG_FILTER_LINEAR: *support = 2; break;
	case IMG_FILTER_CUBIC: *support = 4 * k; break;
	case IMG_FILTER_LANCZOS3: *support = 6 * k; break;
	default: *support = fmax(1.0, 2 * k); break; /* TRIANGULAR, GAUSSIAN */
	}
}

static int resample_axis_taps(img_filter_t type, double support)
{
	return type == IMG_FILTER_NN ? 1 : (int)ceil(support);
}

/* Where DALI's nearest-neighbour pass (ResampleNN, resampling_impl_cpu.h) starts an axis:
 * the window start in float, less the first source pixel its setup cut the input at (`cut`,
 * an integer added back to the index). */
typedef struct resample_nn_axis {
	float origin, scale;
	int cut;
	bool rows; /* the vertical axis: DALI steps it by adding the scale row after row */
} resample_nn_axis_t;

/* Source index of output k, computed in float as DALI does (so ties at .5 fall its way). */
static int resample_nn_index(const resample_nn_axis_t *n, int k, float *acc)
{
	float s;
	if (n->rows) {
		s = k ? *acc + n->scale : n->origin + 0.5f * n->scale;
		*acc = s;
	} else if (n->scale == 1.0f) {
		return (int)floorf(n->origin + 0.5f) + k + n->cut; /* DALI's copying fast path */
	} else {
		s = n->origin + ((float)k + 0.5f) * n->scale;
	}
	return (int)floorf(s) + n->cut;
}

static void resample_axis_build(int in_size, int out, double lo, double hi, img_filter_t type,
                                double support, const resample_nn_axis_t *nn, axis_t *a)
{
	double scale = (hi - lo) / out, half = support / 2;
	int taps = a->taps, mn = in_size, mx = 0;
	float acc = 0;
	for (int x = 0; x < out; x++) {
		int32_t *ix = a->idx + (size_t)x * taps;
		float *wx = a->w + (size_t)x * taps;
		double c = lo + (x + 0.5) * scale; /* continuous source coordinate */
		if (type == IMG_FILTER_NN) {
			int i = resample_nn_index(nn, x, &acc);
			ix[0] = i < 0 ? 0 : i >= in_size ? in_size - 1 : i;
			wx[0] = 1;
		} else {
			double ci = c - 0.5; /* in index space: pixel i is centred at i */
			int first = (int)ceil(ci - half);
			double sum = 0;
			for (int k = 0; k < taps; k++) {
				int i = first + k;
				double v = resample_kernel(type, i - ci, half);
				sum += v;
				wx[k] = (float)v;
				ix[k] = i < 0 ? 0 : i >= in_size ? in_size - 1 : i;
			}
			if (sum != 0)
				for (int k = 0; k < taps; k++)
					wx[k] = (float)(wx[k] / sum);
		}
		for (int k = 0; k < taps; k++) {
			mn = ix[k] < mn ? ix[k] : mn;
			mx = ix[k] > mx ? ix[k] : mx;
		}
	}
	a->lo = mn;
	a->hi = mx + 1;
	for (size_t k = 0; k < (size_t)out * taps; k++)
		a->idx[k] -= mn;
}

/* ---- row kernels ------------------------------------------------------------------------- */
/* GCC/Clang vector extensions, 4 lanes (one SSE / NEON register), so the hot loops need
 * neither intrinsics nor -O3. */
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));
typedef uint8_t v4u8 __attribute__((vector_size(4)));
typedef int16_t v4i16 __attribute__((vector_size(8)));
typedef uint16_t v4u16 __attribute__((vector_size(8)));

/* Eight elements as two float vectors. uint8 uses SSE2 unpacking on x86 (the generic
 * conversion compiles to per-lane code there). */
static inline void resample_load8_u8(const uint8_t *p, v4f *lo, v4f *hi)
{
#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128();
	__m128i w = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), zero);
	*lo = (v4f)_mm_cvtepi32_ps(_mm_unpacklo_epi16(w, zero));
	*hi = (v4f)_mm_cvtepi32_ps(_mm_unpackhi_epi16(w, zero));
#else
	v4u8 a, b;
	memcpy(&a, p, sizeof a);
	memcpy(&b, p + 4, sizeof b);
	*lo = __builtin_convertvector(a, v4f);
	*hi = __builtin_convertvector(b, v4f);
#endif
}

#define DEFINE_LOAD8(name, T, VT)                                                             \
	static inline void name(const T *p, v4f *lo, v4f *hi)                                 \
	{                                                                                     \
		VT a, b;                                                                      \
		memcpy(&a, p, sizeof a);                                                      \
		memcpy(&b, p + 4, sizeof b);                                                  \
		*lo = __builtin_convertvector(a, v4f);                                        \
		*hi = __builtin_convertvector(b, v4f);                                        \
	}
DEFINE_LOAD8(resample_load8_i16, int16_t, v4i16)
DEFINE_LOAD8(resample_load8_u16, uint16_t, v4u16)

static inline void resample_load8_f32(const float *p, v4f *lo, v4f *hi)
{
	memcpy(lo, p, sizeof *lo);
	memcpy(hi, p + 4, sizeof *hi);
}

static inline v4f resample_load4_f32(const float *p)
{
	v4f v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* acc[0..n) = sum_k w[k] * rows[k][0..n): 8 columns at a time, all taps accumulated in
 * registers; common tap counts are compiled separately so the weights stay in registers. */
#define DEFINE_VSUM_TAPS(name, T, load8, TAPS)                                               \
	static void name(float *restrict acc, const void *const *rows, const float *w, int taps, \
			 int n)                                                                  \
	{                                                                                        \
		if (TAPS > 0)                                                                    \
			taps = TAPS;                                                             \
		int j = 0;                                                                       \
		for (; j + 8 <= n; j += 8) {                                                     \
			v4f a, b, s0 = {0, 0, 0, 0}, s1 = {0, 0, 0, 0};                          \
			_Pragma("GCC unroll 4") for (int k = 0; k < taps; k++)                   \
			{                                                                        \
				load8((const T *)rows[k] + j, &a, &b);                           \
				s0 += w[k] * a;                                                  \
				s1 += w[k] * b;                                                  \
			}                                                                        \
			memcpy(acc + j, &s0, sizeof s0);                                         \
			memcpy(acc + j + 4, &s1, sizeof s1);                                     \
		}                                                                                \
		IMG_RESAMPLE_VSUM_TAIL(T)                                                        \
	}
#define DEFINE_VSUM(name, T, load8)                                                          \
	DEFINE_VSUM_TAPS(name##_1, T, load8, 1)                                                  \
	DEFINE_VSUM_TAPS(name##_2, T, load8, 2)                                                  \
	DEFINE_VSUM_TAPS(name##_3, T, load8, 3)                                                  \
	DEFINE_VSUM_TAPS(name##_4, T, load8, 4)                                                  \
	DEFINE_VSUM_TAPS(name##_n, T, load8, 0)                                                  \
	static void name(float *restrict acc, const void *const *rows, const float *w, int taps, \
			 int n)                                                                  \
	{                                                                                        \
		IMG_RESAMPLE_VSUM_SWITCH(name)                                                   \
	}
DEFINE_VSUM(resample_vsum_u8, uint8_t, resample_load8_u8)
DEFINE_VSUM(resample_vsum_i16, int16_t, resample_load8_i16)
DEFINE_VSUM(resample_vsum_u16, uint16_t, resample_load8_u16)
DEFINE_VSUM(resample_vsum_f32, float, resample_load8_f32)

typedef void (*vsum_fn)(float *, const void *const *, const float *, int, int);

/* -1: not decided yet; 0: SSE2 / generic vectors; 1: AVX2 (img_resample_avx2.c) */
static atomic_int resample_avx2 = -1;

bool dalic_img_resample_use_avx2(bool on)
{
	int v = on && dalic_img_resample_avx2_available();
	atomic_store(&resample_avx2, v);
	return v;
}

static bool resample_avx2_on(void)
{
	int v = atomic_load_explicit(&resample_avx2, memory_order_relaxed);
	if (v < 0) {
		v = dalic_img_resample_avx2_available();
		atomic_store(&resample_avx2, v);
	}
	return v;
}

static vsum_fn resample_vsum_for(dalic_dtype_t t)
{
	bool avx2 = resample_avx2_on();
	switch (t) {
	case DALIC_UINT8: return avx2 ? dalic_img_resample_vsum_u8_avx2 : resample_vsum_u8;
	case DALIC_INT16: return resample_vsum_i16;
	case DALIC_UINT16: return resample_vsum_u16;
	default: return avx2 ? dalic_img_resample_vsum_f32_avx2 : resample_vsum_f32;
	}
}

/* 3 or 4 channels: one 4-lane multiply-add per tap. Reads and writes one float past the last
 * pixel when C == 3 (buffers carry HSUM_SLACK floats of slack), and writes pixels in order
 * so each spill is overwritten by the next pixel. */
#define HSUM_SLACK 4
#define DEFINE_HSUM4(name, TAPS)                                                             \
	static void name(const float *restrict in, int C, const axis_t *a, float *restrict out) \
	{                                                                                        \
		const int taps = TAPS > 0 ? TAPS : a->taps;                                      \
		const int32_t *idx = a->idx;                                                     \
		for (int x = 0; x < a->out; x++, idx += taps) {                                  \
			const float *w = a->w4 + HSUM_W4_AT(x, 0, taps);                         \
			v4f s = {0, 0, 0, 0};                                                    \
			_Pragma("GCC unroll 4") for (int k = 0; k < taps; k++)                   \
			{                                                                        \
				v4f p, wk;                                                       \
				memcpy(&p, in + idx[k], sizeof p);                               \
				memcpy(&wk, w + 8 * k, sizeof wk);                               \
				s += wk * p;                                                     \
			}                                                                        \
			memcpy(out + C * x, &s, sizeof s);                                       \
		}                                                                                \
	}
DEFINE_HSUM4(resample_hsum4_1, 1)
DEFINE_HSUM4(resample_hsum4_2, 2)
DEFINE_HSUM4(resample_hsum4_3, 3)
DEFINE_HSUM4(resample_hsum4_4, 4)
DEFINE_HSUM4(resample_hsum4_n, 0)

/* out[x] = sum_k w * in[idx] per channel; `in` is a float row starting at the axis' lo and
 * the horizontal indices are premultiplied by the channel count. */
static void resample_hsum(const float *restrict in, int C, const axis_t *a, float *restrict out)
{
	if (C == 3 || C == 4) {
		if (resample_avx2_on()) {
			dalic_img_resample_hsum4_avx2(in, C, a->out, a->taps, a->idx, a->w4, out);
			return;
		}
		switch (a->taps) {
		case 1: resample_hsum4_1(in, C, a, out); return;
		case 2: resample_hsum4_2(in, C, a, out); return;
		case 3: resample_hsum4_3(in, C, a, out); return;
		case 4: resample_hsum4_4(in, C, a, out); return;
		default: resample_hsum4_n(in, C, a, out); return;
		}
	}
	const int taps = a->taps;
	const int32_t *idx = a->idx;
	const float *w = a->w;
	for (int x = 0; x < a->out; x++, idx += taps, w += taps)
		for (int c = 0; c < C; c++)
			out[C * x + c] = dalic_resample_px_taps(DALIC_FLOAT, in, c, 1, idx, w, taps);
}

#ifndef __SSE2__
/* Rounds like DALI (+ 0.5, clamp, truncate) into [lo, hi]: 4 lanes through int32. */
static inline v4i resample_round_clamp4(v4f v, int32_t lo, int32_t hi)
{
	v4i i = __builtin_convertvector(v + 0.5f, v4i); /* truncates toward zero */
	v4i under = i < lo, over = i > hi;
	i = (i & ~under) | ((v4i){lo, lo, lo, lo} & under);
	return (i & ~over) | ((v4i){hi, hi, hi, hi} & over);
}
#endif

/* Float row to the output type. */
static void resample_store_row(dalic_dtype_t t, void *dst, const float *src, int n)
{
	int j = 0;
	switch (t) {
	case DALIC_UINT8:
#ifdef __SSE2__
		/* + 0.5, truncate, then saturating packs clamp to [0, 255]; values from uint8
		 * sources stay far inside the int32 range the conversion needs. */
		for (; j + 16 <= n; j += 16) {
			const __m128 h = _mm_set1_ps(0.5f);
			__m128i a = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(src + j), h));
			__m128i b = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(src + j + 4), h));
			__m128i c = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(src + j + 8), h));
			__m128i d = _mm_cvttps_epi32(_mm_add_ps(_mm_loadu_ps(src + j + 12), h));
			_mm_storeu_si128((__m128i *)((uint8_t *)dst + j),
					 _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
		}
#else
		for (; j + 4 <= n; j += 4) {
			v4u8 b = __builtin_convertvector(
			    resample_round_clamp4(resample_load4_f32(src + j), 0, 255), v4u8);
			memcpy((uint8_t *)dst + j, &b, sizeof b);
		}
#endif
		for (; j < n; j++)
			dalic_resample_px_store(DALIC_UINT8, dst, j, src[j]);
		break;
	case DALIC_INT16:
		for (; j < n; j++)
			dalic_resample_px_store(DALIC_INT16, dst, j, src[j]);
		break;
	case DALIC_UINT16:
		for (; j < n; j++)
			dalic_resample_px_store(DALIC_UINT16, dst, j, src[j]);
		break;
	default:
		memcpy(dst, src, sizeof(float) * (size_t)n);
		break;
	}
}

/* Input row (from column lo, n elements) as floats. */
static void resample_load_row(dalic_dtype_t t, const void *src, float *dst, int n)
{
	const float one = 1;
	const void *rows[1] = {src};
	resample_vsum_for(t)(dst, rows, &one, 1, n);
}

/* DALI's origin and scale per axis for nearest neighbour (resampling_setup.cc): float window
 * bounds, scale = extent / out in float; when both axes are NN its setup cuts the input at
 * floor(window start) on the axis of the cheaper pass order and moves that origin by it. */
static void resample_nn_setup(const img_resample_job_t *j, bool pure, resample_nn_axis_t *y,
                              resample_nn_axis_t *x)
{
	float y0 = (float)j->y0, y1 = (float)j->y1, x0 = (float)j->x0, x1 = (float)j->x1;
	*y = (resample_nn_axis_t){y0, (y1 - y0) / (float)j->out_h, 0, true};
	*x = (resample_nn_axis_t){x0, (x1 - x0) / (float)j->out_w, 0, false};
	if (!pure)
		return;
	int cut[2], ext[2];
	const float lo[2] = {fminf(y0, y1), fminf(x0, x1)}, hi[2] = {fmaxf(y0, y1), fmaxf(x0, x1)};
	const int size[2] = {j->in_h, j->in_w};
	for (int d = 0; d < 2; d++) { /* NN: anchor 0, support 1 */
		float l = floorf(lo[d]), h = floorf(hi[d] + 1);
		int a = l < 0 ? 0 : l > (float)size[d] ? size[d] : (int)l;
		int b = h < 0 ? 0 : h > (float)size[d] ? size[d] : (int)h;
		cut[d] = a;
		ext[d] = b - a;
	}
	/* vertical pass first when its intermediate (roi width x out height) is smaller */
	if ((int64_t)ext[1] * j->out_h < (int64_t)j->out_w * ext[0]) {
		x->origin -= (float)cut[1];
		x->cut = cut[1];
	} else {
		y->origin -= (float)cut[0];
		y->cut = cut[0];
	}
}

/* ---- the plan and the two pass orders ------------------------------------------------------- */
/* The filter tables of both axes (in ws->taps, horizontal indices premultiplied by the
 * channel count), room for ay->taps row pointers, and the cheaper pass order. */
static int resample_prepare(img_resample_ws_t *ws, const img_resample_job_t *j, axis_t *pay,
                            axis_t *pax, const void ***prows, bool *vert_first_out)
{
	const int C = j->channels;
	img_filter_t ty, tx;
	double sy, sx;
	/* Source coordinates, tap positions and counts are ints: a window past +-2**30 or a
	 * filter wider than 2**24 taps cannot be tabulated. */
	const double far = 1073741824.0;
	if (!(fabs(j->y0) <= far && fabs(j->y1) <= far && fabs(j->x0) <= far &&
	      fabs(j->x1) <= far)) {
		dalic_fail(DALIC_EINVAL, "source window [%g, %g) x [%g, %g) is out of range", j->y0,
			   j->y1, j->x0, j->x1);
		return -1;
	}
	resample_axis_filter(j->out_h, j->y0, j->y1, &j->filters, &ty, &sy);
	resample_axis_filter(j->out_w, j->x0, j->x1, &j->filters, &tx, &sx);
	if (sy > 16777216.0 || sx > 16777216.0) {
		dalic_fail(DALIC_EINVAL, "a filter of %g x %g source pixels is too wide", sy, sx);
		return -1;
	}
	axis_t ay = {.out = j->out_h, .taps = resample_axis_taps(ty, sy)};
	axis_t ax = {.out = j->out_w, .taps = resample_axis_taps(tx, sx)};
	size_t ny = (size_t)ay.out * ay.taps, nx = (size_t)ax.out * ax.taps;
	size_t nw4 = HSUM_W4_FLOATS(ax.out, ax.taps);
	/* one block: w4 (16-byte aligned at the start), weights, indices, row pointers */
	uint8_t *t = dalic_img_scratch_get(&ws->taps, nw4 * sizeof(float) +
							 (ny + nx) * (sizeof(int32_t) + sizeof(float)) +
							 sizeof(void *) * (size_t)ay.taps);
	if (!t)
		return -1;
	ax.w4 = (float *)t;
	ay.w = ax.w4 + nw4;
	ax.w = ay.w + ny;
	ay.idx = (int32_t *)(ax.w + nx);
	ax.idx = ay.idx + ny;
	const void **rows = (const void **)(ax.idx + nx); /* 8(ny + nx) bytes in: aligned */
	resample_nn_axis_t ny_, nx_;
	resample_nn_setup(j, ty == IMG_FILTER_NN && tx == IMG_FILTER_NN, &ny_, &nx_);
	resample_axis_build(j->in_h, j->out_h, j->y0, j->y1, ty, sy, &ny_, &ay);
	resample_axis_build(j->in_w, j->out_w, j->x0, j->x1, tx, sx, &nx_, &ax);
	for (size_t k = 0; k < nx; k++)
		ax.idx[k] *= C;
	if (ax.out % 2) /* the last output has no partner: its half of the pair weighs 0 */
		memset(ax.w4 + HSUM_W4_AT(ax.out - 1, 0, ax.taps), 0, sizeof(float) * 8 * ax.taps);
	for (int x = 0; x < ax.out; x++)
		for (int k = 0; k < ax.taps; k++)
			for (int l = 0; l < 4; l++)
				ax.w4[HSUM_W4_AT(x, k, ax.taps) + l] = ax.w[(size_t)x * ax.taps + k];

	const int xw = ax.hi - ax.lo, yh = ay.hi - ay.lo;
	/* Multiplications of each order; the intermediate is float either way, so the order
	 * changes rounding only at float precision. */
	double vert_first = (double)ay.out * xw * ay.taps + (double)ay.out * ax.out * ax.taps;
	double horz_first = (double)yh * ax.out * ax.taps + (double)ay.out * ax.out * ay.taps;
	*vert_first_out = vert_first <= horz_first;
	*pay = ay;
	*pax = ax;
	*prows = rows;
	return 0;
}

int dalic_img_resample_plan(img_resample_ws_t *ws, const img_resample_job_t *job,
                            img_resample_plan_t *plan)
{
	axis_t ay, ax;
	const void **rows;
	if (resample_prepare(ws, job, &ay, &ax, &rows, &plan->vert_first))
		return -1;
	const axis_t *src[2] = {&ay, &ax};
	img_resample_table_t *dst[2] = {&plan->y, &plan->x};
	for (int d = 0; d < 2; d++) {
		dst[d]->out = src[d]->out;
		dst[d]->taps = src[d]->taps;
		dst[d]->lo = src[d]->lo;
		dst[d]->hi = src[d]->hi;
		dst[d]->idx = src[d]->idx;
		dst[d]->w = src[d]->w;
	}
	return 0;
}

int dalic_img_resample(img_resample_ws_t *ws, const img_resample_job_t *j)
{
	const int C = j->channels;
	const size_t in_es = dalic_dtype_size(j->in_type), out_es = dalic_dtype_size(j->out_type);
	axis_t ay, ax;
	const void **rows;
	bool vert_first;
	if (resample_prepare(ws, j, &ay, &ax, &rows, &vert_first))
		return -1;
	const int xw = ax.hi - ax.lo, yh = ay.hi - ay.lo;
	const size_t in_stride = (size_t)j->in_w * C, out_row = (size_t)j->out_w * C;
	const uint8_t *in = j->in;
	uint8_t *out = j->out;
	if (vert_first) {
		float *buf = dalic_img_scratch_get(
		    &ws->row, sizeof(float) * ((size_t)xw * C + out_row + 2 * HSUM_SLACK));
		if (!buf)
			return -1;
		float *col = buf, *res = buf + (size_t)xw * C + HSUM_SLACK;
		/* resample_hsum reads up to HSUM_SLACK past the row (zero-weight taps): keep it 0,
		 * not garbage that could be NaN */
		memset(col + (size_t)xw * C, 0, sizeof(float) * HSUM_SLACK);
		vsum_fn vsum = resample_vsum_for(j->in_type);
		for (int y = 0; y < ay.out; y++) {
			for (int k = 0; k < ay.taps; k++) {
				size_t r = (size_t)(ay.lo + ay.idx[(size_t)y * ay.taps + k]);
				rows[k] = in + (r * in_stride + (size_t)ax.lo * C) * in_es;
			}
			vsum(col, (const void *const *)rows, ay.w + (size_t)y * ay.taps, ay.taps,
			     xw * C);
			resample_hsum(col, C, &ax, res);
			resample_store_row(j->out_type, out + (size_t)y * out_row * out_es, res,
			                   (int)out_row);
		}
		return 0;
	}
	float *tmp =
	    dalic_img_scratch_get(&ws->tmp, sizeof(float) * ((size_t)yh * out_row + HSUM_SLACK));
	float *buf = dalic_img_scratch_get(&ws->row, sizeof(float) * ((size_t)xw * C + out_row +
							       2 * HSUM_SLACK));
	if (!tmp || !buf)
		return -1;
	float *line = buf, *res = buf + (size_t)xw * C + HSUM_SLACK;
	memset(line + (size_t)xw * C, 0, sizeof(float) * HSUM_SLACK); /* as above */
	vsum_fn vsum = resample_vsum_for(DALIC_FLOAT);
	for (int r = 0; r < yh; r++) {
		const uint8_t *src = in + ((size_t)(ay.lo + r) * in_stride + (size_t)ax.lo * C) * in_es;
		resample_load_row(j->in_type, src, line, xw * C);
		resample_hsum(line, C, &ax, tmp + (size_t)r * out_row);
	}
	for (int y = 0; y < ay.out; y++) {
		for (int k = 0; k < ay.taps; k++)
			rows[k] = tmp + (size_t)ay.idx[(size_t)y * ay.taps + k] * out_row;
		vsum(res, (const void *const *)rows, ay.w + (size_t)y * ay.taps, ay.taps,
		     (int)out_row);
		resample_store_row(j->out_type, out + (size_t)y * out_row * out_es, res,
		                   (int)out_row);
	}
	return 0;
}
