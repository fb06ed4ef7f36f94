/*
 * Python string formatting (see pyfmt.h): the format specification mini-language
 * (f-strings, str.format, format()) with fill / align / sign / # / 0 / width / grouping /
 * precision and the s d x X o b c n e E f F g G % types, and str.format's field resolution.
 * printf-style `%` is in pyfmt_percent.c. Output is built in growable buffers: nothing is
 * cut; widths and precisions past CPython's bounds are its errors, past dalic's limits a
 * limit error (a 1e9-digit float would take seconds and a gigabyte).
 */
#include "frontend/script/py/pyfmt.h"

#include "frontend/script/py/pydict.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared by format() and % --------------------------------------------------------- */

int dalic_pyfmt_digits(pyinterp_t *I, const pynode_t *at, const char **s, const char *end,
                       const char *what, int64_t *out)
{
	int64_t v = 0;
	const char *p = *s;
	for (; p < end && isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
			return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: %s", what);
	*s = p;
	*out = v;
	return DALIC_OK;
}

int dalic_pyfmt_check(pyinterp_t *I, const pynode_t *at, const pyfmt_spec_t *sp, bool digits)
{
	if (sp->precision > INT32_MAX && digits)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: precision too big");
	if (sp->width > PYFMT_MAX_WIDTH)
		return dalic_pyeval_limit(I, at,
		                          "MemoryError: format width %lld (dalic's limit: %d)",
		                          (long long)sp->width, PYFMT_MAX_WIDTH);
	if (digits && sp->precision > PYFMT_MAX_PRECISION)
		return dalic_pyeval_limit(I, at,
		                          "MemoryError: format precision %lld (dalic's limit: %d)",
		                          (long long)sp->precision, PYFMT_MAX_PRECISION);
	return DALIC_OK;
}

void dalic_pyfmt_pad(pybuf_t *out, const pyfmt_spec_t *sp, const char *body, size_t n, size_t lead,
                     bool numeric)
{
	size_t len = dalic_pybuf_utf8_chars(body, n);
	char align = sp->align ? sp->align : (sp->zero && numeric) ? '=' : numeric ? '>' : '<';
	char fill = sp->align ? sp->fill : (sp->zero && numeric) ? '0' : sp->fill;
	size_t total = sp->width > (int64_t)len ? (size_t)sp->width - len : 0;
	if (align == '=') {
		/* padding goes between the sign / base prefix and the digits */
		dalic_pybuf_put(out, body, lead);
		dalic_pybuf_fill(out, fill, total);
		dalic_pybuf_put(out, body + lead, n - lead);
		return;
	}
	size_t left = align == '>' ? total : align == '^' ? total / 2 : 0;
	dalic_pybuf_fill(out, fill, left);
	dalic_pybuf_put(out, body, n);
	dalic_pybuf_fill(out, fill, total - left);
}

/* Inserts ',' (or '_') every three digits into the integer part starting at body->s[from]. */
static void pyfmt_group(pybuf_t *b, size_t from, char sep)
{
	size_t end = from;
	while (end < b->n && isdigit((unsigned char)b->s[end]))
		end++;
	size_t ndig = end - from, nsep = ndig ? (ndig - 1) / 3 : 0;
	if (!nsep || b->oom)
		return;
	size_t tail = b->n - end;
	dalic_pybuf_fill(b, ' ', nsep); /* room */
	if (b->oom)
		return;
	memmove(b->s + end + nsep, b->s + end, tail);
	char *src = b->s + end - 1, *dst = b->s + end + nsep - 1;
	for (size_t k = 0; src >= b->s + from; k++) {
		if (k && k % 3 == 0)
			*dst-- = sep;
		*dst-- = *src--;
	}
}

/* ---- the format specification mini-language ------------------------------------------- */

/* Groups the digits of a number's text b, pads it into out and frees b. */
static int pyfmt_number_done(pyinterp_t *I, const pynode_t *at, const pyfmt_spec_t *sp, pybuf_t *b,
                             size_t lead, pybuf_t *out)
{
	if (sp->comma)
		pyfmt_group(b, lead, (char)sp->comma);
	if (!b->oom)
		dalic_pyfmt_pad(out, sp, b->s, b->n, lead, true);
	bool oom = b->oom;
	dalic_pybuf_free(b);
	return oom ? dalic_pyeval_oom(I, at) : DALIC_OK;
}

static int pyfmt_parse_spec(pyinterp_t *I, const pynode_t *at, const char *s, pyfmt_spec_t *sp)
{
	static const char *too_many = "Too many decimal digits in format string";
	const char *end = s + strlen(s);
	memset(sp, 0, sizeof *sp);
	sp->fill = ' ';
	sp->precision = -1;
	if (s[0] && s[1] && strchr("<>^=", s[1])) {
		sp->fill = s[0];
		sp->align = s[1];
		s += 2;
	} else if (s[0] && strchr("<>^=", s[0])) {
		sp->align = *s++;
	}
	if (*s && strchr("+- ", *s))
		sp->sign = *s++;
	if (*s == '#') {
		sp->alt = true;
		s++;
	}
	if (*s == '0') {
		sp->zero = true;
		s++;
	}
	DALIC_TRY(dalic_pyfmt_digits(I, at, &s, end, too_many, &sp->width));
	if (*s == ',' || *s == '_')
		sp->comma = *s++;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: Format specifier missing precision");
		DALIC_TRY(dalic_pyfmt_digits(I, at, &s, end, too_many, &sp->precision));
	}
	if (*s)
		sp->type = *s++;
	if (*s)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: Invalid format specifier");
	return DALIC_OK;
}

