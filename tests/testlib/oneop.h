/*
 * One operator between external sources, for the operator tests (tests/unit/test_ops_*.c):
 * sources "in" (and "in1" for a second input) feed the operator's inputs, and a source per
 * named argument input feeds that argument per sample; output 0 of the operator is the
 * pipeline's output. The pipeline is tl_pipeline's: simple mode, one fed batch per run.
 */
#ifndef DALIC_TESTS_TESTLIB_ONEOP_H
#define DALIC_TESTS_TESTLIB_ONEOP_H

#include "tests/testlib.h"

typedef struct tl_oneop {
	dalic_pipeline_t *p; /* owned: dalic_pipeline_destroy */
	dalic_op_t *op;      /* borrowed from p: set scalar arguments on it before building */
} tl_oneop_t;

/* `op` with `ninputs` (1 or 2) positional inputs and the argument inputs named in
 * `arg_inputs` (NULL-terminated, or NULL); each argument input is fed by a source of the same
 * name. */
tl_oneop_t tl_oneop(const char *op, int batch, int ninputs, const char *const *arg_inputs);

/* Feeds one float scalar (shape [1]) per sample to the source `name`. */
void tl_oneop_feed_scalars(tl_oneop_t *t, const char *name, int batch, const float *values);

/* Feeds `batch` uint8 samples of one shape (ndim dims) with `layout`; data back to back. */
void tl_oneop_feed_u8(tl_oneop_t *t, const char *name, int batch, int ndim, const int64_t *shape,
                      const uint8_t *data, const char *layout);

/* Same, float samples. */
void tl_oneop_feed_f32(tl_oneop_t *t, const char *name, int batch, int ndim, const int64_t *shape,
                       const float *data, const char *layout);

#endif
