/*
 * The values DALI's Python API adds to the core, each a host type (pyval.h): data nodes,
 * operator namespaces and operators (`fn.x.y`, `ops.X`), ops-API operator objects,
 * @pipeline_def functions, DALIDataType / DALIImageType / DALIInterpType members and
 * ScalarConstants. Their hooks give DataNodes DALI's arithmetic, indexing, methods and
 * conditionals (sdval_node.c); the rest is in sdval.c.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDVAL_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDVAL_H

#include "engine/schema.h"
#include "frontend/script/py/pyval.h"

typedef struct sdpipe sdpipe_t;

enum { SDVAL_ENUM_DTYPE, SDVAL_ENUM_IMAGE, SDVAL_ENUM_INTERP };

typedef struct sdnode {
	const char *name;
	const char *device; /* "cpu" / "gpu" */
	sdpipe_t *pipe;
	bool get; /* node.get() in a debug pipeline: print shows the values */
} sdnode_t;

typedef struct sdenum {
	int type; /* SDVAL_ENUM_* */
	int64_t value;
} sdenum_t;

typedef struct sdsconst {
	pyval_t *value; /* bool, int or float */
	int dtype;      /* DALIDataType */
} sdsconst_t;

typedef struct sdopfn {
	const char *path; /* "" for the namespace root */
	bool ops_api;     /* ops.X (an operator class) rather than fn.x */
} sdopfn_t;

typedef struct sdopobj {
	const dalic_schema_t *schema;
	const struct sdalias *legacy; /* named by DALI's deprecated alias, or NULL */
	const char *module, *display; /* _module / _display_name */
	pydict_t *kwargs;             /* constructor arguments */
} sdopobj_t;

typedef struct sdpipedef {
	pyval_t *func;
	pydict_t *kwargs; /* decorator arguments */
	bool experimental;
	pyval_t *self; /* a @pipeline_def method read through an instance: its first argument */
	bool autoserialize; /* marked by Triton's @autoserialize */
} sdpipedef_t;

extern const pytype_t dalic_sdval_node_type, dalic_sdval_enum_type, dalic_sdval_sconst_type,
    dalic_sdval_opfn_type, dalic_sdval_opobj_type, dalic_sdval_pipedef_type;

/* The payload of v when it has that type, else NULL. */
static inline sdnode_t *dalic_sdval_node(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_node_type) ? v->host.data : NULL;
}
static inline sdenum_t *dalic_sdval_enum(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_enum_type) ? v->host.data : NULL;
}
static inline sdsconst_t *dalic_sdval_sconst(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_sconst_type) ? v->host.data : NULL;
}
static inline sdopfn_t *dalic_sdval_opfn(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_opfn_type) ? v->host.data : NULL;
}
static inline sdopobj_t *dalic_sdval_opobj(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_opobj_type) ? v->host.data : NULL;
}
static inline sdpipedef_t *dalic_sdval_pipedef(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_sdval_pipedef_type) ? v->host.data : NULL;
}

/* ---- constructors (NULL on allocation failure) ---- */
pyval_t *dalic_sdval_new_node(pyarena_t *a, const char *name, const char *device, sdpipe_t *pipe);
pyval_t *dalic_sdval_new_enum(pyarena_t *a, int type, int64_t value);
pyval_t *dalic_sdval_new_sconst(pyarena_t *a, pyval_t *value, int dtype);
pyval_t *dalic_sdval_new_opfn(pyarena_t *a, const char *path, bool ops_api);
pyval_t *dalic_sdval_new_opobj(pyarena_t *a, const dalic_schema_t *schema, const char *module,
                               const char *display);
pyval_t *dalic_sdval_new_pipedef(pyarena_t *a, pyval_t *func, pydict_t *kwargs, bool experimental);

/* DALIDataType / image / interp member name ("FLOAT", "RGB", "INTERP_LINEAR"). */
const char *dalic_sdval_enum_name(int type, int64_t value);
/* A ScalarConstant's value, or v itself. */
pyval_t *dalic_sdval_unwrap(pyval_t *v);

#endif
