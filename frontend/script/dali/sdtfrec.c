/*
 * nvidia.dali.tfrecord (imported as `tfrec`): int64 / string / float32, FixedLenFeature and
 * VarLenFeature, and DALI's Python wrapper of readers.tfrecord: the `features` dict becomes
 * the `feature_names` and `features` arguments (features in the text form of
 * kernels/common/tfrec_feature.h) and the outputs come back as a dict keyed by feature name.
 */
#include "frontend/script/dali/sdtfrec.h"

#include "kernels/common/tfrec_feature.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pymod.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A Feature value holds its text. */
static void sdtfrec_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "%s", (const char *)v->host.data);
}

const pytype_t dalic_sdtfrec_feature_type = {
    .name = "Feature",
    .format = sdtfrec_format,
};

static int sdtfrec_shape(pyinterp_t *I, const pynode_t *at, const char *what, pyval_t *v,
                         dalic_tfrec_feature_t *f)
{
	if (v->kind != PV_LIST && v->kind != PV_TUPLE)
		return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
		                          "TypeError: %s: the shape must be a list of ints, not %s",
		                          what, dalic_pyval_type_name(v));
	pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
	int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
	if (n > DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "%s: a shape of more than %d "
		                          "dimensions", what, DALIC_MAX_NDIM);
	for (int i = 0; i < n; i++) {
		if (items[i]->kind != PV_INT || items[i]->i < 0)
			return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
			                          "TypeError: %s: shape extents are non-negative ints",
			                          what);
		f->shape[i] = items[i]->i;
	}
	f->ndim = n;
	return DALIC_OK;
}

/* FixedLenFeature(shape, dtype, default) / VarLenFeature([partial_shape,] dtype, default). */
static int sdtfrec_make(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool fixed,
                        pyval_t **out)
{
	const char *what = fixed ? "FixedLenFeature" : "VarLenFeature";
	int first = fixed || args->npos == 3 ? 1 : 0;
	if (args->nkw || args->npos != 2 + first)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s(): takes %s positional arguments", what,
		                          fixed ? "(shape, dtype, default_value)"
		                                : "([partial_shape,] dtype, default_value)");
	dalic_tfrec_feature_t f = {.fixed = fixed};
	if (first)
		DALIC_TRY(sdtfrec_shape(I, at, what, args->pos[0], &f));
	pyval_t *type = args->pos[first], *dflt = args->pos[first + 1];
	if (type->kind != PV_INT || type->i < TFREC_INT64 || type->i > TFREC_FLOAT32)
		return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
		                          "TypeError: %s(): the type is tfrec.int64, tfrec.string or "
		                          "tfrec.float32",
		                          what);
	f.type = (tfrec_type_t)type->i;
	if (f.type == TFREC_STRING && dflt->kind == PV_STR) {
		f.dflt_str = (char *)dflt->str.s; /* only read by the formatter */
		f.dflt_len = dflt->str.len;
	} else if (f.type == TFREC_INT64 && (dflt->kind == PV_INT || dflt->kind == PV_BOOL)) {
		f.dflt_int = dflt->kind == PV_INT ? dflt->i : dflt->b;
	} else if (f.type == TFREC_FLOAT32 && dalic_pyval_is_number(dflt)) {
		f.dflt_float = (float)dalic_pyval_as_double(dflt);
	} else {
		return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
		                          "TypeError: %s(): a default value of type %s does not fit a "
		                          "%s feature",
		                          what, dalic_pyval_type_name(dflt),
		                          dalic_tfrec_type_name(f.type));
	}
	int len = dalic_tfrec_feature_format(&f, NULL, 0);
	char *text = dalic_pyarena_alloc(I->a, (size_t)len + 1);
	if (!text)
		return dalic_pyeval_oom(I, at);
	dalic_tfrec_feature_format(&f, text, (size_t)len + 1);
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_sdtfrec_feature_type, text));
}

static int sdtfrec_fixed(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	return sdtfrec_make(I, at, args, true, out);
}

static int sdtfrec_var(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	return sdtfrec_make(I, at, args, false, out);
}

