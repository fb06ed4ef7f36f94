/*
 * Python string formatting used by pipeline scripts and their print() calls: the format
 * specification mini-language (f-strings, str.format, format()), str.format field
 * resolution, and printf-style `%` formatting. Covers fill / align / sign / width /
 * grouping / precision and the s d f e g % x o b types.
 */
#include "frontend/script/py/pyfmt.h"

#include "frontend/script/py/pydict.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct spec {
	char fill, align, sign, type;
	bool alt, zero, comma;
	int width, precision;
} spec_t;

static int pyfmt_parse_spec(pyinterp_t *I, const pynode_t *at, const char *s, spec_t *sp)
{
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
	while (isdigit((unsigned char)*s) && sp->width < 100000)
		sp->width = sp->width * 10 + (*s++ - '0');
	if (*s == ',' || *s == '_') {
		sp->comma = true;
		s++;
	}
	if (*s == '.') {
		s++;
		sp->precision = 0;
		if (!isdigit((unsigned char)*s))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: Format specifier missing precision");
		while (isdigit((unsigned char)*s) && sp->precision < 1000)
			sp->precision = sp->precision * 10 + (*s++ - '0');
	}
	if (*s)
		sp->type = *s++;
	if (*s)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: Invalid format specifier");
	return DALIC_OK;
}

static void pyfmt_group_thousands(char *digits, size_t cap)
{
	/* inserts ',' into the integer part of a plain decimal number */
	char *start = digits + (digits[0] == '-' || digits[0] == '+' || digits[0] == ' ');
	char *end = start;
	while (isdigit((unsigned char)*end))
		end++;
	int n = (int)(end - start), commas = (n - 1) / 3;
	size_t len = strlen(digits);
	if (commas <= 0 || len + (size_t)commas + 1 > cap)
		return;
	memmove(end + commas, end, strlen(end) + 1);
	char *src = end - 1, *dst = end + commas - 1;
	for (int k = 0; src >= start; k++) {
		if (k && k % 3 == 0)
			*dst-- = ',';
		*dst-- = *src--;
	}
}

static void pyfmt_pad(pybuf_t *out, const spec_t *sp, const char *body, bool numeric)
{
	size_t len = 0;
	for (const char *p = body; *p; p++)
		len += ((unsigned char)*p & 0xC0) != 0x80;
	char align = sp->align ? sp->align : (sp->zero && numeric) ? '=' : numeric ? '>' : '<';
	char fill = sp->align ? sp->fill : (sp->zero && numeric) ? '0' : sp->fill;
	int total = sp->width > (int)len ? sp->width - (int)len : 0;
	int left = align == '>' ? total : align == '^' ? total / 2 : 0;
	int right = total - left;
	if (align == '=') {
		left = right = 0;
		if (*body == '-' || *body == '+' || *body == ' ')
			dalic_pybuf_put(out, body++, 1);
		for (int i = 0; i < total; i++)
			dalic_pybuf_put(out, &fill, 1);
		dalic_pybuf_puts(out, body);
		return;
	}
	for (int i = 0; i < left; i++)
		dalic_pybuf_put(out, &fill, 1);
	dalic_pybuf_puts(out, body);
	for (int i = 0; i < right; i++)
		dalic_pybuf_put(out, &fill, 1);
}

