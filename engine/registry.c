/*
 * The operator registry: lookup by any name, the common arguments every operator accepts,
 * and conversion of argument values to the schema's declared type. The table of built-in
 * schemas is generated from the kernels/cpu/<family>/ sources by the Makefile (ops_table.c).
 */
#include "engine/schema.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/strmap.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const dalic_schema_t *const dalic_builtin_schemas[];

static const dalic_arg_schema_t common_args[] = {
	{"device", DALIC_ARG_STRING, "None", "Device the operator runs on: 'cpu', 'gpu', 'mixed'."},
	{"preserve", DALIC_ARG_BOOL, "False", "Keep the operator even if its outputs are unused."},
	{"bytes_per_sample_hint", DALIC_ARG_INT_LIST, "[0]",
	 "Output size hint per sample in bytes, per output (0 = pipeline's bytes_per_sample)."},
	{"preserve_name", DALIC_ARG_BOOL, "False", "Set when the user named the instance."},
	{"_module", DALIC_ARG_STRING, "None", "Python module the operator came from."},
	{"_display_name", DALIC_ARG_STRING, "None", "fn API name of the operator."},
	{0},
};

static const dalic_arg_schema_t seed_arg = {
	"seed", DALIC_ARG_INT, "-1", "Random seed; when not given, derived from the pipeline seed."};

const dalic_arg_schema_t *dalic_schema_common_args(void)
{
	return common_args;
}

static const dalic_schema_t **sorted;
static int num_schemas;
static dalic_strmap_t by_any_name; /* schema, fn and alias names -> schema */
static pthread_once_t sort_once = PTHREAD_ONCE_INIT;

/* The first schema in name order that spells `name` any way keeps it. */
static void registry_index(const char *name, const dalic_schema_t *s)
{
	if (name && !dalic_strmap_has(&by_any_name, name) &&
	    dalic_strmap_put(&by_any_name, name, (void *)s))
		abort();
}

static int registry_by_name(const void *a, const void *b)
{
	return strcmp((*(const dalic_schema_t *const *)a)->name,
		      (*(const dalic_schema_t *const *)b)->name);
}

static void registry_sort_schemas(void)
{
	int n = 0;
	while (dalic_builtin_schemas[n])
		n++;
	sorted = calloc((size_t)n + 1, sizeof *sorted);
	if (!sorted)
		abort();
	memcpy(sorted, dalic_builtin_schemas, sizeof *sorted * (size_t)n);
	qsort(sorted, (size_t)n, sizeof *sorted, registry_by_name);
	num_schemas = n;
	for (int i = 0; i < n; i++) {
		registry_index(sorted[i]->name, sorted[i]);
		registry_index(sorted[i]->fn, sorted[i]);
		for (int a = 0; a < 4 && sorted[i]->aliases[a]; a++)
			registry_index(sorted[i]->aliases[a], sorted[i]);
	}
}

const dalic_schema_t *const *dalic_schema_all(void)
{
	pthread_once(&sort_once, registry_sort_schemas);
	return sorted;
}

static const dalic_schema_t *registry_find_exact(const char *name)
{
	pthread_once(&sort_once, registry_sort_schemas);
	return dalic_strmap_get(&by_any_name, name);
}

