/*
 * readers.tfrecord's `features` in the protobuf, as DALI's TFUtil::Feature::SerializeToProtobuf
 * writes it: a vector Argument of type "TFRecord" whose elements ("element i", type
 * "TFRecord") hold four Arguments: `type` (int64: 0 int64, 1 string, 2 float32), `has_shape`
 * (bool), `shape` (int64s; no type when empty) and `default_value` (int64, string or float).
 * dalic keeps each feature as the text of kernels/common/tfrec_feature.h. DALI drops a
 * VarLenFeature's partial shape when it serializes; dalic writes it into `shape` (with
 * has_shape false, where DALI's reader ignores it) and reads it back from there.
 */
#include "frontend/proto/proto_internal.h"

#include "engine/error.h"
#include "kernels/common/tfrec_feature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const DaliProto__Argument *tfrec_sub(const DaliProto__Argument *e, const char *name,
                                            size_t pos)
{
	for (size_t i = 0; i < e->n_extra_args; i++)
		if (e->extra_args[i]->name && !strcmp(e->extra_args[i]->name, name))
			return e->extra_args[i];
	return pos < e->n_extra_args ? e->extra_args[pos] : NULL;
}

static int tfrec_bad(const char *inst, const char *schema, const char *arg, int i, const char *why)
{
	return dalic_fail(DALIC_EPARSE, "operator '%s' (%s), argument '%s', feature %d: %s", inst,
	                  schema, arg, i, why);
}

/* One "TFRecord" element into f. */
static int tfrec_decode_one(const DaliProto__Argument *e, dalic_tfrec_feature_t *f, const char *inst,
                            const char *schema, const char *arg, int i)
{
	const DaliProto__Argument *type = tfrec_sub(e, "type", 0), *has = tfrec_sub(e, "has_shape", 1),
	                          *shape = tfrec_sub(e, "shape", 2),
	                          *dflt = tfrec_sub(e, "default_value", 3);
	memset(f, 0, sizeof *f);
	if (!type || type->n_ints != 1 || type->ints[0] < TFREC_INT64 || type->ints[0] > TFREC_FLOAT32)
		return tfrec_bad(inst, schema, arg, i, "no valid `type` (0 int64, 1 string, 2 float32)");
	if (!has || has->n_bools != 1)
		return tfrec_bad(inst, schema, arg, i, "no `has_shape` bool");
	if (!dflt)
		return tfrec_bad(inst, schema, arg, i, "no `default_value`");
	f->type = (tfrec_type_t)type->ints[0];
	f->fixed = has->bools[0];
	if (shape && shape->n_ints > DALIC_MAX_NDIM)
		return tfrec_bad(inst, schema, arg, i, "a shape of too many dimensions");
	for (size_t d = 0; shape && d < shape->n_ints; d++) {
		if (shape->ints[d] < 0)
			return tfrec_bad(inst, schema, arg, i, "a negative extent in `shape`");
		f->shape[f->ndim++] = shape->ints[d];
	}
	if (f->type == TFREC_INT64 && dflt->n_ints == 1) {
		f->dflt_int = dflt->ints[0];
	} else if (f->type == TFREC_FLOAT32 && dflt->n_floats == 1) {
		f->dflt_float = dflt->floats[0];
	} else if (f->type == TFREC_STRING && dflt->n_strings == 1) {
		f->dflt_str = (char *)dflt->strings[0]; /* borrowed until formatted */
		f->dflt_len = strlen(dflt->strings[0]);
	} else {
		return tfrec_bad(inst, schema, arg, i, "`default_value` does not match `type`");
	}
	return DALIC_OK;
}

int dalic_proto_tfrec_decode(const DaliProto__Argument *a, const char *inst, const char *schema,
                             dalic_value_t *out)
{
	size_t n = a->is_vector ? a->n_extra_args : 1;
	if (n > 4096)
		return tfrec_bad(inst, schema, a->name, 0, "too many features");
	char **texts = calloc(n + 1, sizeof *texts);
	if (!texts)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = DALIC_OK;
	for (size_t i = 0; i < n && !rc; i++) {
		dalic_tfrec_feature_t f;
		rc = tfrec_decode_one(a->is_vector ? a->extra_args[i] : a, &f, inst, schema, a->name,
		                      (int)i);
		if (rc)
			break;
		int len = dalic_tfrec_feature_format(&f, NULL, 0);
		texts[i] = malloc((size_t)len + 1);
		if (!texts[i])
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
		else
			dalic_tfrec_feature_format(&f, texts[i], (size_t)len + 1);
	}
	if (!rc)
		rc = dalic_value_list(out, DALIC_V_STRING, (int)n, texts);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	return rc;
}

