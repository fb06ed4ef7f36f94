/*
 * Runtime values of the Python core: Python's built-in types (None, bool, int, float, str,
 * tuple, list, dict, slice), functions, classes and instances, modules, "host" values whose
 * behaviour a layer above the core defines through a pytype_t table (the DALI layer's data
 * nodes and operators, like a Lua userdata and its metatable), and "opaque" values that
 * stand for anything dalic does not model (matplotlib, run results...): they absorb every
 * operation so display code can run past them, and an opaque value reaching a place that
 * needs its value is a located error. All values live in the load's arena; lists, dicts and
 * instances are shared by reference like in Python.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYVAL_H
#define DALIC_FRONTEND_SCRIPT_PY_PYVAL_H

#include "frontend/script/py/pyast.h"
#include "frontend/script/py/pybuf.h"

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
	PV_HOST, /* a value of a host type (pytype_t) */
	PV_OPAQUE,
	PV_UNDEF, /* a variable not assigned in a conditional branch */
} pyval_kind_t;

typedef struct pyval pyval_t;
typedef struct pydict pydict_t;
typedef struct pyinterp pyinterp_t;
typedef struct pyframe pyframe_t;
typedef struct pyclass pyclass_t;
typedef struct pytype pytype_t;

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
	pydict_t *param_index;     /* parameter name -> index, for many parameters */
	const pynode_t *node;
	/* the module it was defined in: its globals and source (embedded modules, pylibmod.h) */
	pyframe_t *globals;
	const struct pysrc *src;
} pyfunc_t;

struct pyclass {
	const char *name;
	pyclass_t **bases;
	int nbases;
	pydict_t *attrs;
	const char *module; /* defining module for repr(); NULL: __main__ */
	bool opaque_base;   /* derived from something dalic does not model */
	bool exception;     /* an exception class */
	bool frozen;        /* a frozen dataclass: instances refuse assignments */
};

typedef struct pyinst {
	pyclass_t *cls;
	pydict_t *attrs;
	void *native; /* what a host base class keeps for the object (Pipeline: its pipeline) */
	const char *message; /* exceptions: what str() shows */
	const char *located; /* exceptions: the located error it was raised with (re-raise) */
} pyinst_t;

typedef struct pymodobj {
	const char *name;
	pydict_t *attrs;
	bool opaque; /* unknown attributes become opaque values */
	const char *subset; /* a library dalic models in part: named in AttributeErrors */
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
			bool method;             /* binds to an instance it is read through;
			                          * called unbound, its first argument is the receiver */
			const pytype_t *type_of; /* the type object of a host type (isinstance) */
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
			const pytype_t *type;
			void *data;
		} host;
		struct {
			const char *what; /* where it came from, for messages */
		} opaque;
		struct {
			const char *name;
		} undef;
	};
};

/* ---- host types ---- */

/* Returned by a host type's binop / compare hook that leaves the operation to Python. */
#define PY_NOT_HANDLED 1

/* A type defined above the core. Every hook may be NULL, then Python's default applies
 * (attributes absent, not callable, not subscriptable, not iterable, always true, operators
 * unsupported, equality by identity). Hooks follow the core's status convention: DALIC_OK,
 * or a negative code after a located error was recorded. */
struct pytype {
	const char *name;                           /* Python's type name */
	const char *(*type_name)(const pyval_t *v); /* when it depends on the value */
	void (*format)(pybuf_t *b, const pyval_t *v, bool repr);
	bool (*equal)(const pyval_t *x, const pyval_t *y); /* both of this type */
	uint64_t (*hash)(const pyval_t *v);                /* consistent with equal */
	bool is_by_value;                                  /* `is` means equal (enum members) */
	bool unhashable;                                   /* a mutable container (set) */
	/* The Python scalar the value stands for in conversions and formatting
	 * (types.Constant(3) -> 3), or NULL. */
	pyval_t *(*scalar)(const pyval_t *v);
	/* int(v), or false when it has none. */
	bool (*index)(const pyval_t *v, int64_t *out);
	/* *out = NULL when the attribute does not exist. */
	int (*getattr)(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
	               pyval_t **out);
	int (*getitem)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *index,
	               pyval_t **out);
	int (*call)(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
	            pyval_t **out);
	/* Always an error (the type is not iterable); `unpack` for `a, b = v`. */
	int (*iterate)(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool unpack);
	int (*truth)(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out);
	/* -v, +v, ~v (not: flow_not / truth) */
	int (*unary)(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v, pyval_t **out);
	/* Called when either operand is of this type (the left one's first); PY_NOT_HANDLED
	 * leaves the operation to Python. */
	int (*binop)(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
	             pyval_t **out);
	int (*compare)(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
	               pyval_t **out);
	/* Control flow the type takes over while `flow` says so (DALI's conditionals): an `if`
	 * on the value, `and` / `or` from a value of it (values[next..] still to evaluate),
	 * `not`, and every read of a variable that holds one. */
	bool (*flow)(pyinterp_t *I, const pyval_t *v);
	int (*flow_if)(pyinterp_t *I, pyframe_t *F, const pynode_t *stmt, pyval_t *v);
	int (*flow_boolop)(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int next, pyval_t *v,
	                   pyval_t **out);
	int (*flow_not)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
	int (*flow_load)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
	/* v[index] = value */
	int (*setitem)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *index,
	               pyval_t *value);
	/* Iterable types: their items in order (for loops, list(), unpacking); len(). */
	int (*items)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n);
	int (*len)(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out);
	/* numpy's __array__: the value as an ndarray (np.array(v), np.asarray(v)). */
	int (*array)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
	/* Descriptors (Python's __get__ / __set__): v was found on class cls and is read
	 * through instance obj (NULL when read through the class itself) ... */
	int (*get)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj, pyclass_t *cls,
	           pyval_t **out);
	/* ... or assigned through obj (a data descriptor: it wins over the instance's own
	 * attributes on reads too). */
	int (*set)(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj, pyval_t *value);
};

/* Whether v is a host value of type t. */
static inline bool dalic_pyval_is(const pyval_t *v, const pytype_t *t)
{
	return v->kind == PV_HOST && v->host.type == t;
}

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
/* A host value of type t holding `data`. */
pyval_t *dalic_pyval_host(pyarena_t *a, const pytype_t *t, void *data);
int dalic_pyval_list_append(pyarena_t *a, pyval_t *list, pyval_t *item);

bool dalic_pyval_hashable(const pyval_t *v);
/* Hash of a hashable value; equal values hash alike (1 == 1.0 == True). */
uint64_t dalic_pyval_hash(const pyval_t *v);
/* Hash of a str value with these bytes. */
uint64_t dalic_pyval_hash_str(const char *s, size_t n);

/* ---- Python semantics ---- */
bool dalic_pyval_equal(const pyval_t *x, const pyval_t *y); /* ==, for values that have it */
const char *dalic_pyval_type_name(const pyval_t *v);        /* Python's type name */
bool dalic_pyval_is_number(const pyval_t *v);               /* bool, int or float */
double dalic_pyval_as_double(const pyval_t *v);
/* The integer of an int or bool; false for every other value. */
bool dalic_pyval_as_int(const pyval_t *v, int64_t *out);
/* Appends str(v) (repr(v) when `repr`). */
void dalic_pyval_format(pybuf_t *b, const pyval_t *v, bool repr);
/* Python's repr of a float: shortest text that reads back exactly. */
void dalic_pyval_float_repr(char *buf, size_t n, double f);

#endif