static void pyfmt_format_float(char *buf, size_t n, double f, const spec_t *sp)
{
	int prec = sp->precision < 0 ? 6 : sp->precision;
	char t = sp->type;
	if (t == '%') {
		snprintf(buf, n, "%.*f%%", prec, f * 100);
	} else if (t == 'f' || t == 'F' || t == 'e' || t == 'E') {
		char fmt[8] = {'%', '.', '*', t, 0};
		snprintf(buf, n, fmt, prec, f);
	} else if (t == 'g' || t == 'G') {
		char fmt[8] = {'%', '.', '*', t, 0};
		snprintf(buf, n, fmt, prec ? prec : 1, f);
	} else if (sp->precision >= 0) {
		/* no type with a precision: general format that keeps a decimal point */
		snprintf(buf, n, "%.*g", prec ? prec : 1, f);
		if (!strpbrk(buf, ".eni") && strlen(buf) + 2 < n)
			strcat(buf, ".0");
	} else {
		dalic_pyval_float_repr(buf, n, f);
	}
	if ((sp->sign == '+' || sp->sign == ' ') && !signbit(f) && strlen(buf) + 2 < n) {
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = sp->sign;
	}
	if (sp->comma)
		pyfmt_group_thousands(buf, n);
}

int dalic_pyfmt_spec(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *s, pybuf_t *out)
{
	if (!*s) {
		dalic_pyval_format(out, v, false);
		return DALIC_OK;
	}
	spec_t sp;
	DALIC_TRY(pyfmt_parse_spec(I, at, s, &sp));
	char buf[512];
	if (v->kind == PV_HOST && v->host.type->scalar && v->host.type->scalar(v))
		v = v->host.type->scalar(v);
	bool is_int = v->kind == PV_INT || v->kind == PV_BOOL;
	if (is_int && (!sp.type || strchr("dxXobcn", sp.type))) {
		int64_t x = v->kind == PV_BOOL ? v->b : v->i;
		if (v->kind == PV_BOOL && !sp.type) {
			snprintf(buf, sizeof buf, "%s", x ? "True" : "False");
			pyfmt_pad(out, &sp, buf, false);
			return DALIC_OK;
		}
		uint64_t ux = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
		char digits[80];
		switch (sp.type) {
		case 'x':
			snprintf(digits, sizeof digits, "%s%llx", sp.alt ? "0x" : "",
			         (unsigned long long)ux);
			break;
		case 'X':
			snprintf(digits, sizeof digits, "%s%llX", sp.alt ? "0X" : "",
			         (unsigned long long)ux);
			break;
		case 'o':
			snprintf(digits, sizeof digits, "%s%llo", sp.alt ? "0o" : "",
			         (unsigned long long)ux);
			break;
		case 'b': {
			int k = 0;
			char tmp[70];
			do {
				tmp[k++] = (char)('0' + (ux & 1));
				ux >>= 1;
			} while (ux);
			int d = 0;
			if (sp.alt) {
				digits[d++] = '0';
				digits[d++] = 'b';
			}
			while (k)
				digits[d++] = tmp[--k];
			digits[d] = 0;
			break;
		}
		case 'c':
			snprintf(digits, sizeof digits, "%c", (char)x);
			break;
		default:
			snprintf(digits, sizeof digits, "%llu", (unsigned long long)ux);
		}
		snprintf(buf, sizeof buf, "%s%s",
		         x < 0            ? "-"
		         : sp.sign == '+' ? "+"
		         : sp.sign == ' ' ? " "
		                          : "",
		         digits);
		if (sp.comma)
			pyfmt_group_thousands(buf, sizeof buf);
		pyfmt_pad(out, &sp, buf, true);
		return DALIC_OK;
	}
	if ((is_int || v->kind == PV_FLOAT) && (!sp.type || strchr("fFeEgG%", sp.type))) {
		pyfmt_format_float(buf, sizeof buf, dalic_pyval_as_double(v), &sp);
		pyfmt_pad(out, &sp, buf, true);
		return DALIC_OK;
	}
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
	if (sp.precision >= 0 && tmp.s && (size_t)sp.precision < tmp.n)
		tmp.s[sp.precision] = 0;
	pyfmt_pad(out, &sp, tmp.s ? tmp.s : "", false);
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
		char key[128];
		snprintf(key, sizeof key, "%.*s", (int)k, name);
		v = dalic_pyeval_kwarg(args, key);
		if (!v)
			return dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: '%s'", key);
	}
	while (k < n) {
		if (name[k] == '.') {
			size_t e = ++k;
			while (e < n && name[e] != '.' && name[e] != '[')
				e++;
			char attr[128];
			snprintf(attr, sizeof attr, "%.*s", (int)(e - k), name + k);
			DALIC_TRY(dalic_pyeval_getattr(I, at, v, attr, &v));
			k = e;
		} else {
			size_t e = ++k;
			while (e < n && name[e] != ']')
				e++;
			char idx[128];
			snprintf(idx, sizeof idx, "%.*s", (int)(e - k), name + k);
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

/* ---- printf-style % ------------------------------------------------------------------- */

int dalic_pyfmt_percent(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, pyval_t *argv,
                        pyval_t **out)
{
	pyval_t **items = &argv;
	int n = 1, next = 0;
	if (argv->kind == PV_TUPLE) {
		items = argv->tuple.items;
		n = argv->tuple.n;
	}
	pybuf_t b = {0};
	const char *s = fmt->str.s, *end = s + fmt->str.len;
	int rc = DALIC_OK;
	while (!rc && s < end) {
		if (*s != '%') {
			dalic_pybuf_put(&b, s++, 1);
			continue;
		}
		s++;
		if (s < end && *s == '%') {
			dalic_pybuf_put(&b, s++, 1);
			continue;
		}
		pyval_t *v = NULL;
		if (s < end && *s == '(') {
			const char *close = memchr(s, ')', (size_t)(end - s));
			if (!close || argv->kind != PV_DICT) {
				rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
				                        "TypeError: format requires a mapping");
				break;
			}
			char key[128];
			snprintf(key, sizeof key, "%.*s", (int)(close - s - 1), s + 1);
			v = dalic_pydict_get_str(argv->dict, key);
			if (!v) {
				rc = dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: '%s'", key);
				break;
			}
			s = close + 1;
		}
		char spec[64];
		int k = 0;
		while (s < end && strchr("-+ #0123456789.", *s) && k < 60)
			spec[k++] = *s++;
		if (s >= end) {
			rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
			                        "ValueError: incomplete format");
			break;
		}
		char conv = *s++;
		if (!v) {
			if (next >= n) {
				rc = dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: not enough arguments for format string");
				break;
			}
			v = items[next++];
		}
		if (v->kind == PV_HOST && v->host.type->scalar && v->host.type->scalar(v))
			v = v->host.type->scalar(v);
		char buf[512], f[80];
		if (conv == 's' || conv == 'r' || conv == 'a') {
			pybuf_t t = {0};
			dalic_pyval_format(&t, v, conv != 's');
			snprintf(f, sizeof f, "%%%.*ss", k, spec);
			snprintf(buf, sizeof buf, f, t.s ? t.s : "");
			dalic_pybuf_free(&t);
		} else if (strchr("dixXoc", conv) &&
		           (v->kind == PV_INT || v->kind == PV_BOOL || v->kind == PV_FLOAT)) {
			long long x = v->kind == PV_FLOAT  ? (long long)v->f
			              : v->kind == PV_BOOL ? v->b
			                                   : v->i;
			snprintf(f, sizeof f, "%%%.*sll%c", k, spec, conv == 'i' ? 'd' : conv);
			snprintf(buf, sizeof buf, f, x);
		} else if (strchr("eEfFgG", conv) && dalic_pyval_is_number(v)) {
			snprintf(f, sizeof f, "%%%.*s%c", k, spec, conv);
			snprintf(buf, sizeof buf, f, dalic_pyval_as_double(v));
		} else {
			rc = dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %%%c format: a number is required, not %s", conv,
			    dalic_pyval_type_name(v));
			break;
		}
		dalic_pybuf_puts(&b, buf);
	}
	if (!rc && argv->kind == PV_TUPLE && next < n)
		rc = dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: not all arguments converted during string formatting");
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	if (!rc && !*out)
		rc = dalic_pyeval_oom(I, at);
	return rc;
}
