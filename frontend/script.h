/*
 * Pipeline scripts: DALI pipeline definitions written in Python, read without Python.
 * dalic evaluates the subset of Python that pipeline files use (docs/scripts.md) and turns
 * each pipeline the script creates — or one it only defines, a @pipeline_def function or a
 * Pipeline subclass, called with `--arg` values — into a graph definition.
 */
#ifndef DALIC_FRONTEND_SCRIPT_H
#define DALIC_FRONTEND_SCRIPT_H

#include "engine/graphdef.h"

typedef struct dalic_script_opts {
	const char *pipeline;          /* pick by name (variable, function or class), or NULL */
	const char *const *args;       /* "NAME=VALUE" arguments of a defined pipeline */
	int num_args;
	const dalic_pipeline_params_t *params; /* the caller's override, NULL when none: */
	unsigned fields;                       /* its set fields fill required __init__ params */
} dalic_script_opts_t;

/* Loads a pipeline script. `pipeline` picks one by name (function name / variable name) or NULL
 * for the first created. New graph def in *out (free with dalic_graphdef_free). Errors carry
 * "file:line:col: message" plus the source line and a caret in dalic_last_error(). */
int dalic_script_load(const char *path, const char *pipeline, dalic_graphdef_t **out);
/* The same with --arg values and the caller's parameters (opts may be NULL). */
int dalic_script_load_opts(const char *path, const dalic_script_opts_t *opts,
                           dalic_graphdef_t **out);
/* Names of the pipelines the script creates, then those it only defines (for --pipeline and
 * listing). */
int dalic_script_list(const char *path, char ***names, int *count); /* free each + array */
/* The same list, the pipelines the module creates first: *created of them (the rest are
 * functions and classes it defines without building them). */
int dalic_script_list_created(const char *path, char ***names, int *count, int *created);

#endif
