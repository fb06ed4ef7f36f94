/* LMDB databases (see lmdb_db.h). */
#include "kernels/common/lmdb_db.h"

#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lmdb_db {
	char *path;
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_cursor *cur;
	int64_t size, at; /* entries; the cursor's position (-1: unset) */
};

static int lmdb_check(int rc, const char *path, char *err, size_t errn)
{
	if (rc == MDB_SUCCESS)
		return 0;
	snprintf(err, errn, "LMDB Error: %s, with file: %s", mdb_strerror(rc), path);
	return -1;
}

static int lmdb_db_open(lmdb_db_t *d, const char *path, char *err, size_t errn)
{
	d->at = -1;
	if (!(d->path = strdup(path))) {
		snprintf(err, errn, "out of memory");
		return -1;
	}
	MDB_stat st;
	if (lmdb_check(mdb_env_create(&d->env), path, err, errn) ||
	    lmdb_check(mdb_env_open(d->env, path, MDB_RDONLY | MDB_NOTLS | MDB_NOLOCK, 0664), path,
	               err, errn) ||
	    lmdb_check(mdb_txn_begin(d->env, NULL, MDB_RDONLY, &d->txn), path, err, errn) ||
	    lmdb_check(mdb_dbi_open(d->txn, NULL, 0, &d->dbi), path, err, errn) ||
	    lmdb_check(mdb_cursor_open(d->txn, d->dbi, &d->cur), path, err, errn) ||
	    lmdb_check(mdb_stat(d->txn, d->dbi, &st), path, err, errn))
		return -1;
	d->size = (int64_t)st.ms_entries;
	return 0;
}

int dalic_lmdb_set_open(lmdb_set_t *s, const char *const *paths, int n, char *err, size_t errn)
{
	memset(s, 0, sizeof *s);
	s->dbs = calloc((size_t)n, sizeof *s->dbs);
	s->first = calloc((size_t)n + 1, sizeof *s->first);
	if (!s->dbs || !s->first) {
		snprintf(err, errn, "out of memory");
		return -1;
	}
	s->n = n;
	for (int k = 0; k < n; k++) {
		if (lmdb_db_open(&s->dbs[k], paths[k], err, errn))
			return -1;
		s->first[k + 1] = s->first[k] + s->dbs[k].size;
	}
	return 0;
}

/* Moves the cursor of d to entry i (stepping from where it is when that is near). */
static int lmdb_db_seek(lmdb_db_t *d, int64_t i, MDB_val *k, MDB_val *v, char *err, size_t errn)
{
	int rc;
	if (i == d->at) {
		rc = mdb_cursor_get(d->cur, k, v, MDB_GET_CURRENT);
	} else if (d->at >= 0 && i == d->at + 1) {
		rc = mdb_cursor_get(d->cur, k, v, MDB_NEXT);
	} else if (d->at >= 0 && i == d->at - 1) {
		rc = mdb_cursor_get(d->cur, k, v, MDB_PREV);
	} else {
		rc = mdb_cursor_get(d->cur, k, v, MDB_FIRST);
		for (int64_t s = 0; rc == MDB_SUCCESS && s < i; s++)
			rc = mdb_cursor_get(d->cur, k, v, MDB_NEXT);
	}
	d->at = rc == MDB_SUCCESS ? i : -1;
	return lmdb_check(rc, d->path, err, errn);
}

int dalic_lmdb_set_get(lmdb_set_t *s, int64_t e, const uint8_t **key, size_t *key_len,
                       const uint8_t **value, size_t *value_len, const char **path, char *err,
                       size_t errn)
{
	int lo = 0, hi = s->n - 1;
	while (lo < hi) { /* the database holding e: the last with first <= e */
		int mid = (lo + hi + 1) / 2;
		if (s->first[mid] <= e)
			lo = mid;
		else
			hi = mid - 1;
	}
	lmdb_db_t *d = &s->dbs[lo];
	MDB_val k, v;
	*path = d->path;
	if (lmdb_db_seek(d, e - s->first[lo], &k, &v, err, errn))
		return -1;
	*key = k.mv_data;
	*key_len = k.mv_size;
	*value = v.mv_data;
	*value_len = v.mv_size;
	return 0;
}

void dalic_lmdb_set_close(lmdb_set_t *s)
{
	for (int k = 0; s->dbs && k < s->n; k++) {
		lmdb_db_t *d = &s->dbs[k];
		if (d->cur)
			mdb_cursor_close(d->cur);
		if (d->txn)
			mdb_txn_abort(d->txn);
		if (d->env)
			mdb_env_close(d->env);
		free(d->path);
	}
	free(s->dbs);
	free(s->first);
	memset(s, 0, sizeof *s);
}
