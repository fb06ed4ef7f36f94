/*
 * The nvidia.dali module tree (see sdlib.h), built on first import by the openers this
 * file registers with the core's module machinery.
 */
#include "frontend/script/dali/sdlib.h"

#include "engine/dtype.h"
#include "frontend/script/dali/sdarith.h"
#include "frontend/script/dali/sdconst.h"
#include "frontend/script/dali/sdembed.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/dali/sdsource.h"
#include "frontend/script/dali/sdtfrec.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pymod.h"

#include <stdio.h>
#include <string.h>

static int sdlib_set_builtin(pyinterp_t *I, pyval_t *mod, const char *name, pycfn_t fn)
{
	return dalic_pymod_set(I, mod, name, dalic_pybi_make(I, name, fn, NULL, NULL));
}

/* ---- nvidia.dali.types ---------------------------------------------------------------- */

static const struct {
	const char *name;
	int value;
} sdlib_dtypes[] = {
    {"NO_TYPE", DALIC_NO_TYPE},
    {"UINT8", DALIC_UINT8},
    {"UINT16", DALIC_UINT16},
    {"UINT32", DALIC_UINT32},
    {"UINT64", DALIC_UINT64},
    {"INT8", DALIC_INT8},
    {"INT16", DALIC_INT16},
    {"INT32", DALIC_INT32},
    {"INT64", DALIC_INT64},
    {"FLOAT16", DALIC_FLOAT16},
    {"FLOAT", DALIC_FLOAT},
    {"FLOAT64", DALIC_FLOAT64},
    {"BOOL", DALIC_BOOL},
    {"STRING", DALIC_STRING},
    {"IMAGE_TYPE", DALIC_IMAGE_TYPE},
    {"DATA_TYPE", DALIC_DATA_TYPE},
    {"INTERP_TYPE", DALIC_INTERP_TYPE},
    {"TENSOR_LAYOUT", DALIC_TENSOR_LAYOUT},
};

static int sdlib_constant(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	return dalic_sdconst_types_constant(I, at, args, out);
}

static int sdlib_enum_namespace(pyinterp_t *I, pyval_t *types, const char *ns_name, int type,
                                const char *const *names, const int *values, int n)
{
	pyval_t *ns = dalic_pymod_new(I, ns_name, false);
	if (!ns)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		pyval_t *e = dalic_sdval_new_enum(I->a, type, values[i]);
		if (dalic_pymod_set(I, ns, names[i], e) || dalic_pymod_set(I, types, names[i], e))
			return DALIC_ENOMEM;
	}
	return dalic_pymod_set(I, types, ns_name, ns);
}

static int sdlib_make_types(pyinterp_t *I, pyval_t *types)
{
	int n = (int)(sizeof sdlib_dtypes / sizeof *sdlib_dtypes);
	const char *names[32];
	int values[32];
	for (int i = 0; i < n; i++) {
		names[i] = sdlib_dtypes[i].name;
		values[i] = sdlib_dtypes[i].value;
	}
	DALIC_TRY(
	    sdlib_enum_namespace(I, types, "DALIDataType", SDVAL_ENUM_DTYPE, names, values, n));
	static const char *images[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	static const int image_values[] = {DALIC_RGB, DALIC_BGR, DALIC_GRAY, DALIC_YCbCr,
	                                   DALIC_ANY_DATA};
	DALIC_TRY(sdlib_enum_namespace(I, types, "DALIImageType", SDVAL_ENUM_IMAGE, images,
	                               image_values, 5));
	static const char *interps[] = {"INTERP_NN",       "INTERP_LINEAR",     "INTERP_CUBIC",
	                                "INTERP_LANCZOS3", "INTERP_TRIANGULAR", "INTERP_GAUSSIAN"};
	static const int interp_values[] = {0, 1, 2, 3, 4, 5};
	DALIC_TRY(sdlib_enum_namespace(I, types, "DALIInterpType", SDVAL_ENUM_INTERP, interps,
	                               interp_values, 6));
	/* the pre-0.22 TensorLayout names, kept by DALI as layout strings */
	static const char *layouts[][2] = {
	    {"NCHW", "CHW"}, {"NHWC", "HWC"}, {"NFHWC", "FHWC"}, {"NFCHW", "FCHW"}, {"SAMPLE", ""}};
	for (int i = 0; i < 5; i++)
		DALIC_TRY(dalic_pymod_set(I, types, layouts[i][0],
		                          dalic_pyval_cstr(I->a, layouts[i][1])));
	return sdlib_set_builtin(I, types, "Constant", sdlib_constant);
}

/* ---- nvidia.dali ---------------------------------------------------------------------- */

static int sdlib_new_axis(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos > 1 || (args->npos && args->pos[0]->kind != PV_STR) ||
	    (args->npos && args->pos[0]->str.len != 1))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: Axis name must be a single-character string");
	PYEVAL_RET(dalic_pybi_make(I, "newaxis", sdlib_new_axis, NULL,
	                           args->npos ? (void *)args->pos[0]->str.s : NULL));
}

