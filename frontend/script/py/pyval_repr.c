/*
 * Text of values: str() / repr() as Python writes them — the shortest float repr that reads
 * back exactly (exponent outside 1e-4 .. 1e16), quoted strings with Python's quote choice
 * and escapes, containers (self-referencing ones as "[...]"); host values format themselves.
 */
#include "frontend/script/py/pyval.h"

#include "frontend/script/py/pydict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dalic_pyval_float_repr(char *buf, size_t n, double f)
{
	if (isnan(f)) {
		snprintf(buf, n, "nan");
		return;
	}
	if (isinf(f)) {
		snprintf(buf, n, f < 0 ? "-inf" : "inf");
		return;
	}
	char tmp[64];
	int prec = 1;
	for (; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, f);
		if (strtod(tmp, NULL) == f)
			break;
	}
	/* tmp is [-]d[.ddd]e[+-]XX: collect the significant digits and the exponent */
	char digits[32];
	int nd = 0, exp10 = 0;
	bool neg = false;
	const char *p = tmp;
	if (*p == '-') {
		neg = true;
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < 31)
			digits[nd++] = *p;
	if (*p == 'e')
		exp10 = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = 0;
	char out[64];
	int k = 0;
	if (neg)
		out[k++] = '-';
	if (exp10 >= -4 && exp10 < 16) {
		if (exp10 >= 0) {
			for (int i = 0; i <= exp10; i++)
				out[k++] = i < nd ? digits[i] : '0';
			out[k++] = '.';
			if (nd > exp10 + 1)
				for (int i = exp10 + 1; i < nd; i++)
					out[k++] = digits[i];
			else
				out[k++] = '0';
		} else {
			out[k++] = '0';
			out[k++] = '.';
			for (int i = 0; i < -exp10 - 1; i++)
				out[k++] = '0';
			for (int i = 0; i < nd; i++)
				out[k++] = digits[i];
		}
		out[k] = 0;
	} else {
		out[k++] = digits[0];
		if (nd > 1) {
			out[k++] = '.';
			for (int i = 1; i < nd; i++)
				out[k++] = digits[i];
		}
		snprintf(out + k, sizeof out - (size_t)k, "e%c%02d", exp10 < 0 ? '-' : '+',
		         exp10 < 0 ? -exp10 : exp10);
	}
	snprintf(buf, n, "%s", out);
}

static void pyval_str_repr(pybuf_t *b, const char *s, size_t n)
{
	bool has_single = memchr(s, '\'', n) != NULL, has_double = memchr(s, '"', n) != NULL;
	char q = has_single && !has_double ? '"' : '\'';
	dalic_pybuf_put(b, &q, 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i;
		while (run < n && (unsigned char)s[run] >= 0x20 && s[run] != 0x7f &&
		       s[run] != '\\' && s[run] != q)
			run++;
		if (run > i) { /* plain text goes in one piece */
			dalic_pybuf_put(b, s + i, run - i);
			i = run - 1;
			continue;
		}
		if (c == '\\')
			dalic_pybuf_puts(b, "\\\\");
		else if (c == (unsigned char)q)
			dalic_pybuf_printf(b, "\\%c", q);
		else if (c == '\n')
			dalic_pybuf_puts(b, "\\n");
		else if (c == '\r')
			dalic_pybuf_puts(b, "\\r");
		else if (c == '\t')
			dalic_pybuf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			dalic_pybuf_printf(b, "\\x%02x", c);
		else
			dalic_pybuf_put(b, (const char *)&s[i], 1);
	}
	dalic_pybuf_put(b, &q, 1);
}

/* Containers deeper than this print as "..." (self-referencing lists print like Python's
 * "[[...]]" and nothing can exhaust the stack). */
#define MAX_FORMAT_DEPTH 64

static void pyval_format_d(pybuf_t *b, const pyval_t *v, bool repr, int depth);

static void pyval_seq_format(pybuf_t *b, pyval_t *const *items, int n, const char *open,
                             const char *close, bool tuple, int depth)
{
	dalic_pybuf_puts(b, open);
	for (int i = 0; i < n; i++) {
		if (i)
			dalic_pybuf_puts(b, ", ");
		pyval_format_d(b, items[i], true, depth + 1);
	}
	if (tuple && n == 1)
		dalic_pybuf_puts(b, ",");
	dalic_pybuf_puts(b, close);
}

void dalic_pyval_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	pyval_format_d(b, v, repr, 0);
}

