/*
 * printf-style `%` formatting as Python does it: %s %r %a %c %d %i %u %x %X %o %e %E %f %F
 * %g %G %%, flags - + space # 0, widths and precisions (also `*`), %(name)s with a mapping.
 * Numbers are laid out here (Python's "%#o" is "0o10", not C's "010"); only the digits of
 * floats come from printf. Nothing is cut; bounds as in pyfmt.c.
 */
#include "frontend/script/py/pyfmt.h"

#include "frontend/script/py/pydict.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* One conversion's flags, width and precision; `*` takes them from the arguments. */
static int pyfmt_percent_spec(pyinterp_t *I, const pynode_t *at, const char **s, const char *end,
                              pyval_t **items, int n, int *next, pyfmt_spec_t *sp)
{
	memset(sp, 0, sizeof *sp);
	sp->fill = ' ';
	sp->precision = -1;
	const char *p = *s;
	for (; p < end && strchr("-+ #0", *p); p++) {
		if (*p == '-')
			sp->align = '<';
		else if (*p == '+' || (*p == ' ' && sp->sign != '+'))
			sp->sign = *p;
		else if (*p == '#')
			sp->alt = true;
		else if (*p == '0')
			sp->zero = true;
	}
	for (int part = 0; part < 2; part++) {
		int64_t *dst = part ? &sp->precision : &sp->width;
		if (part) {
			if (p >= end || *p != '.')
				break;
			p++;
			*dst = 0;
		}
		if (p < end && *p == '*') {
			p++;
			if (*next >= n)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: not enough arguments for format string");
			pyval_t *v = items[(*next)++];
			if (v->kind != PV_INT && v->kind != PV_BOOL)
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "TypeError: * wants int");
			*dst = v->kind == PV_BOOL ? v->b : v->i;
			if (*dst <
			    0) { /* a negative * width left-aligns, a negative precision is 0 */
				if (!part)
					sp->align = '<';
				*dst = part ? 0 : -*dst;
			}
		} else {
			DALIC_TRY(dalic_pyfmt_digits(
			    I, at, &p, end, part ? "precision too big" : "width too big", dst));
		}
	}
	while (p < end && strchr("hlL", *p)) /* C length modifiers, accepted and ignored */
		p++;
	if (p >= end)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: incomplete format");
	sp->type = *p++;
	*s = p;
	if (sp->precision > INT32_MAX)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: precision too big");
	if (sp->align == '<')
		sp->zero = false;
	return dalic_pyfmt_check(I, at, sp, strchr("eEfFgG", sp->type) != NULL);
}

/* %d %i %u %x %X %o %c of an integer: sign, base prefix, digits zero-extended to the
 * precision, then the width. */
static void pyfmt_percent_int(pybuf_t *out, pyfmt_spec_t *sp, int64_t x)
{
	pybuf_t b = {0};
	uint64_t ux = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	if (x < 0 || sp->sign)
		dalic_pybuf_put(&b, x < 0 ? "-" : &sp->sign, 1);
	char t = sp->type;
	int base = t == 'x' || t == 'X' ? 16 : t == 'o' ? 8 : 10;
	if (sp->alt && base != 10) {
		char prefix[2] = {'0', t};
		dalic_pybuf_put(&b, prefix, 2);
	}
	size_t lead = b.n;
	char digits[72];
	int k = 0;
	const char *set = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	do {
		digits[k++] = set[ux % (unsigned)base];
		ux /= (unsigned)base;
	} while (ux);
	if (sp->precision > k)
		dalic_pybuf_fill(&b, '0', (size_t)(sp->precision - k));
	while (k)
		dalic_pybuf_put(&b, &digits[--k], 1);
	sp->fill = sp->zero ? '0' : ' ';
	sp->align = sp->align ? sp->align : sp->zero ? '=' : '>';
	dalic_pyfmt_pad(out, sp, b.s ? b.s : "", b.n, lead, true);
	out->oom |= b.oom;
	dalic_pybuf_free(&b);
}

/* %e %f %g ...: printf's digits with Python's flags, the width applied here. */
static void pyfmt_percent_float(pybuf_t *out, pyfmt_spec_t *sp, double f)
{
	char fmt[8] = {'%'}, *q = fmt + 1;
	if (sp->sign)
		*q++ = sp->sign;
	if (sp->alt)
		*q++ = '#';
	*q++ = '.';
	*q++ = '*';
	*q = sp->type;
	pybuf_t b = {0};
	dalic_pybuf_printf(&b, fmt, (int)(sp->precision < 0 ? 6 : sp->precision), f);
	size_t lead = b.n && strchr("+- ", b.s[0]) ? 1 : 0;
	sp->fill = sp->zero ? '0' : ' ';
	sp->align = sp->align ? sp->align : sp->zero ? '=' : '>';
	dalic_pyfmt_pad(out, sp, b.s ? b.s : "", b.n, lead, true);
	out->oom |= b.oom;
	dalic_pybuf_free(&b);
}

