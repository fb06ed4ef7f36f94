/*
 * Reading NumPy's .npy format (versions 1.0 to 3.0: magic, a little-endian header length, a
 * Python dict literal with 'descr', 'fortran_order' and 'shape', then the raw data), for
 * np.load in pipeline scripts and for feeding external sources from files. Only C-order
 * arrays of dalic's numeric dtypes in little-endian byte order are accepted; everything
 * else is an error naming the file and what is wrong.
 */
#ifndef DALIC_ENGINE_NPY_H
#define DALIC_ENGINE_NPY_H

#include "dalic.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dalic_npy {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	int64_t size;     /* elements */
	const void *data; /* points into the buffer parsed */
	size_t bytes;     /* size * element size */
} dalic_npy_t;

/* Parses the .npy file held in buf (borrowed: out->data points into it). `name` is used in
 * error messages. */
int dalic_npy_parse(const void *buf, size_t len, const char *name, dalic_npy_t *out);

#endif