int dalic_sdtfrec_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m ||
	    dalic_pymod_set(I, m, "int64", dalic_pyval_int(I->a, TFREC_INT64)) ||
	    dalic_pymod_set(I, m, "string", dalic_pyval_int(I->a, TFREC_STRING)) ||
	    dalic_pymod_set(I, m, "float32", dalic_pyval_int(I->a, TFREC_FLOAT32)) ||
	    dalic_pymod_set(I, m, "FixedLenFeature",
	                    dalic_pybi_make(I, "FixedLenFeature", sdtfrec_fixed, NULL, NULL)) ||
	    dalic_pymod_set(I, m, "VarLenFeature",
	                    dalic_pybi_make(I, "VarLenFeature", sdtfrec_var, NULL, NULL)))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

bool dalic_sdtfrec_is_features(const dalic_schema_t *s, const char *arg)
{
	const dalic_arg_schema_t *a = dalic_schema_arg(s, arg);
	return a && a->type == DALIC_ARG_TF_FEATURE_LIST;
}

/* A Feature value's text, or an error naming the feature. */
static int sdtfrec_text(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *v,
                        pyval_t **out)
{
	if (!dalic_pyval_is(v, &dalic_sdtfrec_feature_type))
		return dalic_pyeval_error(
		    I, at, DALIC_EARG_TYPE,
		    "TypeError: Expected `nvidia.dali.tfrecord.Feature` for the \"%s\", but got %s. "
		    "Use `nvidia.dali.tfrecord.FixedLenFeature` or "
		    "`nvidia.dali.tfrecord.VarLenFeature` to define the features to extract.",
		    name, dalic_pyval_type_name(v));
	*out = dalic_pyval_cstr(I->a, v->host.data);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

int dalic_sdtfrec_features(pyinterp_t *I, const pynode_t *at, pyval_t **value, pyval_t **names)
{
	pyval_t *v = *value, *texts = dalic_pyval_list(I->a, 4), *t;
	if (!texts)
		return dalic_pyeval_oom(I, at);
	if (v->kind == PV_DICT) {
		/* DALI's wrapper: the dict's keys in order become feature_names */
		*names = dalic_pyval_list(I->a, 4);
		if (!*names)
			return dalic_pyeval_oom(I, at);
		pyval_t *key, *feat;
		for (int it = 0; dalic_pydict_next(v->dict, &it, &key, &feat);) {
			if (key->kind != PV_STR)
				return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
				                          "TypeError: feature names are str, not %s",
				                          dalic_pyval_type_name(key));
			DALIC_TRY(sdtfrec_text(I, at, key->str.s, feat, &t));
			if (dalic_pyval_list_append(I->a, texts, t) ||
			    dalic_pyval_list_append(I->a, *names, key))
				return dalic_pyeval_oom(I, at);
		}
	} else if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
		/* the internal form: a list of Feature values next to feature_names */
		pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
		int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
		for (int i = 0; i < n; i++) {
			char name[32];
			snprintf(name, sizeof name, "feature %d", i);
			DALIC_TRY(sdtfrec_text(I, at, name, items[i], &t));
			if (dalic_pyval_list_append(I->a, texts, t))
				return dalic_pyeval_oom(I, at);
		}
	} else {
		DALIC_TRY(sdtfrec_text(I, at, "features", v, &t));
		if (dalic_pyval_list_append(I->a, texts, t))
			return dalic_pyeval_oom(I, at);
	}
	*value = texts;
	return DALIC_OK;
}

int dalic_sdtfrec_outputs(pyinterp_t *I, const pynode_t *at, pyval_t *names, pyval_t **out)
{
	pyval_t *res = *out, *d = dalic_pyval_dict(I->a);
	if (!d)
		return dalic_pyeval_oom(I, at);
	bool list = res->kind == PV_LIST;
	for (int i = 0; i < names->list->n; i++) {
		pyval_t *node = list ? res->list->items[i] : res;
		if (dalic_pydict_set(I->a, d->dict, names->list->items[i], node))
			return dalic_pyeval_oom(I, at);
	}
	*out = d;
	return DALIC_OK;
}
