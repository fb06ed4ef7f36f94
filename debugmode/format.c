/*
 * numpy's array2string, which DALI's debug-mode printing uses for every value it shows
 * (numpy/core/arrayprint.py: _formatArray, FloatingFormat, IntegerFormat, BoolFormat with the
 * non-legacy defaults). Followed closely so that the text a user sees in dalic matches what the
 * same pipeline prints under DALI:
 *  - one formatter per array, computed over the elements actually shown (the edges when the
 *    array has more than `threshold` elements), so all elements have one width;
 *  - floats: format_positional with at most 8 fractional digits, the format_shortest digits that identify
 *    the value in its own type (float16/32/64), decimal points aligned; format_scientific when the
 *    largest magnitude is >= 1e8, the smallest non-zero < 1e-4 or their ratio > 1e3;
 *  - rows wrap at 75 columns, nested rows are indented one space per level, and blocks of
 *    higher dimensions are separated by blank lines.
 */
#include "debugmode/format.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- string builder ---- */

static bool format_sb_reserve(dalic_debug_sb_t *b, size_t more)
{
	if (b->oom)
		return false;
	if (b->n + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->n + more + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void dalic_debug_sb_addn(dalic_debug_sb_t *b, const char *s, size_t n)
{
	if (!format_sb_reserve(b, n))
		return;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void dalic_debug_sb_add(dalic_debug_sb_t *b, const char *s)
{
	dalic_debug_sb_addn(b, s, strlen(s));
}

void dalic_debug_sb_printf(dalic_debug_sb_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !format_sb_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

void dalic_debug_sb_spaces(dalic_debug_sb_t *b, int n)
{
	if (n <= 0 || !format_sb_reserve(b, (size_t)n))
		return;
	memset(b->s + b->n, ' ', (size_t)n);
	b->n += (size_t)n;
	b->s[b->n] = 0;
}

char *dalic_debug_sb_take(dalic_debug_sb_t *b)
{
	char *s = b->oom ? NULL : b->s;
	if (b->oom)
		free(b->s);
	else if (!s)
		s = calloc(1, 1);
	memset(b, 0, sizeof *b);
	return s;
}

/* ---- element access ---- */

typedef struct arr {
	const dalic_debug_np_view_t *v;
	int64_t stride[DALIC_MAX_NDIM + 1];
} arr_t;

static const void *format_part_of(const arr_t *a, int64_t flat, int64_t *within)
{
	int64_t pe = a->v->part_elems > 0 ? a->v->part_elems : 1;
	*within = flat % pe;
	return a->v->parts[flat / pe];
}

static double format_load_f(const arr_t *a, int64_t flat)
{
	int64_t k;
	const void *p = format_part_of(a, flat, &k);
	return dalic_dtype_load_f64(a->v->dtype, p, k);
}

static int64_t format_load_i(const arr_t *a, int64_t flat)
{
	int64_t k;
	const void *p = format_part_of(a, flat, &k);
	return dalic_dtype_load_i64(a->v->dtype, p, k);
}

static uint64_t format_load_u64(const arr_t *a, int64_t flat)
{
	int64_t k;
	const uint64_t *p = format_part_of(a, flat, &k);
	return p[k];
}

/* ---- float digits ---- */

static bool format_same_value(const char *text, double a, dalic_dtype_t t)
{
	if (t == DALIC_FLOAT64)
		return strtod(text, NULL) == a;
	float f = strtof(text, NULL);
	if (t == DALIC_FLOAT16)
		return dalic_dtype_float_to_half(f) == dalic_dtype_float_to_half((float)a);
	return f == (float)a;
}

/* Parses "d.ddde+XX" into significant digits (trailing zeros dropped) and the exponent. */
static void format_split_e(const char *buf, char *digits, int *e10)
{
	const char *e = strchr(buf, 'e');
	int k = 0;
	for (const char *q = buf; q < e; q++)
		if (isdigit((unsigned char)*q))
			digits[k++] = *q;
	while (k > 1 && digits[k - 1] == '0')
		k--;
	digits[k] = 0;
	*e10 = atoi(e + 1);
}

/* Shortest digits of |v| that read back as the same value of type t (Dragon4's "unique"). */
static void format_shortest(double v, dalic_dtype_t t, char *digits, int *e10)
{
	char buf[48];
	double a = fabs(v);
	if (a == 0) {
		strcpy(digits, "0");
		*e10 = 0;
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, a);
		if (format_same_value(buf, a, t))
			break;
	}
	format_split_e(buf, digits, e10);
}

/* dragon4_positional(v, precision=8, unique=True, trim='.'): "-12.5", "3.", "0.001". */
static void format_positional(double v, dalic_dtype_t t, char *out, size_t n)
{
	char d[40], body[96];
	int e;
	format_shortest(v, t, d, &e);
	int len = (int)strlen(d), frac = len - 1 - e;
	if (d[0] == '0' && len == 1) {
		snprintf(body, sizeof body, "0.");
	} else if (frac > 8) {
		snprintf(body, sizeof body, "%.8f", fabs(v));
		size_t k = strlen(body);
		while (k > 0 && body[k - 1] == '0')
			body[--k] = 0;
	} else if (e >= 0) {
		int w = 0;
		for (int i = 0; i <= e; i++)
			body[w++] = i < len ? d[i] : '0';
		body[w++] = '.';
		for (int i = e + 1; i < len; i++)
			body[w++] = d[i];
		body[w] = 0;
	} else {
		int w = 0;
		body[w++] = '0';
		body[w++] = '.';
		for (int i = 0; i < -e - 1; i++)
			body[w++] = '0';
		for (int i = 0; i < len; i++)
			body[w++] = d[i];
		body[w] = 0;
	}
	snprintf(out, n, "%s%s", signbit(v) ? "-" : "", body);
}

/* dragon4_scientific(v, precision, unique=True, min_digits): mantissa digits after the point
 * into *frac, e.g. "1.5e-05". exp_digits: at least this many exponent digits (>= 2). */
static void format_scientific(double v, dalic_dtype_t t, int precision, int min_digits, int exp_digits,
                       char *out, size_t n)
{
	char d[40], buf[48];
	int e;
	format_shortest(v, t, d, &e);
	int len = (int)strlen(d);
	if (len - 1 > precision || len - 1 < min_digits) {
		/* rounded, or extended with the exact value's next digits (not zeros) */
		snprintf(buf, sizeof buf, "%.*e", len - 1 > precision ? precision : min_digits,
		         fabs(v));
		format_split_e(buf, d, &e);
		len = (int)strlen(d);
	}
	char mant[64];
	int w = 0;
	mant[w++] = d[0];
	mant[w++] = '.';
	for (int i = 1; i < len; i++)
		mant[w++] = d[i];
	for (int i = len - 1; i < min_digits; i++)
		mant[w++] = '0';
	mant[w] = 0;
	snprintf(out, n, "%s%se%c%0*d", signbit(v) ? "-" : "", mant, e < 0 ? '-' : '+',
	         exp_digits < 2   ? 2
	         : exp_digits > 5 ? 5
	                          : exp_digits,
	         abs(e));
}

/* ---- formatters ---- */

enum { K_BOOL, K_INT, K_U64, K_FLOAT };

typedef struct fmt {
	int kind;
	int width;     /* ints: padded width */
	bool bool_pad; /* " True" next to "False" */
	bool exp;      /* floats */
	int pad_left, pad_right, precision, exp_size;
} fmt_t;

typedef void (*visit_fn)(void *ctx, const arr_t *a, int64_t flat);

/* Visits the elements that are shown: all, or `edge` at both ends of every long axis. */
static void format_visit(const arr_t *a, int axis, int64_t base, bool summarize, int edge, visit_fn fn,
                  void *ctx)
{
	if (axis == a->v->ndim) {
		fn(ctx, a, base);
		return;
	}
	int64_t len = a->v->shape[axis];
	bool cut = summarize && len > 2 * edge;
	for (int64_t i = 0; i < len; i++) {
		if (cut && i == edge)
			i = len - edge;
		format_visit(a, axis + 1, base + i * a->stride[axis], summarize, edge, fn, ctx);
	}
}

typedef struct scan {
	int64_t imin, imax;
	uint64_t umax;
	bool any_true, any_finite, any_nonfinite, neginf;
	double max_nz, min_nz; /* over non-zero finite magnitudes */
	int pass;              /* 0: ranges, 1: float widths */
	fmt_t *f;
	dalic_dtype_t t;
} scan_t;

static void format_scan_elem(void *ctx, const arr_t *a, int64_t flat)
{
	scan_t *s = ctx;
	switch (s->f->kind) {
	case K_BOOL:
		s->any_true |= format_load_i(a, flat) != 0;
		return;
	case K_U64: {
		uint64_t u = format_load_u64(a, flat);
		s->umax = u > s->umax ? u : s->umax;
		return;
	}
	case K_INT: {
		int64_t v = format_load_i(a, flat);
		s->imin = v < s->imin ? v : s->imin;
		s->imax = v > s->imax ? v : s->imax;
		return;
	}
	}
	double v = format_load_f(a, flat);
	if (!isfinite(v)) {
		s->any_nonfinite = true;
		s->neginf |= isinf(v) && v < 0;
		return;
	}
	if (s->pass == 0) {
		s->any_finite = true;
		double m = fabs(v);
		if (m != 0) {
			s->max_nz = m > s->max_nz ? m : s->max_nz;
			s->min_nz = m < s->min_nz ? m : s->min_nz;
		}
		return;
	}
	char buf[96];
	if (s->f->exp)
		format_scientific(v, s->t, 8, 0, 0, buf, sizeof buf);
	else
		format_positional(v, s->t, buf, sizeof buf);
	const char *dot = strchr(buf, '.');
	const char *e = strchr(buf, 'e');
	int int_len = (int)(dot - buf);
	int frac_len = (int)((e ? e : buf + strlen(buf)) - dot - 1);
	s->f->pad_left = int_len > s->f->pad_left ? int_len : s->f->pad_left;
	if (s->f->exp) {
		int exp_len = (int)strlen(e + 1);
		s->f->exp_size = exp_len - 1 > s->f->exp_size ? exp_len - 1 : s->f->exp_size;
		s->f->precision = frac_len > s->f->precision ? frac_len : s->f->precision;
	} else {
		s->f->pad_right = frac_len > s->f->pad_right ? frac_len : s->f->pad_right;
	}
}

static int format_digits_of(int64_t v)
{
	char buf[32];
	return snprintf(buf, sizeof buf, "%lld", (long long)v);
}

static void format_make_format(const arr_t *a, bool summarize, int edge, fmt_t *f)
{
	dalic_dtype_t t = a->v->dtype;
	memset(f, 0, sizeof *f);
	f->kind = t == DALIC_BOOL           ? K_BOOL
	          : t == DALIC_UINT64       ? K_U64
	          : dalic_dtype_is_float(t) ? K_FLOAT
	                                    : K_INT;
	scan_t s = {.imin = INT64_MAX, .imax = INT64_MIN, .min_nz = INFINITY, .f = f, .t = t};
	format_visit(a, 0, 0, summarize, edge, format_scan_elem, &s);
	if (f->kind == K_BOOL) {
		f->bool_pad = s.any_true && a->v->ndim > 0;
		return;
	}
	if (f->kind == K_U64) {
		char buf[32];
		f->width = snprintf(buf, sizeof buf, "%llu", (unsigned long long)s.umax);
		return;
	}
	if (f->kind == K_INT) {
		int a1 = format_digits_of(s.imin), a2 = format_digits_of(s.imax);
		f->width = s.imin > s.imax ? 0 : a1 > a2 ? a1 : a2;
		return;
	}
	if (s.any_finite) {
		f->exp = s.max_nz > 0 &&
		         (s.max_nz >= 1e8 || s.min_nz < 0.0001 || s.max_nz / s.min_nz > 1000.);
		s.pass = 1;
		format_visit(a, 0, 0, summarize, edge, format_scan_elem, &s);
		if (f->exp)
			f->pad_right = f->exp_size + 2 + f->precision;
	}
	if (s.any_nonfinite) {
		int offset = f->pad_right + 1;
		int need = 3 + (s.neginf ? 1 : 0) - offset;
		f->pad_left = need > f->pad_left ? need : f->pad_left;
	}
}

static char *format_elem(const arr_t *a, const fmt_t *f, int64_t flat)
{
	dalic_debug_sb_t b = {0};
	char buf[128];
	switch (f->kind) {
	case K_BOOL:
		dalic_debug_sb_add(&b, format_load_i(a, flat) ? (f->bool_pad ? " True" : "True") : "False");
		return dalic_debug_sb_take(&b);
	case K_U64:
		dalic_debug_sb_printf(&b, "%*llu", f->width, (unsigned long long)format_load_u64(a, flat));
		return dalic_debug_sb_take(&b);
	case K_INT:
		dalic_debug_sb_printf(&b, "%*lld", f->width, (long long)format_load_i(a, flat));
		return dalic_debug_sb_take(&b);
	}
	double v = format_load_f(a, flat);
	if (!isfinite(v)) {
		const char *r = isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
		dalic_debug_sb_spaces(&b, f->pad_left + f->pad_right + 1 - (int)strlen(r));
		dalic_debug_sb_add(&b, r);
		return dalic_debug_sb_take(&b);
	}
	if (f->exp)
		format_scientific(v, a->v->dtype, f->precision, f->precision, f->exp_size, buf,
		           sizeof buf);
	else
		format_positional(v, a->v->dtype, buf, sizeof buf);
	const char *dot = strchr(buf, '.');
	int int_len = (int)(dot - buf);
	dalic_debug_sb_spaces(&b, f->pad_left - int_len);
	dalic_debug_sb_add(&b, buf);
	if (!f->exp)
		dalic_debug_sb_spaces(&b, f->pad_right - (int)strlen(dot + 1));
	return dalic_debug_sb_take(&b);
}

/* ---- layout (numpy's _formatArray) ---- */

typedef struct layout {
	const arr_t *a;
	const fmt_t *f;
	bool summarize;
	int edge;
} layout_t;

static void format_rstrip_into(dalic_debug_sb_t *s, const dalic_debug_sb_t *line)
{
	size_t n = line->n;
	while (n > 0 && line->s[n - 1] == ' ')
		n--;
	dalic_debug_sb_addn(s, line->s ? line->s : "", n);
}

static void format_extend_line(dalic_debug_sb_t *s, dalic_debug_sb_t *line, const char *word, int width, int hang)
{
	bool wrap = (int)(line->n + strlen(word)) > width;
	if ((int)line->n <= hang) /* wrapping would not help */
		wrap = false;
	if (wrap) {
		format_rstrip_into(s, line);
		dalic_debug_sb_add(s, "\n");
		line->n = 0;
		dalic_debug_sb_spaces(line, hang);
	}
	dalic_debug_sb_add(line, word);
}

static char *format_recurse(const layout_t *L, int axis, int64_t base, int hang, int width);

/* Index i of the shown items along an axis of length len: leading then trailing ones. */
static int64_t format_shown_index(int64_t i, int64_t leading, int64_t len, int64_t count)
{
	return i < leading ? i : len - (count - i);
}

static char *format_recurse(const layout_t *L, int axis, int64_t base, int hang, int width)
{
	const arr_t *a = L->a;
	int axes_left = a->v->ndim - axis;
	if (axes_left == 0)
		return format_elem(a, L->f, base);
	int64_t len = a->v->shape[axis];
	bool summary = L->summarize && len > 2 * L->edge;
	int64_t leading = summary ? L->edge : 0, trailing = summary ? L->edge : len;
	int64_t count = leading + trailing;
	dalic_debug_sb_t s = {0};
	if (axes_left == 1) {
		int elem_width = width - 1;
		dalic_debug_sb_t line = {0};
		dalic_debug_sb_spaces(&line, hang);
		for (int64_t i = 0; i < count; i++) {
			if (summary && i == leading) {
				format_extend_line(&s, &line, "...", elem_width, hang);
				dalic_debug_sb_add(&line, " ");
			}
			int64_t idx = format_shown_index(i, leading, len, count);
			char *w =
			    format_recurse(L, axis + 1, base + idx * a->stride[axis], hang + 1, width - 1);
			format_extend_line(&s, &line, w ? w : "", elem_width, hang);
			free(w);
			if (i + 1 < count)
				dalic_debug_sb_add(&line, " ");
		}
		dalic_debug_sb_addn(&s, line.s ? line.s : "", line.n);
		free(line.s);
	} else {
		for (int64_t i = 0; i < count; i++) {
			if (summary && i == leading) {
				dalic_debug_sb_spaces(&s, hang);
				dalic_debug_sb_add(&s, "...");
				for (int k = 0; k < axes_left - 1; k++)
					dalic_debug_sb_add(&s, "\n");
			}
			int64_t idx = format_shown_index(i, leading, len, count);
			char *nested =
			    format_recurse(L, axis + 1, base + idx * a->stride[axis], hang + 1, width - 1);
			dalic_debug_sb_spaces(&s, hang);
			dalic_debug_sb_add(&s, nested ? nested : "");
			free(nested);
			for (int k = 0; i + 1 < count && k < axes_left - 1; k++)
				dalic_debug_sb_add(&s, "\n");
		}
	}
	/* drop the first line's hanging indent and wrap in brackets */
	dalic_debug_sb_t r = {0};
	dalic_debug_sb_add(&r, "[");
	if (s.n > (size_t)hang)
		dalic_debug_sb_addn(&r, s.s + hang, s.n - (size_t)hang);
	dalic_debug_sb_add(&r, "]");
	free(s.s);
	return dalic_debug_sb_take(&r);
}

int dalic_debug_array2string(dalic_debug_sb_t *out, const dalic_debug_np_view_t *v, int prefix_len, int edgeitems)
{
	if (!dalic_dtype_is_numeric(v->dtype))
		return dalic_fail(DALIC_EUNSUPPORTED, "cannot print %s data",
		                  dalic_dtype_name(v->dtype));
	arr_t a = {.v = v};
	int64_t size = 1;
	for (int d = v->ndim - 1; d >= 0; d--) {
		a.stride[d] = size;
		size *= v->shape[d];
	}
	if (size == 0) {
		dalic_debug_sb_add(out, "[]");
		return DALIC_OK;
	}
	layout_t L = {.a = &a, .summarize = size > DALIC_NP_THRESHOLD, .edge = edgeitems};
	fmt_t f;
	format_make_format(&a, L.summarize, edgeitems, &f);
	L.f = &f;
	char *s = format_recurse(&L, 0, 0, 1 + prefix_len, DALIC_NP_LINEWIDTH);
	if (!s)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	dalic_debug_sb_add(out, s);
	free(s);
	return out->oom ? dalic_fail(DALIC_ENOMEM, "out of memory") : DALIC_OK;
}
