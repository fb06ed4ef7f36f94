/*
 * Runtime values of the script evaluator: Python's built-in types (None, bool, int, float,
 * str, tuple, list, dict, slice), functions, classes and instances, and the DALI-specific
 * objects a pipeline definition handles — data nodes, operator namespaces (`fn.x.y`,
 * `ops.X`), operator objects, DALIDataType / image / interp enum members, ScalarConstants —
 * plus "opaque" values that stand for anything dalic does not model (matplotlib, pipeline
 * run results...): they absorb every operation so display code can run past them, and an
 * opaque value reaching a pipeline definition is a located error. All values live in the
 * load's arena; lists, dicts and instances are shared by reference like in Python.
 */
#ifndef DALIC_FRONTEND_SCRIPT_VALUE_H
#define DALIC_FRONTEND_SCRIPT_VALUE_H

#include "engine/schema.h"
#include "frontend/script/py/pyast.h"

#include <stdio.h>

typedef enum {
	PV_NONE,
	PV_BOOL,
	PV_INT,
	PV_FLOAT,
	PV_STR,
	PV_TUPLE,
	PV_LIST,
	PV_DICT,
	PV_SLICE,
	PV_ELLIPSIS,
	PV_FUNC,    /* def or lambda */
	PV_BUILTIN, /* C function, maybe bound to a receiver */
	PV_BOUND,   /* user function bound to an instance */
	PV_CLASS,
	PV_INSTANCE,
	PV_SUPER,
	PV_MODULE,
	PV_OPFN,    /* fn.<path> / ops.<path>: operator namespace or operator */
	PV_OPOBJ,   /* ops API operator object: ops.X(args) */
	PV_PIPEDEF, /* function decorated with @pipeline_def */
	PV_NODE,    /* DataNode */
	PV_ENUM,    /* DALIDataType / DALIImageType / DALIInterpType member */
	PV_SCONST,  /* types.Constant(scalar) */
	PV_OPAQUE,
	PV_UNDEF, /* a variable not assigned in a conditional branch */
} pyval_kind_t;

enum { ENUM_DTYPE, ENUM_IMAGE, ENUM_INTERP };

typedef struct pyval pyval_t;
typedef struct pydict pydict_t;
typedef struct pyinterp pyinterp_t;
typedef struct pyframe pyframe_t;
typedef struct sdpipe sdpipe_t;
typedef struct pyclass pyclass_t;

typedef struct pylist {
	pyval_t **items;
	int n, cap;
} pylist_t;

typedef struct pyargs {
	pyval_t **pos;
	int npos;
	const char **kwnames;
	pyval_t **kwvals;
	int nkw;
} pyargs_t;

/* A built-in callable. `self` is the receiver for methods of built-in types (NULL
 * otherwise); `at` locates errors. */
typedef int (*pycfn_t)(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out);

typedef struct pyfunc {
	const char *name;
	const pyparams_t *params;
	const pynode_list_t *body; /* def */
	const pynode_t *expr;      /* lambda */
	const pyfunc_info_t *info; /* def only */
	pyval_t **defaults;        /* per parameter, NULL when none */
	pyframe_t *closure;        /* defining frame (NULL at module level) */
	pyclass_t *owner;          /* class whose body defined it (for super()) */
	const pynode_t *node;
} pyfunc_t;

struct pyclass {
	const char *name;
	pyclass_t **bases;
	int nbases;
	pydict_t *attrs;
	bool pipeline;       /* Pipeline or derived from it */
	bool opaque_base;    /* derived from something dalic does not model */
	bool exception;      /* an exception class */
	pycfn_t native_init; /* built-in __init__ (Pipeline) */
};

typedef struct pyinst {
	pyclass_t *cls;
	pydict_t *attrs;
	sdpipe_t *pipe;      /* the pipeline this object is (classes derived from Pipeline) */
	const char *message; /* exceptions */
} pyinst_t;

typedef struct pymodobj {
	const char *name;
	pydict_t *attrs;
	bool opaque; /* unknown attributes become opaque values */
} pymodobj_t;

