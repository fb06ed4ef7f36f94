/*
 * Classes beyond what pyexec.c builds: `object` as the root class, the descriptors
 * classmethod / staticmethod / property (host types with get / set hooks, see pyval.h),
 * binding of what is read through an instance or a class, special attributes (__dict__,
 * __class__, __name__...), issubclass / vars, and the special methods through which
 * instances of user classes take part in built-in operations (__call__, __getitem__,
 * __len__, __contains__, comparisons, __str__ / __repr__, __bool__).
 *
 * `object` is never stored among a class's bases: dalic looks attributes up depth first,
 * and an `object` reached through the first base would hide the later bases' methods
 * (Python's MRO puts it last). Lookups fall back to object's attributes instead.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYCLASS_H
#define DALIC_FRONTEND_SCRIPT_PY_PYCLASS_H

#include "frontend/script/py/pyeval.h"

/* Registers object, classmethod, staticmethod, property, issubclass and vars. */
int dalic_pyclass_open(pyinterp_t *I);
/* Whether c is the class `object`. */
bool dalic_pyclass_is_object(const pyclass_t *c);
/* Attribute `name` of `object`, or NULL. */
pyval_t *dalic_pyclass_object_attr(pyinterp_t *I, const char *name);
/* What reading attribute v, found on class cls, through obj gives (obj NULL: read through
 * the class): functions become bound methods, descriptors run their get hook. */
int dalic_pyclass_bind(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj,
                       pyclass_t *cls, pyval_t **out);
/* Special attributes (__dict__, __class__, __name__, __module__, __qualname__, __doc__,
 * __bases__) of an instance or class; *out NULL when `name` is none of them. */
int dalic_pyclass_special_attr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                               pyval_t **out);
/* Calls special method `name` of instance obj with args when its class defines one
 * (*found false otherwise, nothing called). */
int dalic_pyclass_dunder(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **args, int nargs, pyval_t **out, bool *found);
/* The built-in operations on instances of user classes, through their special methods;
 * *found false when the class defines none (the caller applies Python's default). */
int dalic_pyclass_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                          pyval_t **out, bool *found);
int dalic_pyclass_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out, bool *found);
int dalic_pyclass_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out, bool *found);
int dalic_pyclass_str(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool repr, pyval_t **out,
                      bool *found);
/* Lets dalic_pyval_format on b call the __str__ / __repr__ of user classes it meets inside
 * containers (b->failed holds the status of an error there). ctx lives while b is used. */
typedef struct pyclass_fmt {
	pyinterp_t *I;
	const pynode_t *at;
} pyclass_fmt_t;
void dalic_pyclass_format_hook(pybuf_t *b, pyclass_fmt_t *ctx);
/* Assignment through an instance to an attribute its class defines as a data descriptor
 * (property); *taken false when the class has none. */
int dalic_pyclass_set_descriptor(pyinterp_t *I, const pynode_t *at, pyval_t *obj,
                                 const char *name, pyval_t *value, bool *taken);
/* Records `name: annotation` of class statement body s in cls.__annotations__ (name ->
 * the annotation's leading name as a str: "int", "ClassVar", "List"); dataclasses read it. */
int dalic_pyclass_annotate(pyinterp_t *I, pyclass_t *cls, const pynode_t *s);
/* A user-defined __new__ of cls (a function), or NULL. */
pyval_t *dalic_pyclass_user_new(pyclass_t *cls);

#endif
