/*
 * The JSON Schema subset checker (see tests/testlib/schema_check.h). Unknown keywords are
 * ignored, as JSON Schema says; the schema itself is cross-checked with a full validator by
 * a test when python3-jsonschema is installed.
 */
#include "tests/testlib/schema_check.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tl_schema_ctx {
	const cJSON *root;
	char *err;
	size_t errlen;
} tl_schema_ctx_t;

static bool tl_schema_fail(tl_schema_ctx_t *c, const char *path, const char *what,
                           const char *detail)
{
	snprintf(c->err, c->errlen, "%s: %s%s%s", *path ? path : "$", what, detail ? " " : "",
	         detail ? detail : "");
	return false;
}

static bool tl_schema_is_type(const cJSON *v, const char *t)
{
	if (!strcmp(t, "object"))
		return cJSON_IsObject(v);
	if (!strcmp(t, "array"))
		return cJSON_IsArray(v);
	if (!strcmp(t, "string"))
		return cJSON_IsString(v);
	if (!strcmp(t, "boolean"))
		return cJSON_IsBool(v);
	if (!strcmp(t, "null"))
		return cJSON_IsNull(v);
	if (!strcmp(t, "number"))
		return cJSON_IsNumber(v);
	if (!strcmp(t, "integer"))
		return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
	return false;
}

static bool tl_schema_check(tl_schema_ctx_t *c, const cJSON *s, const cJSON *v, const char *path);

static const cJSON *tl_schema_resolve(tl_schema_ctx_t *c, const char *ref)
{
	if (strncmp(ref, "#/$defs/", 8))
		return NULL;
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c->root, "$defs"),
	                                        ref + 8);
}

static bool tl_schema_check_type(tl_schema_ctx_t *c, const cJSON *t, const cJSON *v,
                                 const char *path)
{
	if (cJSON_IsString(t))
		return tl_schema_is_type(v, t->valuestring)
		           ? true
		           : tl_schema_fail(c, path, "not of type", t->valuestring);
	const cJSON *e;
	cJSON_ArrayForEach(e, t)
	{
		if (cJSON_IsString(e) && tl_schema_is_type(v, e->valuestring))
			return true;
	}
	return tl_schema_fail(c, path, "not of any listed type", NULL);
}

static bool tl_schema_check_object(tl_schema_ctx_t *c, const cJSON *s, const cJSON *v,
                                   const char *path)
{
	char sub[512];
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required"), *r;
	cJSON_ArrayForEach(r, req)
	{
		if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
			return tl_schema_fail(c, path, "missing required key", r->valuestring);
	}
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
	const cJSON *pats = cJSON_GetObjectItemCaseSensitive(s, "patternProperties");
	const cJSON *addl = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
	const cJSON *m;
	cJSON_ArrayForEach(m, v)
	{
		snprintf(sub, sizeof sub, "%s.%s", path, m->string);
		bool matched = false;
		const cJSON *ps = cJSON_GetObjectItemCaseSensitive(props, m->string);
		if (ps) {
			matched = true;
			if (!tl_schema_check(c, ps, m, sub))
				return false;
		}
		const cJSON *p;
		cJSON_ArrayForEach(p, pats)
		{
			regex_t re;
			if (regcomp(&re, p->string, REG_EXTENDED | REG_NOSUB))
				return tl_schema_fail(c, path, "bad pattern in schema", p->string);
			bool hit = regexec(&re, m->string, 0, NULL, 0) == 0;
			regfree(&re);
			if (hit) {
				matched = true;
				if (!tl_schema_check(c, p, m, sub))
					return false;
			}
		}
		if (!matched && addl) {
			if (cJSON_IsFalse(addl))
				return tl_schema_fail(c, sub, "key not allowed", NULL);
			if (cJSON_IsObject(addl) && !tl_schema_check(c, addl, m, sub))
				return false;
		}
	}
	return true;
}

