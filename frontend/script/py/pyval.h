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
	SV_NONE,
	SV_BOOL,
	SV_INT,
	SV_FLOAT,
	SV_STR,
	SV_TUPLE,
	SV_LIST,
	SV_DICT,
	SV_SLICE,
	SV_ELLIPSIS,
	SV_FUNC,    /* def or lambda */
	SV_BUILTIN, /* C function, maybe bound to a receiver */
	SV_BOUND,   /* user function bound to an instance */
	SV_CLASS,
	SV_INSTANCE,
	SV_SUPER,
	SV_MODULE,
	SV_OPFN,    /* fn.<path> / ops.<path>: operator namespace or operator */
	SV_OPOBJ,   /* ops API operator object: ops.X(args) */
	SV_PIPEDEF, /* function decorated with @pipeline_def */
	SV_NODE,    /* DataNode */
	SV_ENUM,    /* DALIDataType / DALIImageType / DALIInterpType member */
	SV_SCONST,  /* types.Constant(scalar) */
	SV_OPAQUE,
	SV_UNDEF, /* a variable not assigned in a conditional branch */
} sv_kind_t;

enum { ENUM_DTYPE, ENUM_IMAGE, ENUM_INTERP };

typedef struct sv sv_t;
typedef struct svdict svdict_t;
typedef struct sinterp sinterp_t;
typedef struct sframe sframe_t;
typedef struct spipe spipe_t;
typedef struct svclass svclass_t;

typedef struct svlist {
	sv_t **items;
	int n, cap;
} svlist_t;

typedef struct sargs {
	sv_t **pos;
	int npos;
	const char **kwnames;
	sv_t **kwvals;
	int nkw;
} sargs_t;

/* A built-in callable. `self` is the receiver for methods of built-in types (NULL
 * otherwise); `at` locates errors. */
typedef int (*sbuiltin_fn)(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                           sv_t **out);

typedef struct svfunc {
	const char *name;
	const sparams_t *params;
	const snode_list_t *body; /* def */
	const snode_t *expr;      /* lambda */
	const sfunc_info_t *info; /* def only */
	sv_t **defaults;          /* per parameter, NULL when none */
	sframe_t *closure;        /* defining frame (NULL at module level) */
	svclass_t *owner;         /* class whose body defined it (for super()) */
	const snode_t *node;
} svfunc_t;

struct svclass {
	const char *name;
	svclass_t **bases;
	int nbases;
	svdict_t *attrs;
	bool pipeline;           /* Pipeline or derived from it */
	bool opaque_base;        /* derived from something dalic does not model */
	bool exception;          /* an exception class */
	sbuiltin_fn native_init; /* built-in __init__ (Pipeline) */
};

typedef struct svinst {
	svclass_t *cls;
	svdict_t *attrs;
	spipe_t *pipe;       /* the pipeline this object is (classes derived from Pipeline) */
	const char *message; /* exceptions */
} svinst_t;

typedef struct svmodule {
	const char *name;
	svdict_t *attrs;
	bool opaque; /* unknown attributes become opaque values */
} svmodule_t;

struct sv {
	sv_kind_t kind;
	union {
		bool b;
		int64_t i;
		double f;
		struct {
			const char *s;
			size_t len;
		} str;
		struct {
			sv_t **items;
			int n;
		} tuple;
		svlist_t *list;
		svdict_t *dict;
		struct {
			sv_t *lo, *hi, *step;
		} slice;
		svfunc_t *func;
		struct {
			const char *name;
			sbuiltin_fn fn;
			sv_t *self;
			void *data;
		} builtin;
		struct {
			sv_t *self, *func;
		} bound;
		svclass_t *cls;
		svinst_t *inst;
		struct {
			svclass_t *cls; /* lookup starts after this class */
			sv_t *self;
		} super;
		svmodule_t *mod;
		struct {
			const char *path; /* "" for the namespace root */
			bool ops_api;
		} opfn;
		struct {
			const dalic_schema_t *schema;
			const char *module, *display; /* _module / _display_name */
			svdict_t *kwargs;             /* constructor arguments */
		} opobj;
		struct {
			sv_t *func;
			svdict_t *kwargs; /* decorator arguments */
			bool experimental;
		} pipedef;
		struct {
			const char *name;
			const char *device; /* "cpu" / "gpu" */
			spipe_t *pipe;
			bool get; /* node.get() in a debug pipeline: print shows the values */
		} node;
		struct {
			int type; /* ENUM_* */
			int64_t value;
		} en;
		struct {
			sv_t *value; /* bool, int or float */
			int dtype;   /* DALIDataType */
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
sv_t *sv_new(script_arena_t *a, sv_kind_t kind);
sv_t *sv_none(void);
sv_t *sv_true(void);
sv_t *sv_false(void);
sv_t *sv_bool(bool b);
sv_t *sv_int(script_arena_t *a, int64_t i);
sv_t *sv_float(script_arena_t *a, double f);
sv_t *sv_str(script_arena_t *a, const char *s, size_t len); /* copies */
sv_t *sv_cstr(script_arena_t *a, const char *s);            /* copies */
sv_t *sv_tuple(script_arena_t *a, int n);                   /* n NULL slots to fill */
sv_t *sv_list(script_arena_t *a, int cap);
sv_t *sv_dict(script_arena_t *a);
sv_t *sv_opaque(script_arena_t *a, const char *what);
sv_t *sv_enum(script_arena_t *a, int type, int64_t value);
sv_t *sv_node(script_arena_t *a, const char *name, const char *device, spipe_t *pipe);
int sv_list_append(script_arena_t *a, sv_t *list, sv_t *item);

/* ---- dicts: insertion-ordered hash maps with Python key equality ---- */
svdict_t *svdict_new(script_arena_t *a);
/* Errors: DALIC_EINVAL for an unhashable key (message left to the caller). */
int svdict_set(script_arena_t *a, svdict_t *d, sv_t *key, sv_t *value);
sv_t *svdict_get(const svdict_t *d, const sv_t *key);
sv_t *svdict_get_str(const svdict_t *d, const char *key);
int svdict_set_str(script_arena_t *a, svdict_t *d, const char *key, sv_t *value);
bool svdict_del(svdict_t *d, const sv_t *key);
int svdict_len(const svdict_t *d);
/* Iteration in insertion order: for (int i = 0; svdict_next(d, &i, &k, &v);) */
bool svdict_next(const svdict_t *d, int *it, sv_t **key, sv_t **value);
bool sv_hashable(const sv_t *v);

/* ---- Python semantics ---- */
bool sv_equal(const sv_t *x, const sv_t *y); /* ==, for values that have it */
const char *sv_type_name(const sv_t *v);     /* Python's type name */
bool sv_is_number(const sv_t *v);            /* bool, int or float */
double sv_as_double(const sv_t *v);
/* Appends str(v) (repr when `repr`) to a growing buffer; returns false when out of memory. */
typedef struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
} sbuf_t;
void sbuf_put(sbuf_t *b, const char *s, size_t n);
void sbuf_puts(sbuf_t *b, const char *s);
void sbuf_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_free(sbuf_t *b);
void sv_format(sbuf_t *b, const sv_t *v, bool repr);
/* Python's repr of a float: shortest text that reads back exactly. */
void sv_float_repr(char *buf, size_t n, double f);
/* DALIDataType / image / interp member name ("FLOAT", "RGB", "INTERP_LINEAR"). */
const char *sv_enum_name(int type, int64_t value);

#endif
