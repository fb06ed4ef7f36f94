/*
 * Pipeline scripts: DALI pipeline definitions written in Python, read without Python.
 * dalic evaluates the subset of Python that pipeline files use (see docs of the script
 * front end) and turns each pipeline the script creates into a graph definition.
 */
#ifndef DALIC_FRONTEND_SCRIPT_H
#define DALIC_FRONTEND_SCRIPT_H

#include "engine/graphdef.h"

/* Loads a pipeline script. `pipeline` picks one by name (function name / variable name) or NULL
 * for the first created. New graph def in *out (free with dalic_graphdef_free). Errors carry
 * "file:line:col: message" plus the source line and a caret in dalic_last_error(). */
int dalic_script_load(const char *path, const char *pipeline, dalic_graphdef_t **out);
/* Names of the pipelines the script creates, in creation order (for --pipeline and listing). */
int dalic_script_list(const char *path, char ***names, int *count); /* free each + array */

#endif
