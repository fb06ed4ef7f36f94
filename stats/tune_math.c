/* Small-sample statistics for the tuner (stats/tune.h): Student t intervals and quantiles. */
#include "stats/tune_trial.h"

#include "engine/checked.h"
#include "engine/error.h"

#include <stdarg.h>
#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Continued fraction of the regularized incomplete beta function (Lentz's method). */
static double tune_betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
			                 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1 / d;
			h *= d * c;
			if (odd && fabs(d * c - 1) < 1e-15)
				return h;
		}
	}
	return h;
}

/* I_x(a, b) */
static double tune_ibeta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * tune_betacf(a, b, x) / a;
	return 1 - exp(lbt) * tune_betacf(b, a, 1 - x) / b;
}

/* P(T > t) for Student's t with df degrees of freedom, t >= 0. */
static double tune_t_upper(double t, int df)
{
	return 0.5 * tune_ibeta(df / 2.0, 0.5, df / (df + t * t));
}

double dalic_tune_t_quantile(int df, double p)
{
	if (df < 1 || !(p > 0.5) || !(p < 1))
		return df < 1 || p >= 1 ? INFINITY : 0;
	double lo = 0, hi = 1;
	while (tune_t_upper(hi, df) > 1 - p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (tune_t_upper(mid, df) > 1 - p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double dalic_tune_t95(int df)
{
	return dalic_tune_t_quantile(df, 0.975);
}

void dalic_tune_mean_ci(const double *x, int n, double *mean, double *half)
{
	dalic_tune_mean_ci_at(x, n, 0.95, mean, half);
}

void dalic_tune_mean_ci_at(const double *x, int n, double level, double *mean, double *half)
{
	double m = 0, ss = 0;
	for (int i = 0; i < n; i++)
		m += x[i];
	m = n ? m / n : 0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = n < 2 ? INFINITY
	                : dalic_tune_t_quantile(n - 1, (1 + level) / 2) * sqrt(ss / (n - 1)) / sqrt(n);
}

static int tune_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double dalic_tune_quantile(double *x, int n, double q)
{
	if (n <= 0)
		return 0;
	qsort(x, (size_t)n, sizeof *x, tune_cmp_double);
	long k = lround(q * (n - 1));
	return x[k < 0 ? 0 : k >= n ? n - 1 : k];
}

double dalic_tune_median(const double *x, int n)
{
	if (n <= 0)
		return 0;
	double *c = malloc((size_t)n * sizeof *c);
	if (!c)
		return 0;
	memcpy(c, x, (size_t)n * sizeof *c);
	qsort(c, (size_t)n, sizeof *c, tune_cmp_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

void dalic_tune_appendf(char *buf, size_t n, int *w, const char *fmt, ...)
{
	size_t at = *w < 0 ? 0 : (size_t)*w;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(at < n ? buf + at : NULL, at < n ? n - at : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		*w += k;
}

int dalic_tune_reserve(void **arr, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return DALIC_OK;
	int c = *cap > 0 ? *cap : 16;
	while (c < need)
		c = c > INT32_MAX / 2 ? need : 2 * c;
	size_t bytes;
	void *n = dalic_ck_mul_size((size_t)c, size, &bytes) ? realloc(*arr, bytes) : NULL;
	if (!n)
		return dalic_fail(DALIC_ENOMEM, "dalic tune: out of memory");
	*arr = n;
	*cap = c;
	return DALIC_OK;
}