/* Integer types: d x X o b c n (and none). */
static int pyfmt_spec_int(pyinterp_t *I, const pynode_t *at, int64_t x, const pyfmt_spec_t *sp,
                          pybuf_t *out)
{
	if (sp->precision >= 0)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: Precision not allowed in integer format specifier");
	pybuf_t b = {0};
	uint64_t ux = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	dalic_pybuf_puts(&b, x < 0 ? "-" : sp->sign == '+' ? "+" : sp->sign == ' ' ? " " : "");
	if (sp->type == 'c') {
		if (x < 0 || x > 0x10FFFF) {
			dalic_pybuf_free(&b);
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "OverflowError: %%c arg not in range(0x110000)");
		}
		char ch[4];
		b.n = 0; /* a character has no sign */
		dalic_pybuf_put(&b, ch, (size_t)dalic_pybuf_utf8_encode(ch, (uint32_t)x));
		dalic_pyfmt_pad(out, sp, b.s, b.n, 0, false);
		dalic_pybuf_free(&b);
		return DALIC_OK;
	}
	int base = sp->type == 'x' || sp->type == 'X' ? 16
	           : sp->type == 'o'                  ? 8
	           : sp->type == 'b'                  ? 2
	                                              : 10;
	if (sp->alt && base != 10) {
		char p[3] = {'0', sp->type, 0};
		dalic_pybuf_puts(&b, p);
	}
	size_t lead = b.n;
	char digits[72];
	int k = 0;
	const char *set = sp->type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	do {
		digits[k++] = set[ux % (unsigned)base];
		ux /= (unsigned)base;
	} while (ux);
	while (k)
		dalic_pybuf_put(&b, &digits[--k], 1);
	return pyfmt_number_done(I, at, sp, &b, lead, out);
}

