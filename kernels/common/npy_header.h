/*
 * NumPy .npy headers (readers.numpy): the preamble (magic, version 1.0 with a 16-bit header
 * length, 2.0 / 3.0 with a 32-bit one) and the dictionary numpy writes,
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, parsed as DALI's numpy.cc
 * does (keys in that order, DALI's messages). Little-endian and byte types only: u1..u8,
 * i1..i8, f2, f4, f8, b1. DALI 2.4 itself reads only version 1.0 files.
 */
#ifndef DALIC_KERNELS_NPY_HEADER_H
#define DALIC_KERNELS_NPY_HEADER_H

#include "dalic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPY_PREAMBLE 12 /* bytes enough to know a header's size */

typedef struct npy_header {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM]; /* as the file lists it (Fortran order: not reversed) */
	bool fortran;
	int64_t data_offset; /* bytes of preamble and dictionary */
	int64_t nbytes;      /* bytes of data */
} npy_header_t;

/* The size of the whole header from the first `n` bytes of a file (n >= NPY_PREAMBLE unless
 * the file is shorter). */
int dalic_npy_header_size(const uint8_t *pre, size_t n, int64_t *size, char *err, size_t errn);
/* Parses a whole header (`size` bytes from the file's start). */
int dalic_npy_header_parse(const uint8_t *hdr, int64_t size, npy_header_t *h, char *err,
                           size_t errn);

#endif