static int sdlib_datanode_type(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EUNSUPPORTED,
	    "creating DataNode objects directly is not supported; they come from operators");
}

/* the DataNode class as a value: isinstance(x, DataNode) works, calling it is an error */
static int sdlib_set_datanode(pyinterp_t *I, pyval_t *mod)
{
	pyval_t *t = dalic_pybi_make(I, "DataNode", sdlib_datanode_type, NULL, NULL);
	if (t)
		t->builtin.type_of = &dalic_sdval_node_type;
	return dalic_pymod_set(I, mod, "DataNode", t);
}

static int sdlib_identity_decorator(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                    const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: expected one function");
	PYEVAL_RET(args->pos[0]);
}

static pyval_t *sdlib_pipeline_class(pyinterp_t *I)
{
	pyval_t *pc = dalic_pyval_new(I->a, PV_CLASS);
	if (pc)
		pc->cls = dalic_sdali_state(I)->pipeline_cls;
	return pc;
}

static int sdlib_open_nvidia(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false), *sub;
	if (!m)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali", &sub));
	if (dalic_pymod_set(I, m, "dali", sub))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_dali(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	/* unknown members (plugin, backend, ...) are opaque */
	pyval_t *m = dalic_pymod_new(I, name, true), *sub;
	if (!m)
		return dalic_pyeval_oom(I, at);
	static const char *subs[] = {"fn",       "ops",       "types",   "math",
	                             "pipeline", "data_node", "tfrecord"};
	for (int i = 0; i < 7; i++) {
		char full[64];
		snprintf(full, sizeof full, "nvidia.dali.%s", subs[i]);
		DALIC_TRY(dalic_pymod_get(I, at, full, &sub));
		if (dalic_pymod_set(I, m, subs[i], sub))
			return dalic_pyeval_oom(I, at);
	}
	/* nvidia.dali.experimental.pipeline_def: the spelling of older DALI docs (2.4 keeps it
	 * only as nvidia.dali.pipeline.experimental.pipeline_def) */
	DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali.experimental", &sub));
	if (dalic_pymod_set(I, m, "experimental", sub))
		return dalic_pyeval_oom(I, at);
	if (dalic_pymod_set(I, m, "pipeline_def", dalic_sdpipe_def_builtin(I, false)) ||
	    sdlib_set_builtin(I, m, "newaxis", sdlib_new_axis) ||
	    dalic_pymod_set(I, m, "__version__", dalic_pyval_cstr(I->a, "dalic-" DALIC_VERSION)) ||
	    dalic_pymod_set(I, m, "Pipeline", sdlib_pipeline_class(I)))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_fn(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	/* the namespace roots: attributes extend the operator path */
	PYEVAL_RET(dalic_sdval_new_opfn(I->a, "", !strcmp(name, "nvidia.dali.ops")));
}

static int sdlib_open_types(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m || sdlib_make_types(I, m) || dalic_sdsource_types(I, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_math(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m || dalic_sdarith_math_module(I, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_pipeline(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	bool exp = !strcmp(name, "nvidia.dali.pipeline.experimental");
	pyval_t *m = dalic_pymod_new(I, name, false), *sub;
	if (!m || dalic_pymod_set(I, m, "pipeline_def", dalic_sdpipe_def_builtin(I, exp)) ||
	    dalic_pymod_set(I, m, "Pipeline", sdlib_pipeline_class(I)) ||
	    sdlib_set_builtin(I, m, "do_not_convert", sdlib_identity_decorator) ||
	    sdlib_set_datanode(I, m))
		return dalic_pyeval_oom(I, at);
	if (!exp) {
		DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali.pipeline.experimental", &sub));
		if (dalic_pymod_set(I, m, "experimental", sub))
			return dalic_pyeval_oom(I, at);
	}
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_experimental(pyinterp_t *I, const pynode_t *at, const char *name,
                                   pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, true);
	if (!m || dalic_pymod_set(I, m, "pipeline_def", dalic_sdpipe_def_builtin(I, true)))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int sdlib_open_data_node(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m || sdlib_set_datanode(I, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t sdlib_modules[] = {
    {"nvidia", sdlib_open_nvidia},
    {"nvidia.dali", sdlib_open_dali},
    {"nvidia.dali.fn", sdlib_open_fn},
    {"nvidia.dali.ops", sdlib_open_fn},
    {"nvidia.dali.types", sdlib_open_types},
    {"nvidia.dali.math", sdlib_open_math},
    {"nvidia.dali.pipeline", sdlib_open_pipeline},
    {"nvidia.dali.pipeline.experimental", sdlib_open_pipeline},
    {"nvidia.dali.data_node", sdlib_open_data_node},
    {"nvidia.dali.experimental", sdlib_open_experimental},
    {"nvidia.dali.tfrecord", dalic_sdtfrec_open},
    {NULL, NULL},
};

int dalic_sdlib_open(pyinterp_t *I)
{
	DALIC_TRY(dalic_sdembed_register(I)); /* nvidia.dali.auto_aug */
	return dalic_pymod_preload(I, sdlib_modules);
}
