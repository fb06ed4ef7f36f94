/* Typed argument values (see value.h). */
#include "engine/value.h"

#include "dalic.h"
#include "engine/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t value_elem_size(dalic_vkind_t k)
{
	switch (k) {
	case DALIC_V_INT: return sizeof(int64_t);
	case DALIC_V_FLOAT: return sizeof(double);
	case DALIC_V_BOOL: return sizeof(bool);
	case DALIC_V_STRING: return sizeof(char *);
	default: return 0;
	}
}

int dalic_value_list(dalic_value_t *v, dalic_vkind_t kind, int n, const void *elems)
{
	memset(v, 0, sizeof *v);
	v->kind = kind;
	v->is_list = true;
	v->n = n;
	size_t es = value_elem_size(kind);
	v->p = calloc(n > 0 ? (size_t)n : 1, es ? es : 1);
	if (!v->p)
		return dalic_fail(DALIC_ENOMEM, "out of memory for an argument value");
	if (kind == DALIC_V_STRING) {
		for (int i = 0; i < n; i++) {
			v->s[i] = strdup(((char *const *)elems)[i]);
			if (!v->s[i]) {
				dalic_value_free(v);
				return dalic_fail(DALIC_ENOMEM, "out of memory for an argument value");
			}
		}
	} else if (n > 0) {
		memcpy(v->p, elems, (size_t)n * es);
	}
	return DALIC_OK;
}

static int value_scalar(dalic_value_t *v, dalic_vkind_t k, const void *x)
{
	int rc = dalic_value_list(v, k, 1, x);
	v->is_list = false;
	return rc;
}

int dalic_value_int(dalic_value_t *v, int64_t x)
{
	return value_scalar(v, DALIC_V_INT, &x);
}

int dalic_value_float(dalic_value_t *v, double x)
{
	return value_scalar(v, DALIC_V_FLOAT, &x);
}

int dalic_value_bool(dalic_value_t *v, bool x)
{
	return value_scalar(v, DALIC_V_BOOL, &x);
}

int dalic_value_string(dalic_value_t *v, const char *x)
{
	return value_scalar(v, DALIC_V_STRING, &x);
}

int dalic_value_copy(dalic_value_t *dst, const dalic_value_t *src)
{
	if (src->kind == DALIC_V_NONE) {
		memset(dst, 0, sizeof *dst);
		return DALIC_OK;
	}
	int rc = dalic_value_list(dst, src->kind, src->n, src->p);
	dst->is_list = src->is_list;
	return rc;
}

void dalic_value_free(dalic_value_t *v)
{
	if (!v)
		return;
	if (v->kind == DALIC_V_STRING && v->s)
		for (int i = 0; i < v->n; i++)
			free(v->s[i]);
	free(v->p);
	memset(v, 0, sizeof *v);
}

bool dalic_value_equal(const dalic_value_t *a, const dalic_value_t *b)
{
	if (a->kind != b->kind || a->is_list != b->is_list || a->n != b->n)
		return false;
	if (a->kind == DALIC_V_STRING) {
		for (int i = 0; i < a->n; i++)
			if (strcmp(a->s[i], b->s[i]))
				return false;
		return true;
	}
	return a->n == 0 || !memcmp(a->p, b->p, (size_t)a->n * value_elem_size(a->kind));
}

double dalic_value_get_f(const dalic_value_t *v, int i)
{
	if (i < 0 || i >= v->n)
		return 0;
	switch (v->kind) {
	case DALIC_V_INT: return (double)v->i[i];
	case DALIC_V_FLOAT: return v->f[i];
	case DALIC_V_BOOL: return v->b[i];
	default: return 0;
	}
}

int64_t dalic_value_get_i(const dalic_value_t *v, int i)
{
	if (i < 0 || i >= v->n)
		return 0;
	switch (v->kind) {
	case DALIC_V_INT: return v->i[i];
	case DALIC_V_FLOAT: return (int64_t)v->f[i];
	case DALIC_V_BOOL: return v->b[i];
	default: return 0;
	}
}

static int value_format_elem(const dalic_value_t *v, int i, char *buf, size_t n)
{
	switch (v->kind) {
	case DALIC_V_INT: return snprintf(buf, n, "%lld", (long long)v->i[i]);
	case DALIC_V_FLOAT: {
		double f = v->f[i];
		if (f == floor(f) && fabs(f) < 1e15)
			return snprintf(buf, n, "%.1f", f);
		return snprintf(buf, n, "%.9g", f);
	}
	case DALIC_V_BOOL: return snprintf(buf, n, "%s", v->b[i] ? "True" : "False");
	case DALIC_V_STRING: return snprintf(buf, n, "'%s'", v->s[i]);
	default: return snprintf(buf, n, "None");
	}
}

int dalic_value_format(const dalic_value_t *v, char *buf, size_t n)
{
	if (v->kind == DALIC_V_NONE)
		return snprintf(buf, n, "None");
	if (!v->is_list)
		return value_format_elem(v, 0, buf, n);
	size_t len = 0;
	char tmp[256];
#define PUT(s)                                                                                     \
	do {                                                                                       \
		size_t l_ = strlen(s);                                                             \
		if (len + l_ < n)                                                                  \
			memcpy(buf + len, s, l_ + 1);                                              \
		len += l_;                                                                         \
	} while (0)
	if (n)
		buf[0] = 0;
	PUT("[");
	for (int i = 0; i < v->n; i++) {
		if (i)
			PUT(", ");
		value_format_elem(v, i, tmp, sizeof tmp);
		PUT(tmp);
	}
	PUT("]");
#undef PUT
	return (int)len;
}
