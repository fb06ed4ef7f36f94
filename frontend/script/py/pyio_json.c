/*
 * json.load / json.loads for pipeline scripts (see pyio.h): JSON text into Python values as
 * Python's json module makes them — objects to dicts (the last of duplicate keys wins),
 * arrays to lists, numbers to int when written without fraction or exponent and to float
 * otherwise, NaN / Infinity accepted, \u escapes (surrogate pairs too) to UTF-8. Nesting is
 * bounded so no document can exhaust the C stack. json.dump writes a file: refused.
 */
#include "frontend/script/py/pyio.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 100

typedef struct jparse {
	pyinterp_t *I;
	const pynode_t *at;
	const char *s, *end, *start;
} jparse_t;

static int json_error(jparse_t *p, const char *what)
{
	int line = 1, col = 1;
	for (const char *c = p->start; c < p->s; c++, col++)
		if (*c == '\n')
			line++, col = 0;
	return dalic_pyeval_error(p->I, p->at, DALIC_EINVAL,
	                          "json.decoder.JSONDecodeError: %s: line %d column %d (char %ld)",
	                          what, line, col, (long)(p->s - p->start));
}

static void json_ws(jparse_t *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool json_lit(jparse_t *p, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return false;
	p->s += n;
	return true;
}

static int json_hex4(jparse_t *p, unsigned *out)
{
	if (p->end - p->s < 4)
		return json_error(p, "Invalid \\uXXXX escape");
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = *p->s++;
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
		             : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		             : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
		                                    : 16;
		if (d == 16)
			return json_error(p, "Invalid \\uXXXX escape");
		*out = *out << 4 | d;
	}
	return DALIC_OK;
}

static void json_utf8(pybuf_t *b, unsigned cp)
{
	char u[4];
	int n;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (char)(0xF0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	dalic_pybuf_put(b, u, (size_t)n);
}

static int json_string(jparse_t *p, pyval_t **out)
{
	pybuf_t b = {0};
	p->s++; /* the opening quote */
	int rc = DALIC_OK;
	for (;;) {
		if (p->s >= p->end) {
			rc = json_error(p, "Unterminated string starting at");
			break;
		}
		char c = *p->s++;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20) {
			p->s--;
			rc = json_error(p, "Invalid control character at");
			break;
		}
		if (c != '\\') {
			dalic_pybuf_put(&b, &c, 1);
			continue;
		}
		if (p->s >= p->end) {
			rc = json_error(p, "Unterminated string starting at");
			break;
		}
		c = *p->s++;
		const char *simple = strchr("\"\\/bfnrt", c);
		if (simple && c) {
			static const char map[] = "\"\\/\b\f\n\r\t";
			dalic_pybuf_put(&b, &map[simple - "\"\\/bfnrt"], 1);
			continue;
		}
		if (c != 'u') {
			rc = json_error(p, "Invalid \\escape");
			break;
		}
		unsigned cp, lo;
		if ((rc = json_hex4(p, &cp)))
			break;
		if (cp >= 0xD800 && cp < 0xDC00 && p->end - p->s >= 6 && p->s[0] == '\\' &&
		    p->s[1] == 'u') {
			const char *save = p->s;
			p->s += 2;
			if ((rc = json_hex4(p, &lo)))
				break;
			if (lo >= 0xDC00 && lo < 0xE000)
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			else
				p->s = save;
		}
		json_utf8(&b, cp);
	}
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(p->I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	if (!rc && !*out)
		return dalic_pyeval_oom(p->I, p->at);
	return rc;
}

static int json_number(jparse_t *p, pyval_t **out)
{
	const char *st = p->s;
	bool is_float = false;
	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s >= p->end || *p->s < '0' || *p->s > '9')
		return json_error(p, "Expecting value");
	while (p->s < p->end && ((*p->s >= '0' && *p->s <= '9') || strchr(".eE+-", *p->s))) {
		is_float |= *p->s == '.' || *p->s == 'e' || *p->s == 'E';
		p->s++;
	}
	char buf[64];
	size_t n = (size_t)(p->s - st);
	if (n >= sizeof buf)
		return json_error(p, "Number too long");
	memcpy(buf, st, n);
	buf[n] = 0;
	char *e;
	errno = 0;
	if (!is_float) {
		long long v = strtoll(buf, &e, 10);
		if (*e || errno)
			return dalic_pyeval_limit(p->I, p->at,
			                          "JSON integer %s does not fit 64 bits", buf);
		*out = dalic_pyval_int(p->I->a, v);
	} else {
		double v = strtod(buf, &e);
		if (*e)
			return json_error(p, "Invalid number");
		*out = dalic_pyval_float(p->I->a, v);
	}
	return *out ? DALIC_OK : dalic_pyeval_oom(p->I, p->at);
}