struct pyval {
	pyval_kind_t kind;
	union {
		bool b;
		int64_t i;
		double f;
		struct {
			const char *s;
			size_t len;
		} str;
		struct {
			pyval_t **items;
			int n;
		} tuple;
		pylist_t *list;
		pydict_t *dict;
		struct {
			pyval_t *lo, *hi, *step;
		} slice;
		pyfunc_t *func;
		struct {
			const char *name;
			pycfn_t fn;
			pyval_t *self;
			void *data;
		} builtin;
		struct {
			pyval_t *self, *func;
		} bound;
		pyclass_t *cls;
		pyinst_t *inst;
		struct {
			pyclass_t *cls; /* lookup starts after this class */
			pyval_t *self;
		} super;
		pymodobj_t *mod;
		struct {
			const char *path; /* "" for the namespace root */
			bool ops_api;
		} opfn;
		struct {
			const dalic_schema_t *schema;
			const char *module, *display; /* _module / _display_name */
			pydict_t *kwargs;             /* constructor arguments */
		} opobj;
		struct {
			pyval_t *func;
			pydict_t *kwargs; /* decorator arguments */
			bool experimental;
		} pipedef;
		struct {
			const char *name;
			const char *device; /* "cpu" / "gpu" */
			sdpipe_t *pipe;
			bool get; /* node.get() in a debug pipeline: print shows the values */
		} node;
		struct {
			int type; /* ENUM_* */
			int64_t value;
		} en;
		struct {
			pyval_t *value; /* bool, int or float */
			int dtype;      /* DALIDataType */
		} sconst;
		struct {
			const char *what; /* where it came from, for messages */
		} opaque;
		struct {
			const char *name;
		} undef;
	};
};

/* ---- constructors (NULL on allocation failure) ---- */
pyval_t *dalic_pyval_new(pyarena_t *a, pyval_kind_t kind);
pyval_t *dalic_pyval_none(void);
pyval_t *dalic_pyval_true(void);
pyval_t *dalic_pyval_false(void);
pyval_t *dalic_pyval_bool(bool b);
pyval_t *dalic_pyval_int(pyarena_t *a, int64_t i);
pyval_t *dalic_pyval_float(pyarena_t *a, double f);
pyval_t *dalic_pyval_str(pyarena_t *a, const char *s, size_t len); /* copies */
pyval_t *dalic_pyval_cstr(pyarena_t *a, const char *s);            /* copies */
pyval_t *dalic_pyval_tuple(pyarena_t *a, int n);                   /* n NULL slots to fill */
pyval_t *dalic_pyval_list(pyarena_t *a, int cap);
pyval_t *dalic_pyval_dict(pyarena_t *a);
pyval_t *dalic_pyval_opaque(pyarena_t *a, const char *what);
pyval_t *dalic_sdval_enum(pyarena_t *a, int type, int64_t value);
pyval_t *dalic_sdval_node(pyarena_t *a, const char *name, const char *device, sdpipe_t *pipe);
int dalic_pyval_list_append(pyarena_t *a, pyval_t *list, pyval_t *item);

/* ---- dicts: insertion-ordered hash maps with Python key equality ---- */
pydict_t *dalic_pydict_new(pyarena_t *a);
/* Errors: DALIC_EINVAL for an unhashable key (message left to the caller). */
int dalic_pydict_set(pyarena_t *a, pydict_t *d, pyval_t *key, pyval_t *value);
pyval_t *dalic_pydict_get(const pydict_t *d, const pyval_t *key);
pyval_t *dalic_pydict_get_str(const pydict_t *d, const char *key);
int dalic_pydict_set_str(pyarena_t *a, pydict_t *d, const char *key, pyval_t *value);
bool dalic_pydict_del(pydict_t *d, const pyval_t *key);
int dalic_pydict_len(const pydict_t *d);
/* Iteration in insertion order: for (int i = 0; dalic_pydict_next(d, &i, &k, &v);) */
bool dalic_pydict_next(const pydict_t *d, int *it, pyval_t **key, pyval_t **value);
bool dalic_pyval_hashable(const pyval_t *v);

/* ---- Python semantics ---- */
bool dalic_pyval_equal(const pyval_t *x, const pyval_t *y); /* ==, for values that have it */
const char *dalic_pyval_type_name(const pyval_t *v);        /* Python's type name */
bool dalic_pyval_is_number(const pyval_t *v);               /* bool, int or float */
double dalic_pyval_as_double(const pyval_t *v);
/* Appends str(v) (repr when `repr`) to a growing buffer; returns false when out of memory. */
typedef struct pybuf {
	char *s;
	size_t n, cap;
	bool oom;
} pybuf_t;
void dalic_pybuf_put(pybuf_t *b, const char *s, size_t n);
void dalic_pybuf_puts(pybuf_t *b, const char *s);
void dalic_pybuf_printf(pybuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dalic_pybuf_free(pybuf_t *b);
void dalic_pyval_format(pybuf_t *b, const pyval_t *v, bool repr);
/* Python's repr of a float: shortest text that reads back exactly. */
void dalic_pyval_float_repr(char *buf, size_t n, double f);
/* DALIDataType / image / interp member name ("FLOAT", "RGB", "INTERP_LINEAR"). */
const char *dalic_sdval_enum_name(int type, int64_t value);

#endif
