/*
 * Value statistics of a sample or a batch: min, max, mean and (population) std over finite
 * values, and NaN / Inf counts. One loop per element type, because conditions may scan every
 * output of every operator and a per-element type switch would dominate that cost. The std
 * takes a second pass over the data (sum of squared deviations), which stays accurate for
 * large means where sum-of-squares minus square-of-sum would cancel.
 */
#include "debugmode/session.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <math.h>

typedef struct acc {
	int64_t n, nan, inf;
	double sum, min, max, sq;
} acc_t;

#define SCAN_INT(T)                                                                                \
	static void scan_##T(const T *p, int64_t n, acc_t *a)                                      \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)p[k];                                                   \
			a->sum += v;                                                               \
			if (v < a->min)                                                            \
				a->min = v;                                                        \
			if (v > a->max)                                                            \
				a->max = v;                                                        \
		}                                                                                  \
		a->n += n;                                                                         \
	}                                                                                          \
	static void dev_##T(const T *p, int64_t n, double mean, acc_t *a)                          \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++)                                                    \
			a->sq += ((double)p[k] - mean) * ((double)p[k] - mean);                    \
	}

#define SCAN_FLOAT(T)                                                                              \
	static void scan_##T(const T *p, int64_t n, acc_t *a)                                      \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)p[k];                                                   \
			if (isnan(v)) {                                                            \
				a->nan++;                                                          \
				continue;                                                          \
			}                                                                          \
			if (isinf(v)) {                                                            \
				a->inf++;                                                          \
				continue;                                                          \
			}                                                                          \
			a->n++;                                                                    \
			a->sum += v;                                                               \
			if (v < a->min)                                                            \
				a->min = v;                                                        \
			if (v > a->max)                                                            \
				a->max = v;                                                        \
		}                                                                                  \
	}                                                                                          \
	static void dev_##T(const T *p, int64_t n, double mean, acc_t *a)                          \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++)                                                    \
			if (isfinite((double)p[k]))                                                \
				a->sq += ((double)p[k] - mean) * ((double)p[k] - mean);            \
	}

typedef unsigned char u8;
typedef signed char i8;
typedef unsigned short u16;
typedef short i16;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
SCAN_INT(u8)
SCAN_INT(i8)
SCAN_INT(u16)
SCAN_INT(i16)
SCAN_INT(u32)
SCAN_INT(i32)
SCAN_INT(u64)
SCAN_INT(i64)
SCAN_FLOAT(float)
SCAN_FLOAT(double)

/* float16 and the rare types go element by element through the generic loader. */
static void scan_generic(dalic_dtype_t t, const void *p, int64_t n, acc_t *a)
{
	for (int64_t k = 0; k < n; k++) {
		double v = dalic_load_f64(t, p, k);
		if (isnan(v)) {
			a->nan++;
		} else if (isinf(v)) {
			a->inf++;
		} else {
			a->n++;
			a->sum += v;
			a->min = v < a->min ? v : a->min;
			a->max = v > a->max ? v : a->max;
		}
	}
}

static void dev_generic(dalic_dtype_t t, const void *p, int64_t n, double mean, acc_t *a)
{
	for (int64_t k = 0; k < n; k++) {
		double v = dalic_load_f64(t, p, k);
		if (isfinite(v))
			a->sq += (v - mean) * (v - mean);
	}
}

static void scan(dalic_dtype_t t, const void *p, int64_t n, acc_t *a)
{
	switch (t) {
	case DALIC_UINT8:
	case DALIC_BOOL:
		scan_u8(p, n, a);
		break;
	case DALIC_INT8:
		scan_i8(p, n, a);
		break;
	case DALIC_UINT16:
		scan_u16(p, n, a);
		break;
	case DALIC_INT16:
		scan_i16(p, n, a);
		break;
	case DALIC_UINT32:
		scan_u32(p, n, a);
		break;
	case DALIC_INT32:
		scan_i32(p, n, a);
		break;
	case DALIC_UINT64:
		scan_u64(p, n, a);
		break;
	case DALIC_INT64:
		scan_i64(p, n, a);
		break;
	case DALIC_FLOAT:
		scan_float(p, n, a);
		break;
	case DALIC_FLOAT64:
		scan_double(p, n, a);
		break;
	default:
		scan_generic(t, p, n, a);
	}
}

static void deviations(dalic_dtype_t t, const void *p, int64_t n, double mean, acc_t *a)
{
	switch (t) {
	case DALIC_UINT8:
	case DALIC_BOOL:
		dev_u8(p, n, mean, a);
		break;
	case DALIC_INT8:
		dev_i8(p, n, mean, a);
		break;
	case DALIC_UINT16:
		dev_u16(p, n, mean, a);
		break;
	case DALIC_INT16:
		dev_i16(p, n, mean, a);
		break;
	case DALIC_UINT32:
		dev_u32(p, n, mean, a);
		break;
	case DALIC_INT32:
		dev_i32(p, n, mean, a);
		break;
	case DALIC_UINT64:
		dev_u64(p, n, mean, a);
		break;
	case DALIC_INT64:
		dev_i64(p, n, mean, a);
		break;
	case DALIC_FLOAT:
		dev_float(p, n, mean, a);
		break;
	case DALIC_FLOAT64:
		dev_double(p, n, mean, a);
		break;
	default:
		dev_generic(t, p, n, mean, a);
	}
}

/* Samples [first, last) of b. */
static void batch_stats(const dalic_batch_t *b, int first, int last, bool need_std,
                        dalic_debug_stats_t *out)
{
	acc_t a = {.min = INFINITY, .max = -INFINITY};
	for (int i = first; i < last; i++)
		scan(b->dtype, b->ptrs[i], dalic_batch_sample_elems(b, i), &a);
	double mean = a.n ? a.sum / (double)a.n : NAN;
	if (need_std && a.n)
		for (int i = first; i < last; i++)
			deviations(b->dtype, b->ptrs[i], dalic_batch_sample_elems(b, i), mean, &a);
	*out = (dalic_debug_stats_t){
	    .elements = a.n + a.nan + a.inf,
	    .min = a.n ? a.min : NAN,
	    .max = a.n ? a.max : NAN,
	    .mean = mean,
	    .std = need_std && a.n ? sqrt(a.sq / (double)a.n) : NAN,
	    .nan_count = a.nan,
	    .inf_count = a.inf,
	};
}

void dalic_debug_sample_stats(const dalic_batch_t *b, int sample, bool need_std,
                              dalic_debug_stats_t *out)
{
	batch_stats(b, sample, sample + 1, need_std, out);
}

int dalic_debug_stats(const dalic_batch_t *b, int sample, dalic_debug_stats_t *out)
{
	if (!b || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_debug_stats: NULL argument");
	if (!dalic_dtype_is_numeric(b->dtype))
		return dalic_fail(DALIC_EUNSUPPORTED, "statistics of %s data are not defined",
		                  dalic_dtype_name(b->dtype));
	if (sample >= b->num_samples)
		return dalic_fail(DALIC_EINVAL, "sample %d out of range (batch of %d)", sample,
		                  b->num_samples);
	if (sample < 0)
		batch_stats(b, 0, b->num_samples, true, out);
	else
		batch_stats(b, sample, sample + 1, true, out);
	return DALIC_OK;
}