static void pyval_format_d(pybuf_t *b, const pyval_t *v, bool repr, int depth)
{
	char tmp[64];
	if (depth > MAX_FORMAT_DEPTH &&
	    (v->kind == PV_LIST || v->kind == PV_TUPLE || v->kind == PV_DICT)) {
		dalic_pybuf_puts(b, "...");
		return;
	}
	switch (v->kind) {
	case PV_NONE:
		dalic_pybuf_puts(b, "None");
		return;
	case PV_BOOL:
		dalic_pybuf_puts(b, v->b ? "True" : "False");
		return;
	case PV_INT:
		dalic_pybuf_printf(b, "%lld", (long long)v->i);
		return;
	case PV_FLOAT:
		dalic_pyval_float_repr(tmp, sizeof tmp, v->f);
		dalic_pybuf_puts(b, tmp);
		return;
	case PV_STR:
		if (repr)
			pyval_str_repr(b, v->str.s, v->str.len);
		else
			dalic_pybuf_put(b, v->str.s, v->str.len);
		return;
	case PV_TUPLE:
		pyval_seq_format(b, v->tuple.items, v->tuple.n, "(", ")", true, depth);
		return;
	case PV_LIST:
		pyval_seq_format(b, v->list->items, v->list->n, "[", "]", false, depth);
		return;
	case PV_DICT: {
		dalic_pybuf_puts(b, "{");
		pyval_t *k, *val;
		bool first = true;
		for (int it = 0; dalic_pydict_next(v->dict, &it, &k, &val);) {
			if (!first)
				dalic_pybuf_puts(b, ", ");
			first = false;
			pyval_format_d(b, k, true, depth + 1);
			dalic_pybuf_puts(b, ": ");
			pyval_format_d(b, val, true, depth + 1);
		}
		dalic_pybuf_puts(b, "}");
		return;
	}
	case PV_SLICE:
		dalic_pybuf_puts(b, "slice(");
		pyval_format_d(b, v->slice.lo, true, depth + 1);
		dalic_pybuf_puts(b, ", ");
		pyval_format_d(b, v->slice.hi, true, depth + 1);
		dalic_pybuf_puts(b, ", ");
		pyval_format_d(b, v->slice.step, true, depth + 1);
		dalic_pybuf_puts(b, ")");
		return;
	case PV_ELLIPSIS:
		dalic_pybuf_puts(b, "Ellipsis");
		return;
	case PV_FUNC:
		dalic_pybuf_printf(b, "<function %s>", v->func->name);
		return;
	case PV_BUILTIN:
		dalic_pybuf_printf(b, "<built-in function %s>", v->builtin.name);
		return;
	case PV_BOUND:
		dalic_pybuf_printf(b, "<bound method %s.%s>", dalic_pyval_type_name(v->bound.self),
		                   v->bound.func->kind == PV_FUNC ? v->bound.func->func->name
		                                                  : "?");
		return;
	case PV_CLASS:
		dalic_pybuf_printf(b, "<class '%s.%s'>",
		                   v->cls->module ? v->cls->module : "__main__", v->cls->name);
		return;
	case PV_INSTANCE:
		if (b->failed || (b->user_format && b->user_format(b, v, repr)))
			return;
		if (v->inst->cls->exception) {
			const char *m = v->inst->message ? v->inst->message : "";
			if (!repr) {
				dalic_pybuf_puts(b, m);
				return;
			}
			dalic_pybuf_printf(b, "%s(", v->inst->cls->name);
			if (*m)
				dalic_pyval_format(
				    b, &(pyval_t){.kind = PV_STR, .str = {m, strlen(m)}}, true);
			dalic_pybuf_puts(b, ")");
			return;
		}
		dalic_pybuf_printf(b, "<__main__.%s object>", v->inst->cls->name);
		return;
	case PV_SUPER:
		dalic_pybuf_puts(b, "<super object>");
		return;
	case PV_MODULE:
		dalic_pybuf_printf(b, "<module '%s'>", v->mod->name);
		return;
	case PV_HOST:
		if (v->host.type->format)
			v->host.type->format(b, v, repr);
		else
			dalic_pybuf_printf(b, "<%s object>", dalic_pyval_type_name(v));
		return;
	case PV_OPAQUE:
		dalic_pybuf_printf(b, "<%s>", v->opaque.what);
		return;
	case PV_UNDEF:
		dalic_pybuf_printf(b, "<undefined %s>", v->undef.name);
		return;
	}
}
