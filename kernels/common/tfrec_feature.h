/*
 * A readers.tfrecord feature (DALI's TFUtil::Feature) and its text form, which is how the
 * `features` argument holds each feature in dalic (the C API sets these strings; the script
 * front end makes them from tfrec.FixedLenFeature / VarLenFeature; the protobuf reader and
 * writer turn them into DALI's nested "TFRecord" Argument and back):
 *
 *     FixedLenFeature([2, 3], float32, 1.5)
 *     FixedLenFeature([], string, '')
 *     VarLenFeature(int64, -1)
 *     VarLenFeature([4], float32, 0.0)      (a partial shape: the outer extent is inferred)
 *
 * Types are numbered as DALI numbers them: int64 0, string 1, float32 2. A string default is
 * quoted with '...' (\\, \' and \xNN escapes).
 */
#ifndef DALIC_KERNELS_TFREC_FEATURE_H
#define DALIC_KERNELS_TFREC_FEATURE_H

#include "dalic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { TFREC_INT64 = 0, TFREC_STRING = 1, TFREC_FLOAT32 = 2 } tfrec_type_t;

typedef struct dalic_tfrec_feature {
	tfrec_type_t type;
	bool fixed; /* FixedLenFeature (DALI's has_shape) */
	int ndim;   /* the shape, or the partial shape of a VarLenFeature */
	int64_t shape[DALIC_MAX_NDIM];
	int64_t dflt_int;
	float dflt_float;
	char *dflt_str; /* NUL-terminated copy; dflt_len bytes count (may hold NULs) */
	size_t dflt_len;
} dalic_tfrec_feature_t;

/* Parses the text form; `err` says what is wrong. Free with dalic_tfrec_feature_free. */
int dalic_tfrec_feature_parse(const char *text, dalic_tfrec_feature_t *f, char *err, size_t n);
/* Writes the text form (snprintf-like: returns the length it needs). */
int dalic_tfrec_feature_format(const dalic_tfrec_feature_t *f, char *buf, size_t n);
void dalic_tfrec_feature_free(dalic_tfrec_feature_t *f);
const char *dalic_tfrec_type_name(tfrec_type_t t);

#endif