const dalic_schema_t *dalic_schema_find(const char *name)
{
	if (!name)
		return NULL;
	static const char *prefixes[] = {"nvidia.dali.fn.", "dali.fn.", "fn.", "nvidia.dali.ops.",
					 "ops."};
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n)) {
			name += n;
			break;
		}
	}
	const dalic_schema_t *s = registry_find_exact(name);
	if (s || !strchr(name, '.'))
		return s;
	/* ops API spells modules with dots and CamelCase: readers.File -> readers__File. No
	 * schema name fills the buffer, so a name that would overflow it is simply unknown. */
	char buf[256];
	size_t o = 0;
	for (const char *p = name; *p; p++) {
		if (o + 2 >= sizeof buf)
			return NULL;
		if (*p == '.') {
			buf[o++] = '_';
			buf[o++] = '_';
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = 0;
	return registry_find_exact(buf);
}

const dalic_arg_schema_t *dalic_schema_arg(const dalic_schema_t *s, const char *arg)
{
	for (const dalic_arg_schema_t *a = s->args; a && a->name; a++)
		if (!strcmp(a->name, arg))
			return a;
	for (const dalic_arg_schema_t *a = common_args; a->name; a++)
		if (!strcmp(a->name, arg))
			return a;
	if (s->random && !strcmp(arg, "seed"))
		return &seed_arg;
	return NULL;
}

const char *dalic_schema_short_name(const dalic_schema_t *s, char *buf, size_t n)
{
	const char *p = s->name, *q;
	while ((q = strstr(p, "__")) && q[2])
		p = q + 2;
	/* DALI's internal schemas add one more: readers___TFRecord is class TFRecord */
	while (*p == '_' && p[1] && p != s->name)
		p++;
	snprintf(buf, n, "%s", p);
	return buf;
}

const char *dalic_schema_display_name(const dalic_schema_t *s)
{
	const char *fn = s->fn ? s->fn : s->name;
	const char *dot = strrchr(fn, '.');
	return dot ? dot + 1 : fn;
}

const char *dalic_schema_arg_type_name(dalic_arg_type_t t)
{
	static const char *names[] = {"int", "float", "bool", "str", "DALIDataType",
				      "DALIImageType", "DALIInterpType", "layout str",
				      "int or list of int", "float or list of float",
				      "bool or list of bool", "str or list of str",
				      "list of DALIDataType", "list of tfrecord Feature"};
	return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

/* ---- Python-literal parsing (defaults, command line) ---- */

static const struct {
	const char *name;
	int value;
} image_types[] = {{"RGB", DALIC_RGB},     {"BGR", DALIC_BGR},         {"GRAY", DALIC_GRAY},
		   {"YCbCr", DALIC_YCbCr}, {"ANY_DATA", DALIC_ANY_DATA}, {0}},
  interp_types[] = {{"INTERP_NN", DALIC_INTERP_NN},
		    {"INTERP_LINEAR", DALIC_INTERP_LINEAR},
		    {"INTERP_CUBIC", DALIC_INTERP_CUBIC},
		    {"INTERP_LANCZOS3", DALIC_INTERP_LANCZOS3},
		    {"INTERP_TRIANGULAR", DALIC_INTERP_TRIANGULAR},
		    {"INTERP_GAUSSIAN", DALIC_INTERP_GAUSSIAN},
		    {0}};

static const char *registry_strip_enum_prefix(const char *s)
{
	const char *dot = strrchr(s, '.');
	return dot ? dot + 1 : s;
}

/* Enum value of a name for an enum-typed argument, or -1000 when unknown. */
static int64_t registry_enum_value(dalic_arg_type_t t, const char *name)
{
	if (t == DALIC_ARG_DTYPE || t == DALIC_ARG_DTYPE_LIST) {
		dalic_dtype_t d = dalic_dtype_parse(name);
		return d == DALIC_NO_TYPE && strcmp(registry_strip_enum_prefix(name), "NO_TYPE")
		           ? -1000
		           : d;
	}
	const char *n = registry_strip_enum_prefix(name);
	if (t == DALIC_ARG_IMAGE_TYPE) {
		for (int i = 0; image_types[i].name; i++)
			if (!strcmp(image_types[i].name, n))
				return image_types[i].value;
	} else if (t == DALIC_ARG_INTERP_TYPE) {
		for (int i = 0; interp_types[i].name; i++)
			if (!strcmp(interp_types[i].name, n))
				return interp_types[i].value;
	}
	return -1000;
}

/* Whether a number is a value of the enum an argument holds (DALI's numbering). */
static bool registry_enum_valid(dalic_arg_type_t t, int64_t v)
{
	if (t == DALIC_ARG_IMAGE_TYPE)
		return v >= DALIC_RGB && v <= DALIC_ANY_DATA;
	if (t == DALIC_ARG_INTERP_TYPE)
		return v >= DALIC_INTERP_NN && v <= DALIC_INTERP_GAUSSIAN;
	return v >= DALIC_NO_TYPE && v <= DALIC_TENSOR_LAYOUT &&
	       strcmp(dalic_dtype_name((dalic_dtype_t)v), "UNKNOWN");
}

static bool registry_is_list_type(dalic_arg_type_t t)
{
	return t >= DALIC_ARG_INT_LIST;
}

static dalic_arg_type_t registry_elem_type(dalic_arg_type_t t)
{
	switch (t) {
	case DALIC_ARG_INT_LIST: return DALIC_ARG_INT;
	case DALIC_ARG_FLOAT_LIST: return DALIC_ARG_FLOAT;
	case DALIC_ARG_BOOL_LIST: return DALIC_ARG_BOOL;
	case DALIC_ARG_STRING_LIST: return DALIC_ARG_STRING;
	case DALIC_ARG_DTYPE_LIST: return DALIC_ARG_DTYPE;
	case DALIC_ARG_TF_FEATURE_LIST: return DALIC_ARG_STRING;
	default: return t;
	}
}

static dalic_vkind_t registry_storage_kind(dalic_arg_type_t t)
{
	switch (registry_elem_type(t)) {
	case DALIC_ARG_FLOAT: return DALIC_V_FLOAT;
	case DALIC_ARG_BOOL: return DALIC_V_BOOL;
	case DALIC_ARG_STRING:
	case DALIC_ARG_LAYOUT: return DALIC_V_STRING;
	default: return DALIC_V_INT;
	}
}

/* Parses one scalar token at *p into a generic value (int/float/bool/string). */
static int registry_parse_scalar(const char **p, dalic_value_t *out)
{
	const char *s = *p;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\'' || *s == '"') {
		char q = *s++;
		const char *e = strchr(s, q);
		if (!e)
			return dalic_fail(DALIC_EPARSE, "unterminated string in %s", *p);
		char *str = strndup(s, (size_t)(e - s));
		if (!str)
			return DALIC_ENOMEM;
		int rc = dalic_value_string(out, str);
		free(str);
		*p = e + 1;
		return rc;
	}
	const char *e = s;
	while (*e && *e != ',' && *e != ']' && *e != ')' && !isspace((unsigned char)*e))
		e++;
	char tok[128];
	snprintf(tok, sizeof tok, "%.*s", (int)(e - s), s);
	*p = e;
	if (!strcmp(tok, "True") || !strcmp(tok, "False"))
		return dalic_value_bool(out, tok[0] == 'T');
	char *end;
	long long iv = strtoll(tok, &end, 0);
	if (*tok && !*end)
		return dalic_value_int(out, iv);
	double fv = strtod(tok, &end);
	if (*tok && !*end)
		return dalic_value_float(out, fv);
	if (*tok) /* a bare name: an enum constant such as INT32 or types.RGB */
		return dalic_value_string(out, tok);
	return dalic_fail(DALIC_EPARSE, "expected a value");
}

int dalic_schema_value_parse(dalic_arg_type_t t, const char *text, dalic_value_t *out)
{
	memset(out, 0, sizeof *out);
	const char *p = text;
	while (isspace((unsigned char)*p))
		p++;
	if (!strcmp(p, "None"))
		return DALIC_OK;
	dalic_value_t generic = {0};
	int rc;
	if (*p == '[' || *p == '(') {
		char close = *p == '[' ? ']' : ')';
		p++;
		int n = 0, cap = 8;
		dalic_value_t *elems = calloc((size_t)cap, sizeof *elems);
		if (!elems)
			return DALIC_ENOMEM;
		rc = DALIC_OK;
		for (;;) {
			while (isspace((unsigned char)*p))
				p++;
			if (*p == close) {
				p++;
				break;
			}
			if (!*p) {
				rc = dalic_fail(DALIC_EPARSE, "unterminated list in '%s'", text);
				break;
			}
			if (n == cap) {
				void *ne = realloc(elems, sizeof *elems * (size_t)(cap *= 2));
				if (!ne) {
					rc = DALIC_ENOMEM;
					break;
				}
				elems = ne;
			}
			rc = registry_parse_scalar(&p, &elems[n]);
			if (rc)
				break;
			n++;
			while (isspace((unsigned char)*p))
				p++;
			if (*p == ',')
				p++;
		}
		if (!rc) {
			/* element kind: float if any float, else the first element's kind */
			dalic_vkind_t k = n ? elems[0].kind : registry_storage_kind(t);
			for (int i = 0; i < n; i++)
				if (elems[i].kind == DALIC_V_FLOAT && k == DALIC_V_INT)
					k = DALIC_V_FLOAT;
			rc = dalic_value_list(&generic, k, 0, NULL);
			if (!rc) {
				free(generic.p);
				size_t es = k == DALIC_V_STRING ? sizeof(char *)
					    : k == DALIC_V_BOOL ? sizeof(bool) : 8;
				generic.p = calloc((size_t)n + 1, es);
				generic.n = n;
				for (int i = 0; i < n && generic.p; i++) {
					if (k == DALIC_V_FLOAT)
						generic.f[i] = dalic_value_get_f(&elems[i], 0);
					else if (k == DALIC_V_INT)
						generic.i[i] = dalic_value_get_i(&elems[i], 0);
					else if (k == DALIC_V_BOOL)
						generic.b[i] =
						    elems[i].kind == DALIC_V_BOOL
						        ? elems[i].b[0]
						        : dalic_value_get_i(&elems[i], 0);
					else
						generic.s[i] = strdup(
						    elems[i].kind == DALIC_V_STRING ? elems[i].s[0]
						                                    : "");
				}
				if (!generic.p)
					rc = DALIC_ENOMEM;
			}
		}
		for (int i = 0; i < n; i++)
			dalic_value_free(&elems[i]);
		free(elems);
	} else {
		rc = registry_parse_scalar(&p, &generic);
	}
	if (rc)
		return rc;
	dalic_schema_t fake = {.name = "value"};
	dalic_arg_schema_t a = {.name = "value", .type = t};
	rc = dalic_schema_arg_convert(&fake, &a, &generic, out);
	dalic_value_free(&generic);
	return rc;
}

int dalic_schema_arg_default(const dalic_arg_schema_t *a, dalic_value_t *out)
{
	memset(out, 0, sizeof *out);
	if (!a->def)
		return DALIC_OK;
	return dalic_schema_value_parse(a->type, a->def, out);
}

static const char *registry_vkind_name(const dalic_value_t *v)
{
	static const char *n[] = {"None", "int", "float", "bool", "str"};
	return n[v->kind];
}

/* Converts element i of v to the element type et; writes into slot i of out. */
static int registry_convert_elem(const dalic_schema_t *s, const dalic_arg_schema_t *a,
                                 dalic_arg_type_t et, const dalic_value_t *v, int i,
                                 dalic_value_t *out)
{
	switch (et) {
	case DALIC_ARG_INT:
		if (v->kind == DALIC_V_INT || v->kind == DALIC_V_BOOL) {
			out->i[i] = dalic_value_get_i(v, i);
			return DALIC_OK;
		}
		if (v->kind == DALIC_V_FLOAT && v->f[i] == (double)(int64_t)v->f[i]) {
			out->i[i] = (int64_t)v->f[i];
			return DALIC_OK;
		}
		break;
	case DALIC_ARG_FLOAT:
		if (v->kind == DALIC_V_INT || v->kind == DALIC_V_FLOAT || v->kind == DALIC_V_BOOL) {
			out->f[i] = dalic_value_get_f(v, i);
			return DALIC_OK;
		}
		break;
	case DALIC_ARG_BOOL:
		if (v->kind == DALIC_V_BOOL) {
			out->b[i] = v->b[i];
			return DALIC_OK;
		}
		if (v->kind == DALIC_V_INT && (v->i[i] == 0 || v->i[i] == 1)) {
			out->b[i] = v->i[i];
			return DALIC_OK;
		}
		break;
	case DALIC_ARG_STRING:
	case DALIC_ARG_LAYOUT:
		if (v->kind == DALIC_V_STRING) {
			out->s[i] = strdup(v->s[i]);
			return out->s[i] ? DALIC_OK : DALIC_ENOMEM;
		}
		/* DALI's Python passes str(value) for a string argument: True -> "True" */
		if (v->kind == DALIC_V_BOOL && et == DALIC_ARG_STRING) {
			out->s[i] = strdup(v->b[i] ? "True" : "False");
			return out->s[i] ? DALIC_OK : DALIC_ENOMEM;
		}
		break;
	case DALIC_ARG_DTYPE:
	case DALIC_ARG_IMAGE_TYPE:
	case DALIC_ARG_INTERP_TYPE:
		if (v->kind == DALIC_V_INT && registry_enum_valid(et, v->i[i])) {
			out->i[i] = v->i[i];
			return DALIC_OK;
		}
		if (v->kind == DALIC_V_INT)
			return dalic_fail(
			    DALIC_EARG_TYPE, "operator %s: argument '%s': %lld is not a %s value",
			    s->name, a->name, (long long)v->i[i], dalic_schema_arg_type_name(et));
		if (v->kind == DALIC_V_STRING) {
			int64_t e = registry_enum_value(et, v->s[i]);
			if (e != -1000) {
				out->i[i] = e;
				return DALIC_OK;
			}
			return dalic_fail(DALIC_EARG_TYPE,
			                  "operator %s: argument '%s': '%s' is not a %s", s->name,
			                  a->name, v->s[i], dalic_schema_arg_type_name(et));
		}
		break;
	default: break;
	}
	return dalic_fail(DALIC_EARG_TYPE, "operator %s: argument '%s' expects %s, got %s", s->name,
	                  a->name, dalic_schema_arg_type_name(a->type), registry_vkind_name(v));
}

int dalic_schema_arg_convert(const dalic_schema_t *s, const dalic_arg_schema_t *a,
                             const dalic_value_t *v, dalic_value_t *out)
{
	memset(out, 0, sizeof *out);
	if (v->kind == DALIC_V_NONE)
		return DALIC_OK;
	bool want_list = registry_is_list_type(a->type);
	if (v->is_list && !want_list)
		return dalic_fail(DALIC_EARG_TYPE,
		                  "operator %s: argument '%s' expects %s, got a list", s->name,
		                  a->name, dalic_schema_arg_type_name(a->type));
	dalic_arg_type_t et = registry_elem_type(a->type);
	int rc = dalic_value_list(out, registry_storage_kind(a->type), 0, NULL);
	if (rc)
		return rc;
	free(out->p);
	size_t es = out->kind == DALIC_V_STRING ? sizeof(char *)
		    : out->kind == DALIC_V_BOOL ? sizeof(bool) : 8;
	out->p = calloc((size_t)v->n + 1, es);
	if (!out->p)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	out->n = 0;
	out->is_list = want_list;
	for (int i = 0; i < v->n; i++) {
		rc = registry_convert_elem(s, a, et, v, i, out);
		if (rc) {
			dalic_value_free(out);
			return rc;
		}
		out->n = i + 1;
	}
	if (!want_list && out->n != 1) {
		dalic_value_free(out);
		return dalic_fail(DALIC_EARG_TYPE, "operator %s: argument '%s' expects one value",
				  s->name, a->name);
	}
	return DALIC_OK;
}