/* Float types: f F e E g G % (and none). */
static int pyfmt_spec_float(pyinterp_t *I, const pynode_t *at, double f, const pyfmt_spec_t *sp,
                            pybuf_t *out)
{
	DALIC_TRY(dalic_pyfmt_check(I, at, sp, true));
	int prec = sp->precision < 0 ? 6 : (int)sp->precision;
	char t = sp->type;
	pybuf_t b = {0};
	if ((sp->sign == '+' || sp->sign == ' ') && !signbit(f))
		dalic_pybuf_put(&b, &sp->sign, 1);
	size_t lead = b.n;
	if (t == '%') {
		dalic_pybuf_printf(&b, "%.*f%%", prec, f * 100);
	} else if (t == 'f' || t == 'F' || t == 'e' || t == 'E') {
		char fmt[8] = {'%', '.', '*', t, 0};
		dalic_pybuf_printf(&b, fmt, prec, f);
	} else if (t == 'g' || t == 'G') {
		char fmt[8] = {'%', '.', '*', t, 0};
		dalic_pybuf_printf(&b, fmt, prec ? prec : 1, f);
	} else if (sp->precision >= 0) {
		/* no type with a precision: general format that keeps a decimal point */
		size_t from = b.n;
		dalic_pybuf_printf(&b, "%.*g", prec ? prec : 1, f);
		if (!b.oom && !strpbrk(b.s + from, ".eni"))
			dalic_pybuf_puts(&b, ".0");
	} else {
		char tmp[64];
		dalic_pyval_float_repr(tmp, sizeof tmp, f);
		dalic_pybuf_puts(&b, tmp);
	}
	if (b.n > lead && b.s[lead] == '-')
		lead++;
	return pyfmt_number_done(I, at, sp, &b, lead, out);
}

int dalic_pyfmt_spec(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *s, pybuf_t *out)
{
	if (v->kind == PV_INSTANCE) /* a user class's __str__ */
		DALIC_TRY(dalic_pyeval_str(I, at, v, false, &v));
	if (!*s) {
		dalic_pyval_format(out, v, false);
		return DALIC_OK;
	}
	pyfmt_spec_t sp;
	DALIC_TRY(pyfmt_parse_spec(I, at, s, &sp));
	DALIC_TRY(dalic_pyfmt_check(I, at, &sp, false));
	if (v->kind == PV_HOST && v->host.type->scalar && v->host.type->scalar(v))
		v = v->host.type->scalar(v);
	bool is_int = v->kind == PV_INT || v->kind == PV_BOOL;
	if (is_int && (!sp.type || strchr("dxXobcn", sp.type))) {
		return pyfmt_spec_int(I, at, v->kind == PV_BOOL ? v->b : v->i, &sp, out);
	}
	if ((is_int || v->kind == PV_FLOAT) && (!sp.type || strchr("fFeEgG%", sp.type)))
		return pyfmt_spec_float(I, at, dalic_pyval_as_double(v), &sp, out);
	if (sp.type && sp.type != 's')
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: Unknown format code '%c' for object of type '%s'", sp.type,
		    dalic_pyval_type_name(v));
	pybuf_t tmp = {0};
	dalic_pyval_format(&tmp, v, false);
	if (tmp.oom) {
		dalic_pybuf_free(&tmp);
		return dalic_pyeval_oom(I, at);
	}
	size_t n = tmp.n;
	if (sp.precision >= 0)
		n = dalic_pybuf_utf8_prefix(tmp.s ? tmp.s : "", tmp.n, sp.precision);
	dalic_pyfmt_pad(out, &sp, tmp.s ? tmp.s : "", n, 0, false);
	dalic_pybuf_free(&tmp);
	return DALIC_OK;
}

/* ---- str.format ----------------------------------------------------------------------- */

