/* The text form of readers.tfrecord features (tfrec_feature.h). */
#include "kernels/common/tfrec_feature.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tfrec_type_names[] = {"int64", "string", "float32"};

const char *dalic_tfrec_type_name(tfrec_type_t t)
{
	return t >= TFREC_INT64 && t <= TFREC_FLOAT32 ? tfrec_type_names[t] : "?";
}

static const char *tfrec_skip(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Consumes `c` (after spaces) or fails. */
static bool tfrec_expect(const char **p, char c)
{
	*p = tfrec_skip(*p);
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

static int tfrec_parse_shape(const char **p, dalic_tfrec_feature_t *f, char *err, size_t n)
{
	char close = **p == '[' ? ']' : ')';
	(*p)++;
	f->ndim = 0;
	for (;;) {
		*p = tfrec_skip(*p);
		if (**p == close) {
			(*p)++;
			return 0;
		}
		if (f->ndim == DALIC_MAX_NDIM) {
			snprintf(err, n, "a shape of more than %d dimensions", DALIC_MAX_NDIM);
			return -1;
		}
		char *end;
		errno = 0;
		long long v = strtoll(*p, &end, 10);
		if (end == *p || errno || v < 0) {
			snprintf(err, n, "a shape holds non-negative integers, found '%.20s'", *p);
			return -1;
		}
		f->shape[f->ndim++] = v;
		*p = tfrec_skip(end);
		if (**p == ',')
			(*p)++;
	}
}

static int tfrec_parse_string(const char **p, dalic_tfrec_feature_t *f, char *err, size_t n)
{
	char q = **p;
	const char *s = *p + 1;
	char *out = malloc(strlen(s) + 1);
	if (!out) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	size_t k = 0;
	while (*s && *s != q) {
		if (*s == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
		    isxdigit((unsigned char)s[3])) {
			char hex[3] = {s[2], s[3], 0};
			out[k++] = (char)strtol(hex, NULL, 16);
			s += 4;
		} else if (*s == '\\' && s[1]) {
			out[k++] = s[1];
			s += 2;
		} else {
			out[k++] = *s++;
		}
	}
	if (*s != q) {
		free(out);
		snprintf(err, n, "unterminated string default");
		return -1;
	}
	out[k] = 0;
	f->dflt_str = out;
	f->dflt_len = k;
	*p = s + 1;
	return 0;
}

static int tfrec_parse_default(const char **p, dalic_tfrec_feature_t *f, char *err, size_t n)
{
	*p = tfrec_skip(*p);
	if (**p == '\'' || **p == '"') {
		if (f->type != TFREC_STRING) {
			snprintf(err, n, "a %s feature needs a numeric default value",
			         dalic_tfrec_type_name(f->type));
			return -1;
		}
		return tfrec_parse_string(p, f, err, n);
	}
	if (f->type == TFREC_STRING) {
		snprintf(err, n, "a string feature needs a quoted default value");
		return -1;
	}
	char *end;
	errno = 0;
	if (f->type == TFREC_INT64) {
		long long v = strtoll(*p, &end, 10);
		if (end != *p && !errno && (*end == '.' || *end == 'e' || *end == 'E')) {
			double d = strtod(*p, &end);
			if (d != floor(d) || !(fabs(d) < 9.2e18)) {
				snprintf(err, n, "an int64 feature needs an integer default value");
				return -1;
			}
			v = (long long)d;
		}
		if (end == *p || errno) {
			snprintf(err, n, "an int64 feature needs an integer default value");
			return -1;
		}
		f->dflt_int = v;
	} else {
		double d = strtod(*p, &end);
		if (end == *p) {
			snprintf(err, n, "a float32 feature needs a number as default value");
			return -1;
		}
		f->dflt_float = (float)d;
	}
	*p = end;
	return 0;
}

static int tfrec_parse_type(const char **p, dalic_tfrec_feature_t *f, char *err, size_t n)
{
	*p = tfrec_skip(*p);
	for (int t = TFREC_INT64; t <= TFREC_FLOAT32; t++) {
		size_t len = strlen(tfrec_type_names[t]);
		if (!strncmp(*p, tfrec_type_names[t], len) && !isalnum((unsigned char)(*p)[len])) {
			f->type = (tfrec_type_t)t;
			*p += len;
			return 0;
		}
	}
	snprintf(err, n, "unknown feature type '%.20s' (int64, string or float32)", *p);
	return -1;
}

int dalic_tfrec_feature_parse(const char *text, dalic_tfrec_feature_t *f, char *err, size_t n)
{
	memset(f, 0, sizeof *f);
	const char *p = tfrec_skip(text);
	if (!strncmp(p, "FixedLenFeature", 15)) {
		f->fixed = true;
		p += 15;
	} else if (!strncmp(p, "VarLenFeature", 13)) {
		p += 13;
	} else {
		snprintf(err, n, "'%.60s' is not FixedLenFeature(...) or VarLenFeature(...)", text);
		return -1;
	}
	int rc = -1;
	if (!tfrec_expect(&p, '(')) {
		snprintf(err, n, "expected '(' in '%.60s'", text);
		goto out;
	}
	p = tfrec_skip(p);
	if (*p == '[' || *p == '(') {
		if (tfrec_parse_shape(&p, f, err, n))
			goto out;
		if (!tfrec_expect(&p, ',')) {
			snprintf(err, n, "expected ',' after the shape in '%.60s'", text);
			goto out;
		}
	} else if (f->fixed) {
		snprintf(err, n, "FixedLenFeature needs a shape first: '%.60s'", text);
		goto out;
	}
	if (tfrec_parse_type(&p, f, err, n))
		goto out;
	if (!tfrec_expect(&p, ',')) {
		snprintf(err, n, "expected ',' and a default value after the type in '%.60s'", text);
		goto out;
	}
	if (tfrec_parse_default(&p, f, err, n))
		goto out;
	if (!tfrec_expect(&p, ')') || *tfrec_skip(p)) {
		snprintf(err, n, "expected ')' at the end of '%.60s'", text);
		goto out;
	}
	if (f->type == TFREC_STRING && !f->dflt_str && !(f->dflt_str = calloc(1, 1))) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	rc = 0;
out:
	if (rc)
		dalic_tfrec_feature_free(f);
	return rc;
}

/* Appends to buf (bounded), counting what the whole text needs. */
static void tfrec_put(char *buf, size_t n, size_t *k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tfrec_put(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(*k < n ? buf + *k : NULL, *k < n ? n - *k : 0, fmt, ap);
	va_end(ap);
	if (w > 0)
		*k += (size_t)w;
}

int dalic_tfrec_feature_format(const dalic_tfrec_feature_t *f, char *buf, size_t n)
{
	size_t k = 0;
	if (n)
		buf[0] = 0;
	tfrec_put(buf, n, &k, "%s(", f->fixed ? "FixedLenFeature" : "VarLenFeature");
	if (f->fixed || f->ndim) {
		tfrec_put(buf, n, &k, "[");
		for (int d = 0; d < f->ndim; d++)
			tfrec_put(buf, n, &k, "%s%lld", d ? ", " : "", (long long)f->shape[d]);
		tfrec_put(buf, n, &k, "], ");
	}
	tfrec_put(buf, n, &k, "%s, ", dalic_tfrec_type_name(f->type));
	if (f->type == TFREC_INT64) {
		tfrec_put(buf, n, &k, "%lld", (long long)f->dflt_int);
	} else if (f->type == TFREC_FLOAT32) {
		char num[48];
		snprintf(num, sizeof num, "%.9g", (double)f->dflt_float);
		bool plain = !strpbrk(num, ".eni");
		tfrec_put(buf, n, &k, "%s%s", num, plain ? ".0" : "");
	} else {
		tfrec_put(buf, n, &k, "'");
		for (size_t i = 0; i < f->dflt_len; i++) {
			unsigned char c = (unsigned char)f->dflt_str[i];
			if (c == '\'' || c == '\\')
				tfrec_put(buf, n, &k, "\\%c", c);
			else if (c < 32 || c >= 127)
				tfrec_put(buf, n, &k, "\\x%02x", c);
			else
				tfrec_put(buf, n, &k, "%c", c);
		}
		tfrec_put(buf, n, &k, "'");
	}
	tfrec_put(buf, n, &k, ")");
	return (int)k;
}

void dalic_tfrec_feature_free(dalic_tfrec_feature_t *f)
{
	free(f->dflt_str);
	f->dflt_str = NULL;
	f->dflt_len = 0;
}
