/*
 * LMDB databases for readers.caffe and readers.caffe2 (DALI's LMDBLoader over liblmdb): a
 * list of databases opened read-only for the life of the reader, one read transaction each,
 * their entries numbered through all of them in key order. A value's bytes stay valid while
 * the reader lives (they point into the database's map). Errors are DALI's "LMDB Error:
 * <why>, with file: <path>".
 */
#ifndef DALIC_KERNELS_LMDB_DB_H
#define DALIC_KERNELS_LMDB_DB_H

#include <stddef.h>
#include <stdint.h>

typedef struct lmdb_db lmdb_db_t;

typedef struct lmdb_set {
	lmdb_db_t *dbs;
	int n;
	int64_t *first; /* n + 1: entries of db k are [first[k], first[k + 1]) */
} lmdb_set_t;

int dalic_lmdb_set_open(lmdb_set_t *s, const char *const *paths, int n, char *err, size_t errn);
/* Entry e: its key and value (borrowed), and its database's path. */
int dalic_lmdb_set_get(lmdb_set_t *s, int64_t e, const uint8_t **key, size_t *key_len,
                       const uint8_t **value, size_t *value_len, const char **path, char *err,
                       size_t errn);
void dalic_lmdb_set_close(lmdb_set_t *s);

#endif
