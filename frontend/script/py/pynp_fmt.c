/*
 * repr() and str() of the numpy subset (see pynp.h), as NumPy 2 prints them with its default
 * print options: numpy scalars print their value (repr: `np.float32(0.5)`, `np.True_`);
 * arrays print every element in one format — floats with the fewest digits that identify
 * each value (at most 8 after the point), padded so the points line up, scientific notation
 * when the magnitudes call for it; integers right-aligned — nested in brackets, wrapped at 75
 * columns, summarised with "..." past 1000 elements; repr adds `array(...)` and the dtype
 * when it is not the default one.
 */
#include "frontend/script/py/pynp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PYNP_LINE_WIDTH 75
#define PYNP_THRESHOLD 1000
#define PYNP_EDGE 3
#define PYNP_PRECISION 8

/* Shortest decimal digits that read back as the same value at the dtype's precision:
 * digits (no point) and the decimal exponent of the first digit. */
static int pynp_shortest(dalic_dtype_t t, double v, char *digits, int *exp10)
{
	char tmp[64];
	int prec = 1;
	for (; prec < 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
		double back = strtod(tmp, NULL);
		bool same = t == DALIC_FLOAT     ? (float)back == (float)v
		            : t == DALIC_FLOAT16 ? dalic_dtype_float_to_half((float)back) ==
		                                       dalic_dtype_float_to_half((float)v)
		                                 : back == v;
		if (same)
			break;
	}
	snprintf(tmp, sizeof tmp, "%.*e", prec - 1, fabs(v));
	int n = 0;
	const char *p = tmp;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = 0;
	*exp10 = *p == 'e' ? atoi(p + 1) : 0;
	return n;
}

/* Positional text of |v| with at most `maxfrac` digits after the point; "." kept. */
static void pynp_positional(dalic_dtype_t t, double v, int maxfrac, char *out, size_t n)
{
	char digits[32];
	int e;
	int nd = pynp_shortest(t, v, digits, &e);
	int frac = nd - 1 - e;
	if (frac < 0)
		frac = 0;
	if (frac > maxfrac) {
		snprintf(out, n, "%.*f", maxfrac, fabs(v));
		size_t k = strlen(out);
		while (k > 0 && out[k - 1] == '0')
			out[--k] = 0;
		return;
	}
	snprintf(out, n, "%.*f", frac, fabs(v));
	if (!strchr(out, '.'))
		strncat(out, ".", n - strlen(out) - 1);
}

/* Scientific text of |v| with exactly `frac` mantissa digits after the point (the shortest
 * digits, zero-padded, rounded when longer) and at least `expdig` exponent digits. */
static void pynp_scientific(dalic_dtype_t t, double v, int frac, int expdig, char *out, size_t n)
{
	char digits[40], tmp[64];
	int e;
	int nd = pynp_shortest(t, v, digits, &e);
	if (nd - 1 > frac) {
		snprintf(tmp, sizeof tmp, "%.*e", frac, fabs(v));
		nd = 0;
		const char *p = tmp;
		for (; *p && *p != 'e'; p++)
			if (*p >= '0' && *p <= '9')
				digits[nd++] = *p;
		e = atoi(p + 1);
	}
	while (nd < frac + 1 && nd < 39)
		digits[nd++] = '0';
	digits[nd] = 0;
	snprintf(out, n, "%c.%se%c%0*d", digits[0], digits + 1, e < 0 ? '-' : '+', expdig, abs(e));
}

/* Digits after the point and in the exponent that the scientific form of |v| needs. */
static void pynp_sci_digits(dalic_dtype_t t, double v, int *frac, int *expdig)
{
	char digits[40];
	int e;
	int nd = pynp_shortest(t, v, digits, &e);
	*frac = nd - 1 > PYNP_PRECISION ? PYNP_PRECISION : nd - 1;
	*expdig = abs(e) >= 100 ? 3 : 2;
}

/* ---- scalars -------------------------------------------------------------------------- */

