/*
 * Value statistics of a sample or a batch: min, max, mean and (population) std over finite
 * values, and NaN / Inf counts. One loop per element type (from the dtype table), because
 * conditions may scan every output of every operator and a per-element type switch would
 * dominate that cost. The std
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

/* One scan and one deviation loop per dtype, generated from the dtype table. Integers are
 * all finite; floats (float16 included) count NaN and Inf apart. */
#define STATS_SCAN_INTEGRAL(SHORT, CT, CLASS)                                                      \
	static void stats_scan_##SHORT(const CT *p, int64_t n, acc_t *a)                           \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)DALIC_DTYPE_VALUE(CLASS, p[k]);                         \
			a->sum += v;                                                               \
			if (v < a->min)                                                            \
				a->min = v;                                                        \
			if (v > a->max)                                                            \
				a->max = v;                                                        \
		}                                                                                  \
		a->n += n;                                                                         \
	}                                                                                          \
	static void stats_dev_##SHORT(const CT *p, int64_t n, double mean, acc_t *a)               \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)DALIC_DTYPE_VALUE(CLASS, p[k]);                         \
			a->sq += (v - mean) * (v - mean);                                          \
		}                                                                                  \
	}

#define STATS_SCAN_REAL(SHORT, CT, CLASS)                                                          \
	static void stats_scan_##SHORT(const CT *p, int64_t n, acc_t *a)                           \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)DALIC_DTYPE_VALUE(CLASS, p[k]);                         \
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
	static void stats_dev_##SHORT(const CT *p, int64_t n, double mean, acc_t *a)               \
	{                                                                                          \
		for (int64_t k = 0; k < n; k++) {                                                  \
			double v = (double)DALIC_DTYPE_VALUE(CLASS, p[k]);                         \
			if (isfinite(v))                                                           \
				a->sq += (v - mean) * (v - mean);                                  \
		}                                                                                  \
	}

#define STATS_SCAN_UINT STATS_SCAN_INTEGRAL
#define STATS_SCAN_SINT STATS_SCAN_INTEGRAL
#define STATS_SCAN_BOOL STATS_SCAN_INTEGRAL
#define STATS_SCAN_FLOAT STATS_SCAN_REAL
#define STATS_SCAN_HALF STATS_SCAN_REAL
#define STATS_DEFINE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                               \
	STATS_SCAN_##CLASS(ID, CT, CLASS)
DALIC_DTYPES_NUMERIC(STATS_DEFINE)
#undef STATS_DEFINE

static void sample_stats_scan(dalic_dtype_t t, const void *p, int64_t n, acc_t *a)
{
	switch (t) {
#define STATS_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                 \
	case DALIC_##ID: stats_scan_##ID(p, n, a); break;
		DALIC_DTYPES_NUMERIC(STATS_CASE)
#undef STATS_CASE
	default: break; /* not numeric: refused by the callers */
	}
}

static void sample_stats_deviations(dalic_dtype_t t, const void *p, int64_t n, double mean, acc_t *a)
{
	switch (t) {
#define STATS_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                 \
	case DALIC_##ID: stats_dev_##ID(p, n, mean, a); break;
		DALIC_DTYPES_NUMERIC(STATS_CASE)
#undef STATS_CASE
	default: break;
	}
}

/* Samples [first, last) of b. */
static void sample_stats_batch(const dalic_batch_t *b, int first, int last, bool need_std,
                        dalic_debug_stats_t *out)
{
	acc_t a = {.min = INFINITY, .max = -INFINITY};
	for (int i = first; i < last; i++)
		sample_stats_scan(b->dtype, b->ptrs[i], dalic_batch_sample_elems(b, i), &a);
	double mean = a.n ? a.sum / (double)a.n : NAN;
	if (need_std && a.n)
		for (int i = first; i < last; i++)
			sample_stats_deviations(b->dtype, b->ptrs[i], dalic_batch_sample_elems(b, i), mean, &a);
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
	sample_stats_batch(b, sample, sample + 1, need_std, out);
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
		sample_stats_batch(b, 0, b->num_samples, true, out);
	else
		sample_stats_batch(b, sample, sample + 1, true, out);
	return DALIC_OK;
}
