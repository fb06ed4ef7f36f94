/*
 * Python's dict for the script core: an insertion-ordered hash map with Python's key
 * equality (1 == 1.0 == True hash alike), in the load's arena. Deleting leaves a tombstone,
 * so iteration order and probe chains stay intact. Also the name tables of frames, classes,
 * instances and modules.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYDICT_H
#define DALIC_FRONTEND_SCRIPT_PY_PYDICT_H

#include "frontend/script/py/pyval.h"

pydict_t *dalic_pydict_new(pyarena_t *a);
/* Errors: DALIC_EINVAL for an unhashable key (message left to the caller), DALIC_ENOMEM. */
int dalic_pydict_set(pyarena_t *a, pydict_t *d, pyval_t *key, pyval_t *value);
pyval_t *dalic_pydict_get(const pydict_t *d, const pyval_t *key);
pyval_t *dalic_pydict_get_str(const pydict_t *d, const char *key);
int dalic_pydict_set_str(pyarena_t *a, pydict_t *d, const char *key, pyval_t *value);
bool dalic_pydict_del(pydict_t *d, const pyval_t *key);
int dalic_pydict_len(const pydict_t *d);
/* Iteration in insertion order: for (int i = 0; dalic_pydict_next(d, &i, &k, &v);) */
bool dalic_pydict_next(const pydict_t *d, int *it, pyval_t **key, pyval_t **value);

#endif