static int json_value(jparse_t *p, pyval_t **out, int depth);

static int json_container(jparse_t *p, pyval_t **out, int depth, bool object)
{
	if (depth > JSON_MAX_DEPTH)
		return dalic_pyeval_limit(p->I, p->at, "JSON nested more than %d levels deep",
		                          JSON_MAX_DEPTH);
	pyval_t *r = object ? dalic_pyval_dict(p->I->a) : dalic_pyval_list(p->I->a, 4);
	if (!r)
		return dalic_pyeval_oom(p->I, p->at);
	char close = object ? '}' : ']';
	p->s++;
	json_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		*out = r;
		return DALIC_OK;
	}
	for (;;) {
		pyval_t *key = NULL, *v;
		json_ws(p);
		if (object) {
			if (p->s >= p->end || *p->s != '"')
				return json_error(p, "Expecting property name enclosed in double "
				                     "quotes");
			DALIC_TRY(json_string(p, &key));
			json_ws(p);
			if (p->s >= p->end || *p->s != ':')
				return json_error(p, "Expecting ':' delimiter");
			p->s++;
		}
		DALIC_TRY(json_value(p, &v, depth + 1));
		if (object ? dalic_pydict_set(p->I->a, r->dict, key, v) != 0
		           : dalic_pyval_list_append(p->I->a, r, v) != 0)
			return dalic_pyeval_oom(p->I, p->at);
		json_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			*out = r;
			return DALIC_OK;
		}
		return json_error(p, object ? "Expecting ',' delimiter" : "Expecting ',' delimiter");
	}
}

static int json_value(jparse_t *p, pyval_t **out, int depth)
{
	DALIC_TRY(dalic_pyeval_step(p->I, p->at));
	json_ws(p);
	if (p->s >= p->end)
		return json_error(p, "Expecting value");
	switch (*p->s) {
	case '{':
		return json_container(p, out, depth, true);
	case '[':
		return json_container(p, out, depth, false);
	case '"':
		return json_string(p, out);
	default:
		break;
	}
	if (json_lit(p, "true"))
		*out = dalic_pyval_true();
	else if (json_lit(p, "false"))
		*out = dalic_pyval_false();
	else if (json_lit(p, "null"))
		*out = dalic_pyval_none();
	else if (json_lit(p, "NaN"))
		*out = dalic_pyval_float(p->I->a, NAN);
	else if (json_lit(p, "Infinity"))
		*out = dalic_pyval_float(p->I->a, INFINITY);
	else if (json_lit(p, "-Infinity"))
		*out = dalic_pyval_float(p->I->a, -INFINITY);
	else
		return json_number(p, out);
	return *out ? DALIC_OK : dalic_pyeval_oom(p->I, p->at);
}

static int json_parse(pyinterp_t *I, const pynode_t *at, const char *s, size_t n, pyval_t **out)
{
	jparse_t p = {.I = I, .at = at, .s = s, .end = s + n, .start = s};
	DALIC_TRY(json_value(&p, out, 0));
	json_ws(&p);
	if (p.s != p.end)
		return json_error(&p, "Extra data");
	return DALIC_OK;
}

static int json_loads(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: loads() takes one document");
	pyval_t *v = args->pos[0];
	pyio_bytes_t *b = dalic_pyio_bytes(v);
	if (v->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "json.loads", out);
	if (b)
		return json_parse(I, at, (const char *)b->data, b->len, out);
	if (v->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: the JSON object must be str or bytes, not %s",
		                          dalic_pyval_type_name(v));
	return json_parse(I, at, v->str.s, v->str.len, out);
}

/* json.load(f): the rest of the file */
static int json_load(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: load() takes one file");
	pyval_t *read, *text;
	if (args->pos[0]->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "json.load", out);
	DALIC_TRY(dalic_pyeval_getattr(I, at, args->pos[0], "read", &read));
	DALIC_TRY(dalic_pyeval_call(I, at, read, &(pyargs_t){0}, &text));
	return json_loads(I, at, NULL, &(pyargs_t){.pos = &text, .npos = 1}, out);
}

static int json_dump(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	return dalic_pyio_refuse(I, at, "json.dump", "a pipeline script reads files, never writes "
	                                             "them");
}

int dalic_pyio_open_json(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	static const pyreg_t fns[] = {
	    {"load", json_load}, {"loads", json_loads}, {"dump", json_dump}, {NULL, NULL}};
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (m)
		m->mod->subset = "dalic's json (load, loads)";
	if (!m || dalic_pybi_register(I, m->mod->attrs, fns, false))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}
