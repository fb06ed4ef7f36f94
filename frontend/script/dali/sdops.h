/*
 * Operator calls bound to the registry, so a new operator needs no change here: `fn.x.y(...)`
 * resolves "x.y" with dalic_schema_find, `ops.X(...)` builds an operator object called later
 * with inputs. Each call adds one operator to the current pipeline's graph definition as
 * DALI's Python front end does (docs/dali-behaviour.md §4).
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDOPS_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDOPS_H

#include "frontend/script/dali/sdalias.h"
#include "frontend/script/dali/sdali.h"

typedef struct sdopcall {
	const dalic_schema_t *schema;
	const sdalias_t *legacy;      /* named by DALI's deprecated alias, or NULL */
	const char *module, *display; /* _module / _display_name */
	const char *api_name;         /* "nvidia.dali.fn.resize", for messages */
	bool ops_api;                 /* default device cpu, not automatic */
	pyval_t **inputs;
	int ninputs;
	const char **kwnames;
	pyval_t **kwvals;
	int nkw;
} sdopcall_t;

/* Adds the operator to the current pipeline; *out is a DataNode, a list of them, or an empty
 * list (no outputs). */
int dalic_sdops_invoke(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, pyval_t **out);
/* The operator fn.<path> / ops.<path> names (*legacy: the deprecated alias it was named by,
 * or NULL). An operator dalic does not know is an error at this line that display-code
 * skipping never drops. */
int dalic_sdops_resolve(pyinterp_t *I, const pynode_t *at, bool ops_api, const char *path,
                        const dalic_schema_t **schema, const sdalias_t **legacy);
/* Names of fn / ops that are Python-level parts of DALI, not registry operators
 * (ops.Compose). */
bool dalic_sdops_is_special(bool ops_api, const char *path);
/* ops.Compose(op_list) (sdcompose.c). */
int dalic_sdcompose_new(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, pyval_t **out);
/* Calls fn.<path> with script arguments. */
int dalic_sdops_call_fn(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                        pyval_t **out);
/* ops.<path>(kwargs): an operator object. */
/* dalic_sdops_call_fn / dalic_sdops_construct for a plugin module's function: its schema
 * (module nvidia.dali.plugin.*) resolves only this way. */
int dalic_sdops_plugin_call(pyinterp_t *I, const pynode_t *at, bool ops_api, const char *path,
                            const pyargs_t *args, pyval_t **out);
int dalic_sdops_construct(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                          pyval_t **out);
/* Calls an ops-API operator object with inputs. */
int dalic_sdops_call_object(pyinterp_t *I, const pynode_t *at, pyval_t *opobj, const pyargs_t *args,
                            pyval_t **out);
/* The pipeline operators are added to now, or an error naming `what`. */
int dalic_sdops_current_pipe(pyinterp_t *I, const pynode_t *at, const char *what, sdpipe_t **out);
/* Argument value of a script value (bool, int, float, str, enum, lists of them). */
int dalic_sdops_to_value(pyinterp_t *I, const pynode_t *at, const char *op, const char *arg,
                         pyval_t *v, dalic_value_t *out);

#endif