/* One conversion of v appended to out. */
static int pyfmt_percent_one(pyinterp_t *I, const pynode_t *at, pyfmt_spec_t *sp, pyval_t *v,
                             pybuf_t *out)
{
	if (v->kind == PV_HOST && v->host.type->scalar && v->host.type->scalar(v))
		v = v->host.type->scalar(v);
	char t = sp->type;
	if ((t == 's' || t == 'r') && v->kind == PV_INSTANCE) /* __str__ / __repr__ */
		DALIC_TRY(dalic_pyeval_str(I, at, v, t == 'r', &v));
	if (t == 's' || t == 'r' || t == 'a') {
		pybuf_t s = {0};
		dalic_pyval_format(&s, v, t != 's');
		size_t n = s.n;
		if (sp->precision >= 0)
			n = dalic_pybuf_utf8_prefix(s.s ? s.s : "", s.n, sp->precision);
		sp->align = sp->align ? sp->align : '>';
		dalic_pyfmt_pad(out, sp, s.s ? s.s : "", n, 0, false);
		out->oom |= s.oom;
		dalic_pybuf_free(&s);
		return DALIC_OK;
	}
	if (t == 'c') {
		char ch[4];
		const char *c = ch;
		size_t n;
		int64_t x = v->kind == PV_BOOL ? v->b : v->kind == PV_INT ? v->i : -1;
		if (v->kind == PV_STR && v->str.len &&
		    dalic_pybuf_utf8_prefix(v->str.s, v->str.len, 1) == v->str.len) {
			c = v->str.s;
			n = v->str.len;
		} else if (v->kind == PV_INT || v->kind == PV_BOOL) {
			if (x < 0 || x > 0x10FFFF)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "OverflowError: %%c arg not in range(0x110000)");
			n = (size_t)dalic_pybuf_utf8_encode(ch, (uint32_t)x);
		} else {
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %%c requires an int or a unicode character, "
			    "not %s",
			    dalic_pyval_type_name(v));
		}
		sp->align = sp->align ? sp->align : '>';
		dalic_pyfmt_pad(out, sp, c, n, 0, false);
		return DALIC_OK;
	}
	bool intlike = v->kind == PV_INT || v->kind == PV_BOOL;
	if (strchr("diu", t) && (intlike || v->kind == PV_FLOAT)) {
		if (v->kind == PV_FLOAT && !(fabs(v->f) < 9.2e18))
			return dalic_pyeval_limit(
			    I, at, "integer overflow (dalic supports 64-bit integers)");
		pyfmt_percent_int(out, sp,
		                  v->kind == PV_FLOAT  ? (int64_t)v->f
		                  : v->kind == PV_BOOL ? v->b
		                                       : v->i);
		return DALIC_OK;
	}
	if (strchr("xXo", t) && intlike) {
		pyfmt_percent_int(out, sp, v->kind == PV_BOOL ? v->b : v->i);
		return DALIC_OK;
	}
	if (strchr("eEfFgG", t) && dalic_pyval_is_number(v)) {
		pyfmt_percent_float(out, sp, dalic_pyval_as_double(v));
		return DALIC_OK;
	}
	if (!strchr("diuxXoeEfFgG", t))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: unsupported format character '%c' (0x%x)", t,
		                          (unsigned char)t);
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: %%%c format: a number is required, not %s", t,
	                          dalic_pyval_type_name(v));
}

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
		const char *pct = memchr(s, '%', (size_t)(end - s));
		if (!pct) {
			dalic_pybuf_put(&b, s, (size_t)(end - s));
			break;
		}
		dalic_pybuf_put(&b, s, (size_t)(pct - s));
		s = pct + 1;
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
			pyval_t *key = dalic_pyval_str(I->a, s + 1, (size_t)(close - s - 1));
			if (!key) {
				rc = dalic_pyeval_oom(I, at);
				break;
			}
			v = dalic_pydict_get(argv->dict, key);
			if (!v) {
				rc = dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: '%s'",
				                        key->str.s);
				break;
			}
			s = close + 1;
		}
		pyfmt_spec_t sp;
		rc = pyfmt_percent_spec(I, at, &s, end, items, n, &next, &sp);
		if (rc)
			break;
		if (!v) {
			if (next >= n) {
				rc = dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: not enough arguments for format string");
				break;
			}
			v = items[next++];
		}
		rc = pyfmt_percent_one(I, at, &sp, v, &b);
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