static void pynp_scalar_text(pybuf_t *b, dalic_dtype_t t, const void *data, int64_t i)
{
	if (t == DALIC_BOOL) {
		dalic_pybuf_puts(b, ((const uint8_t *)data)[i] ? "True" : "False");
		return;
	}
	if (!dalic_dtype_is_float(t)) {
		if (t == DALIC_UINT64)
			dalic_pybuf_printf(b, "%llu", (unsigned long long)((const uint64_t *)data)[i]);
		else
			dalic_pybuf_printf(b, "%lld", (long long)dalic_dtype_load_i64(t, data, i));
		return;
	}
	double v = dalic_dtype_load_f64(t, data, i);
	if (isnan(v) || isinf(v)) {
		dalic_pybuf_puts(b, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return;
	}
	/* Python's float repr, at the dtype's precision */
	char digits[32];
	int e;
	int nd = pynp_shortest(t, v, digits, &e);
	if (v < 0 || (v == 0 && signbit(v)))
		dalic_pybuf_puts(b, "-");
	if (e < -4 || e >= 16) {
		dalic_pybuf_printf(b, "%c%s%se%c%02d", digits[0], nd > 1 ? "." : "", digits + 1,
		                   e < 0 ? '-' : '+', abs(e));
	} else if (e < 0) {
		dalic_pybuf_puts(b, "0.");
		for (int k = -1; k > e; k--)
			dalic_pybuf_puts(b, "0");
		dalic_pybuf_puts(b, digits);
	} else {
		for (int k = 0; k <= e; k++)
			dalic_pybuf_put(b, k < nd ? &digits[k] : "0", 1);
		dalic_pybuf_puts(b, ".");
		dalic_pybuf_puts(b, nd > e + 1 ? digits + e + 1 : "0");
	}
}

void dalic_pynp_format_item(pybuf_t *b, dalic_dtype_t t, const void *data, int64_t i)
{
	pynp_scalar_text(b, t, data, i);
}

/* ---- arrays --------------------------------------------------------------------------- */

typedef struct fmt {
	const pynp_array_t *a;
	bool is_float, exp;
	int frac;      /* digits after the point (floats) */
	int expdig;    /* exponent digits (scientific) */
	int width;     /* of every element */
	bool summary;  /* more than PYNP_THRESHOLD elements */
	const char *sep; /* " " (str) or ", " (repr) */
} fmt_t;

static bool pynp_shown(const fmt_t *f, int dim, int64_t i)
{
	return !f->summary || f->a->shape[dim] <= 2 * PYNP_EDGE || i < PYNP_EDGE ||
	       i >= f->a->shape[dim] - PYNP_EDGE;
}

static void pynp_elem_text(const fmt_t *f, int64_t i, char *out, size_t n)
{
	const pynp_array_t *a = f->a;
	if (!f->is_float) {
		pybuf_t b = {0};
		pynp_scalar_text(&b, a->dtype, a->data, i);
		snprintf(out, n, "%s", b.s && !b.oom ? b.s : "?");
		dalic_pybuf_free(&b);
		return;
	}
	double v = dalic_dtype_load_f64(a->dtype, a->data, i);
	char body[64];
	if (isnan(v) || isinf(v))
		snprintf(body, sizeof body, "%s", isnan(v) ? "nan" : "inf");
	else if (f->exp)
		pynp_scientific(a->dtype, v, f->frac, f->expdig, body, sizeof body);
	else
		pynp_positional(a->dtype, v, PYNP_PRECISION, body, sizeof body);
	bool neg = v < 0 || (v == 0 && signbit(v));
	snprintf(out, n, "%s%s", neg ? "-" : "", body);
}

/* Widths and modes over the elements shown. */
static void pynp_fmt_scan(fmt_t *f)
{
	const pynp_array_t *a = f->a;
	double maxv = 0, minv = INFINITY;
	for (int64_t i = 0; f->is_float && i < a->size; i++) {
		double v = fabs(dalic_dtype_load_f64(a->dtype, a->data, i));
		if (v != 0 && isfinite(v)) {
			maxv = v > maxv ? v : maxv;
			minv = v < minv ? v : minv;
		}
	}
	f->exp = f->is_float && maxv > 0 && (maxv >= 1e8 || minv < 1e-4 || maxv / minv > 1e3);
	f->expdig = 2;
	for (int64_t i = 0; f->exp && i < a->size; i++) {
		double v = dalic_dtype_load_f64(a->dtype, a->data, i);
		int fr, ed;
		if (!isfinite(v))
			continue;
		pynp_sci_digits(a->dtype, v, &fr, &ed);
		f->frac = fr > f->frac ? fr : f->frac;
		f->expdig = ed > f->expdig ? ed : f->expdig;
	}
	int left = 0, right = 0, width = 0;
	for (int64_t i = 0; i < a->size; i++) {
		char t[80];
		pynp_elem_text(f, i, t, sizeof t);
		const char *dot = f->is_float && !f->exp ? strchr(t, '.') : NULL;
		if (dot) {
			int l = (int)(dot - t), r = (int)strlen(dot + 1);
			left = l > left ? l : left;
			right = r > right ? r : right;
		}
		int w = (int)strlen(t);
		width = w > width ? w : width;
	}
	if (!f->exp)
		f->frac = right;
	f->width = f->is_float && !f->exp ? left + 1 + right : width;
	if (f->is_float && !f->exp)
		for (int64_t i = 0; i < a->size; i++) {
			char t[80];
			pynp_elem_text(f, i, t, sizeof t);
			if (!strchr(t, '.')) /* nan / inf */
				f->width = (int)strlen(t) > f->width ? (int)strlen(t) : f->width;
		}
}

static void pynp_put_elem(pybuf_t *b, const fmt_t *f, int64_t i)
{
	char t[80];
	pynp_elem_text(f, i, t, sizeof t);
	if (f->is_float && !f->exp && strchr(t, '.')) {
		const char *dot = strchr(t, '.');
		int left = (int)(dot - t), right = (int)strlen(dot + 1);
		int lpad = f->width - f->frac - 1 - left;
		dalic_pybuf_printf(b, "%*s%s%*s", lpad > 0 ? lpad : 0, "", t,
		                   f->frac - right > 0 ? f->frac - right : 0, "");
		return;
	}
	dalic_pybuf_printf(b, "%*s", f->width, t);
}

/* The separator before the next item of dimension `dim`: within the innermost one a space
 * (", " for repr) and a line break when the next item would pass the line width; between
 * rows a comma for repr, one newline per dimension below, and the indentation. */
static void pynp_fmt_sep(pybuf_t *b, const fmt_t *f, int dim, int indent, size_t *line_start,
                         int next_width)
{
	if (dim == f->a->ndim - 1) {
		dalic_pybuf_puts(b, f->sep);
		if (b->n - *line_start + (size_t)next_width + 1 > PYNP_LINE_WIDTH) {
			while (b->n && b->s[b->n - 1] == ' ')
				b->n--;
			dalic_pybuf_puts(b, "\n");
			*line_start = b->n;
			dalic_pybuf_printf(b, "%*s", indent + 1, "");
		}
		return;
	}
	dalic_pybuf_puts(b, f->sep[0] == ',' ? "," : "");
	for (int k = 0; k < f->a->ndim - dim - 1; k++)
		dalic_pybuf_puts(b, "\n");
	*line_start = b->n;
	dalic_pybuf_printf(b, "%*s", indent + 1, "");
}

/* One level of brackets: dimension `dim` starting at flat element `base`, `indent` columns
 * of brackets (and "array(") before it. */
static void pynp_fmt_level(pybuf_t *b, const fmt_t *f, int dim, int64_t base, int indent,
                           size_t *line_start)
{
	const pynp_array_t *a = f->a;
	int64_t inner = 1;
	for (int d = dim + 1; d < a->ndim; d++)
		inner *= a->shape[d];
	dalic_pybuf_puts(b, "[");
	bool skipped = false;
	int count = 0;
	for (int64_t i = 0; i < a->shape[dim]; i++) {
		bool shown = pynp_shown(f, dim, i);
		if (!shown && skipped)
			continue;
		if (count++)
			pynp_fmt_sep(b, f, dim, indent, line_start, shown ? f->width : 3);
		if (!shown) {
			dalic_pybuf_puts(b, "...");
			skipped = true;
		} else if (dim == a->ndim - 1) {
			pynp_put_elem(b, f, base + i);
		} else {
			pynp_fmt_level(b, f, dim + 1, base + i * inner, indent + 1, line_start);
		}
	}
	dalic_pybuf_puts(b, "]");
}

static bool pynp_default_dtype(dalic_dtype_t t)
{
	return t == DALIC_FLOAT64 || t == DALIC_INT64 || t == DALIC_BOOL;
}

static void pynp_format_array(pybuf_t *b, const pynp_array_t *a, bool repr)
{
	fmt_t f = {.a = a,
	           .is_float = dalic_dtype_is_float(a->dtype),
	           .summary = a->size > PYNP_THRESHOLD,
	           .sep = repr ? ", " : " "};
	if (a->ndim == 0) {
		if (repr)
			dalic_pybuf_puts(b, "array(");
		pynp_scalar_text(b, a->dtype, a->data, 0);
		if (repr)
			dalic_pybuf_printf(b, "%s%s)", pynp_default_dtype(a->dtype) ? "" : ", dtype=",
			                   pynp_default_dtype(a->dtype) ? "" : dalic_dtype_short(a->dtype));
		return;
	}
	pynp_fmt_scan(&f);
	size_t line_start = b->n;
	int indent = 0;
	if (repr) {
		dalic_pybuf_puts(b, "array(");
		indent = 6;
	}
	if (a->size == 0) {
		for (int d = 0; d < a->ndim; d++)
			dalic_pybuf_puts(b, "[");
		for (int d = 0; d < a->ndim; d++)
			dalic_pybuf_puts(b, "]");
	} else {
		pynp_fmt_level(b, &f, 0, 0, indent, &line_start);
	}
	if (repr) {
		if (a->size == 0 || !pynp_default_dtype(a->dtype))
			dalic_pybuf_printf(b, ", dtype=%s", dalic_dtype_short(a->dtype));
		dalic_pybuf_puts(b, ")");
	}
}

void dalic_pynp_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	pynp_dtype_t *d = dalic_pynp_dtype(v);
	if (d) {
		if (d->is_type)
			dalic_pybuf_printf(b, "<class 'numpy.%s'>", dalic_dtype_short(d->dtype));
		else
			dalic_pybuf_printf(b, repr ? "dtype('%s')" : "%s", dalic_dtype_short(d->dtype));
		return;
	}
	pynp_array_t *a = dalic_pynp_array(v);
	if (!a->scalar) {
		pynp_format_array(b, a, repr);
		return;
	}
	if (!repr) {
		pynp_scalar_text(b, a->dtype, a->data, 0);
	} else if (a->dtype == DALIC_BOOL) {
		dalic_pybuf_puts(b, a->data[0] ? "np.True_" : "np.False_");
	} else {
		dalic_pybuf_printf(b, "np.%s(", dalic_dtype_short(a->dtype));
		pynp_scalar_text(b, a->dtype, a->data, 0);
		dalic_pybuf_puts(b, ")");
	}
}