static bool tl_schema_check_array(tl_schema_ctx_t *c, const cJSON *s, const cJSON *v,
                                  const char *path)
{
	int n = cJSON_GetArraySize(v);
	const cJSON *mn = cJSON_GetObjectItemCaseSensitive(s, "minItems");
	const cJSON *mx = cJSON_GetObjectItemCaseSensitive(s, "maxItems");
	if (mn && n < mn->valueint)
		return tl_schema_fail(c, path, "too few items", NULL);
	if (mx && n > mx->valueint)
		return tl_schema_fail(c, path, "too many items", NULL);
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items");
	if (!items)
		return true;
	char sub[512];
	int i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, v)
	{
		snprintf(sub, sizeof sub, "%s[%d]", path, i++);
		if (!tl_schema_check(c, items, e, sub))
			return false;
	}
	return true;
}

static bool tl_schema_check_enum(tl_schema_ctx_t *c, const cJSON *en, const cJSON *v,
                                 const char *path)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, en)
	{
		if (cJSON_Compare(e, v, true))
			return true;
	}
	return tl_schema_fail(c, path, "value not in enum",
	                      cJSON_IsString(v) ? v->valuestring : NULL);
}

static bool tl_schema_check(tl_schema_ctx_t *c, const cJSON *s, const cJSON *v, const char *path)
{
	const cJSON *ref = cJSON_GetObjectItemCaseSensitive(s, "$ref");
	if (ref) {
		const cJSON *target = tl_schema_resolve(c, ref->valuestring);
		if (!target)
			return tl_schema_fail(c, path, "unresolvable $ref", ref->valuestring);
		if (!tl_schema_check(c, target, v, path))
			return false;
	}
	const cJSON *k;
	if ((k = cJSON_GetObjectItemCaseSensitive(s, "type")) &&
	    !tl_schema_check_type(c, k, v, path))
		return false;
	if ((k = cJSON_GetObjectItemCaseSensitive(s, "const")) && !cJSON_Compare(k, v, true))
		return tl_schema_fail(c, path, "not the constant", NULL);
	if ((k = cJSON_GetObjectItemCaseSensitive(s, "enum")) &&
	    !tl_schema_check_enum(c, k, v, path))
		return false;
	if (cJSON_IsNumber(v)) {
		if ((k = cJSON_GetObjectItemCaseSensitive(s, "minimum")) &&
		    v->valuedouble < k->valuedouble)
			return tl_schema_fail(c, path, "below minimum", NULL);
		if ((k = cJSON_GetObjectItemCaseSensitive(s, "maximum")) &&
		    v->valuedouble > k->valuedouble)
			return tl_schema_fail(c, path, "above maximum", NULL);
	}
	if (cJSON_IsString(v) && (k = cJSON_GetObjectItemCaseSensitive(s, "pattern"))) {
		regex_t re;
		if (regcomp(&re, k->valuestring, REG_EXTENDED | REG_NOSUB))
			return tl_schema_fail(c, path, "bad pattern in schema", k->valuestring);
		bool hit = regexec(&re, v->valuestring, 0, NULL, 0) == 0;
		regfree(&re);
		if (!hit)
			return tl_schema_fail(c, path, "does not match", k->valuestring);
	}
	if (cJSON_IsObject(v) && !tl_schema_check_object(c, s, v, path))
		return false;
	if (cJSON_IsArray(v) && !tl_schema_check_array(c, s, v, path))
		return false;
	return true;
}

bool tl_schema_validate(const cJSON *root, const cJSON *schema, const cJSON *doc, char *err,
                        size_t errlen)
{
	tl_schema_ctx_t c = {.root = root, .err = err, .errlen = errlen};
	err[0] = 0;
	return tl_schema_check(&c, schema, doc, "$");
}

cJSON *tl_schema_load(const char *md_path)
{
	FILE *f = fopen(md_path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 17];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *open = strstr(buf, "```json schema\n");
	if (!open)
		return NULL;
	open += strlen("```json schema\n");
	const char *close = strstr(open, "\n```");
	if (!close)
		return NULL;
	return cJSON_ParseWithLength(open, (size_t)(close - open));
}