/* A scalar Argument `name` (the arena owns what alloc returns). */
static DaliProto__Argument *tfrec_new(dalic_proto_alloc_fn alloc, void *ctx, const char *name,
                                      const char *type)
{
	DaliProto__Argument *m = alloc(ctx, 1, sizeof *m);
	if (!m)
		return NULL;
	dali_proto__argument__init(m);
	m->name = (char *)name;
	m->type = (char *)type;
	return m;
}

static DaliProto__Argument *tfrec_encode_one(const dalic_tfrec_feature_t *f,
                                             dalic_proto_alloc_fn alloc, void *ctx,
                                             const char *ename)
{
	DaliProto__Argument *e = tfrec_new(alloc, ctx, ename, "TFRecord");
	DaliProto__Argument **sub = alloc(ctx, 4, sizeof *sub);
	if (!e || !sub)
		return NULL;
	sub[0] = tfrec_new(alloc, ctx, "type", "int64");
	sub[1] = tfrec_new(alloc, ctx, "has_shape", "bool");
	sub[2] = tfrec_new(alloc, ctx, "shape", f->ndim ? "int64" : NULL);
	static const char *const dflt_types[] = {"int64", "string", "float"};
	sub[3] = tfrec_new(alloc, ctx, "default_value", dflt_types[f->type]);
	if (!sub[0] || !sub[1] || !sub[2] || !sub[3])
		return NULL;
	int64_t *ints = alloc(ctx, (size_t)f->ndim + 2, sizeof *ints);
	protobuf_c_boolean *b = alloc(ctx, 1, sizeof *b);
	if (!ints || !b)
		return NULL;
	ints[0] = f->type;
	sub[0]->ints = ints;
	sub[0]->n_ints = 1;
	*b = f->fixed;
	sub[1]->bools = b;
	sub[1]->n_bools = 1;
	memcpy(ints + 2, f->shape, sizeof(int64_t) * (size_t)f->ndim);
	sub[2]->ints = ints + 2;
	sub[2]->n_ints = (size_t)f->ndim;
	if (f->type == TFREC_INT64) {
		ints[1] = f->dflt_int;
		sub[3]->ints = ints + 1;
		sub[3]->n_ints = 1;
	} else if (f->type == TFREC_FLOAT32) {
		float *v = alloc(ctx, 1, sizeof *v);
		if (!v)
			return NULL;
		*v = f->dflt_float;
		sub[3]->floats = v;
		sub[3]->n_floats = 1;
	} else {
		char **s = alloc(ctx, 1, sizeof *s);
		char *copy = alloc(ctx, f->dflt_len + 1, 1);
		if (!s || !copy)
			return NULL;
		memcpy(copy, f->dflt_str, f->dflt_len);
		*s = copy;
		sub[3]->strings = s;
		sub[3]->n_strings = 1;
	}
	e->extra_args = sub;
	e->n_extra_args = 4;
	return e;
}

int dalic_proto_tfrec_encode(const dalic_value_t *v, DaliProto__Argument *m,
                             dalic_proto_alloc_fn alloc, void *ctx)
{
	m->type = "TFRecord";
	m->is_vector = true;
	m->extra_args = alloc(ctx, (size_t)v->n + 1, sizeof *m->extra_args);
	if (!m->extra_args)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < v->n; i++) {
		dalic_tfrec_feature_t f;
		char err[256], ename[32];
		if (dalic_tfrec_feature_parse(v->s[i], &f, err, sizeof err))
			return dalic_fail(DALIC_EINVAL, "argument '%s', feature %d: %s", m->name, i,
			                  err);
		snprintf(ename, sizeof ename, "element %d", i);
		char *name = alloc(ctx, strlen(ename) + 1, 1);
		DaliProto__Argument *e = name ? tfrec_encode_one(&f, alloc, ctx, name) : NULL;
		if (name)
			memcpy(name, ename, strlen(ename) + 1);
		dalic_tfrec_feature_free(&f);
		if (!e)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		m->extra_args[m->n_extra_args++] = e;
	}
	return DALIC_OK;
}
