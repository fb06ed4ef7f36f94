/*
 * Small writers of the data formats the readers read, so tests make their data (no binary
 * file is committed): TFRecord files of tf.train.Example records with their index, POSIX tar
 * archives (ustar, GNU long names), .npy files, MXNet RecordIO, LMDB databases of Caffe Datum
 * and Caffe2 TensorProtos records. Each writer asserts on failure. Prefix tl_.
 */
#ifndef DALIC_TESTS_TESTLIB_FORMATS_H
#define DALIC_TESTS_TESTLIB_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- protobuf wire bytes (a growing buffer) ---- */
typedef struct tl_buf {
	uint8_t *p;
	size_t n, cap;
} tl_buf_t;

void tl_buf_put(tl_buf_t *b, const void *data, size_t n);
void tl_buf_varint(tl_buf_t *b, uint64_t v);
/* Field `field` of wire type 2 holding n bytes. */
void tl_buf_field_bytes(tl_buf_t *b, int field, const void *data, size_t n);
void tl_buf_free(tl_buf_t *b);

/* ---- tf.train.Example and TFRecord ---- */
/* Adds one feature (a map entry) to the Example being built in `ex`. */
void tl_tfex_bytes(tl_buf_t *ex, const char *name, const void *data, size_t n);
void tl_tfex_floats(tl_buf_t *ex, const char *name, const float *v, int n);
void tl_tfex_int64s(tl_buf_t *ex, const char *name, const int64_t *v, int n);
/* The Example bytes of the features added (new buffer; ex is left alone). */
tl_buf_t tl_tfex_finish(const tl_buf_t *ex);
/* Writes the payloads as TFRecord records (both masked CRCs) and, when index is not NULL,
 * the index ("offset size" lines). */
void tl_tfrecord_write(const char *path, const char *index, const tl_buf_t *payloads, int n);
/* `count` records whose "label" feature is the int64 first + k (and the index). */
void tl_tfrecord_int64s(const char *path, const char *index, int first, int count);

/* ---- tar archives (ustar headers; names over 100 bytes get a GNU 'L' entry first) ---- */
typedef struct tl_tar {
	FILE *f;
	long size;
} tl_tar_t;

void tl_tar_open(tl_tar_t *t, const char *path);
/* A regular file; returns the offset of its data in the archive. */
long tl_tar_add(tl_tar_t *t, const char *name, const void *data, size_t n);
void tl_tar_add_dir(tl_tar_t *t, const char *name);
/* Two zero blocks; returns the archive's size. */
long tl_tar_close(tl_tar_t *t);

/* ---- NumPy .npy ---- */
/* A version-1.0 file as numpy writes it: the dictionary, the data (`data` holds volume(shape)
 * elements of elem_size bytes, in Fortran order when `fortran`). */
void tl_npy_write(const char *path, const char *descr, bool fortran, int ndim,
                  const int64_t *shape, const void *data, size_t elem_size);
/* Any header dictionary text under a version 1, 2 or 3 preamble, then n bytes of data. */
void tl_npy_write_raw(const char *path, int version, const char *dict, const void *data,
                      size_t n);

/* ---- MXNet RecordIO ---- */
/* One part: magic, cflag << 29 | n, the payload, zeros to a multiple of 4. */
void tl_recio_part(tl_buf_t *b, int cflag, const void *payload, size_t n);
/* A record's payload: MXNet's image header {nlabels, label, 0, 0}, the labels, the image. */
void tl_recio_payload(tl_buf_t *b, float label, int nlabels, const float *labels,
                      const void *image, size_t n);

/* ---- LMDB ---- */
/* A database directory `dir` (made) holding the n (key, value) pairs. */
void tl_lmdb_write(const char *dir, int n, const char *const *keys, const tl_buf_t *values);

#endif
