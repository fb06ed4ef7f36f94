/*
 * nvidia.dali.tfrecord for scripts, and the Python wrapper DALI puts around readers.tfrecord
 * (sdtfrec.c): the `features` dict in, a dict of outputs back.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDTFREC_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDTFREC_H

#include "engine/schema.h"
#include "frontend/script/dali/sdali.h"

extern const pytype_t dalic_sdtfrec_feature_type;

/* The module opener of nvidia.dali.tfrecord. */
int dalic_sdtfrec_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* Whether argument `arg` of s holds tfrecord features. */
bool dalic_sdtfrec_is_features(const dalic_schema_t *s, const char *arg);
/* Replaces *value (a dict name -> Feature, or a list of Features) by the list of feature
 * texts; for a dict, *names gets the list of its keys (else it is left alone). */
int dalic_sdtfrec_features(pyinterp_t *I, const pynode_t *at, pyval_t **value, pyval_t **names);
/* The operator's outputs (*out: a node or a list of nodes) as a dict keyed by `names`. */
int dalic_sdtfrec_outputs(pyinterp_t *I, const pynode_t *at, pyval_t *names, pyval_t **out);

#endif