static int pyfmt_field_value(pyinterp_t *I, const pynode_t *at, const char *name, size_t n,
                             const pyargs_t *args, int *auto_idx, pyval_t **out)
{
	size_t k = 0;
	while (k < n && name[k] != '.' && name[k] != '[')
		k++;
	pyval_t *v = NULL;
	if (k == 0) {
		if (*auto_idx < 0)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ValueError: cannot switch from manual field specification to "
			    "automatic field numbering");
		int i = (*auto_idx)++;
		if (i >= args->npos)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "IndexError: Replacement index %d out of range for positional "
			    "args tuple",
			    i);
		v = args->pos[i];
	} else if (isdigit((unsigned char)name[0])) {
		int i = atoi(name);
		*auto_idx = -1;
		if (i >= args->npos)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "IndexError: Replacement index %d out of range for positional "
			    "args tuple",
			    i);
		v = args->pos[i];
	} else {
		char *key = dalic_pyarena_strndup(I->a, name, k);
		if (!key)
			return dalic_pyeval_oom(I, at);
		v = dalic_pyeval_kwarg(args, key);
		if (!v)
			return dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: '%s'", key);
	}
	while (k < n) {
		if (name[k] == '.') {
			size_t e = ++k;
			while (e < n && name[e] != '.' && name[e] != '[')
				e++;
			char *attr = dalic_pyarena_strndup(I->a, name + k, e - k);
			if (!attr)
				return dalic_pyeval_oom(I, at);
			DALIC_TRY(dalic_pyeval_getattr(I, at, v, attr, &v));
			k = e;
		} else {
			size_t e = ++k;
			while (e < n && name[e] != ']')
				e++;
			char *idx = dalic_pyarena_strndup(I->a, name + k, e - k);
			if (!idx)
				return dalic_pyeval_oom(I, at);
			pyval_t *key = isdigit((unsigned char)idx[0])
			                   ? dalic_pyval_int(I->a, atoll(idx))
			                   : dalic_pyval_cstr(I->a, idx);
			if (!key)
				return dalic_pyeval_oom(I, at);
			DALIC_TRY(dalic_pyeval_getitem(I, at, v, key, &v));
			k = e + 1;
		}
	}
	*out = v;
	return DALIC_OK;
}

static int pyfmt_format_into(pyinterp_t *I, const pynode_t *at, const char *s, size_t n,
                             const pyargs_t *args, int *auto_idx, pybuf_t *out, int depth)
{
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if ((c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) {
			dalic_pybuf_put(out, &c, 1);
			i += 2;
			continue;
		}
		if (c == '}')
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ValueError: Single '}' encountered in format string");
		if (c != '{') {
			dalic_pybuf_put(out, &c, 1);
			i++;
			continue;
		}
		size_t j = i + 1;
		int nest = 0;
		while (j < n && (s[j] != '}' || nest)) {
			nest += s[j] == '{';
			nest -= s[j] == '}' && nest;
			j++;
		}
		if (j >= n)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: expected '}' before end of string");
		const char *f = s + i + 1;
		size_t fl = j - i - 1, name_end = 0;
		while (name_end < fl && f[name_end] != '!' && f[name_end] != ':')
			name_end++;
		pyval_t *v;
		DALIC_TRY(pyfmt_field_value(I, at, f, name_end, args, auto_idx, &v));
		size_t k = name_end;
		if (k < fl && f[k] == '!') {
			if (k + 1 >= fl)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "ValueError: end of string while looking for conversion "
				    "specifier");
			DALIC_TRY(dalic_pyeval_str(I, at, v, f[k + 1] != 's', &v));
			k += 2;
		}
		pybuf_t spec = {0};
		int rc = DALIC_OK;
		if (k < fl && f[k] == ':') {
			if (depth > 1)
				rc =
				    dalic_pyeval_error(I, at, DALIC_EINVAL,
				                       "ValueError: Max string recursion exceeded");
			else
				rc = pyfmt_format_into(I, at, f + k + 1, fl - k - 1, args, auto_idx,
				                       &spec, depth + 1);
		}
		if (!rc)
			rc = dalic_pyfmt_spec(I, at, v, spec.s ? spec.s : "", out);
		dalic_pybuf_free(&spec);
		DALIC_TRY(rc);
		i = j + 1;
	}
	return DALIC_OK;
}

int dalic_pyfmt_str_format(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, const pyargs_t *args,
                           pyval_t **out)
{
	pybuf_t b = {0};
	int auto_idx = 0;
	int rc = pyfmt_format_into(I, at, fmt->str.s, fmt->str.len, args, &auto_idx, &b, 0);
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	if (!rc && !*out)
		rc = dalic_pyeval_oom(I, at);
	return rc;
}
