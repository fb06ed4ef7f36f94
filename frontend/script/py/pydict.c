/* Python's dict (see pydict.h): entries in insertion order plus an open-addressing index. */
#include "frontend/script/py/pydict.h"

#include "dalic.h"

#include <string.h>

struct pydict {
	pyval_t **keys, **vals; /* keys[i] == NULL: deleted */
	uint64_t *hashes;
	int n, cap, live;
	int32_t *index; /* open addressing over entry positions, -1 = empty */
	int icap;
};

pydict_t *dalic_pydict_new(pyarena_t *a)
{
	return dalic_pyarena_alloc(a, sizeof(pydict_t));
}

static int pydict_find_slot(const pydict_t *d, const pyval_t *key, uint64_t h, bool *found)
{
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0) {
			*found = false;
			return i;
		}
		if (d->keys[e] && d->hashes[e] == h && dalic_pyval_equal(d->keys[e], key)) {
			*found = true;
			return i;
		}
	}
}

static int pydict_rebuild_index(pyarena_t *a, pydict_t *d, int icap)
{
	int32_t *idx = dalic_pyarena_alloc(a, sizeof *idx * (size_t)icap);
	if (!idx)
		return DALIC_ENOMEM;
	memset(idx, 0xff, sizeof *idx * (size_t)icap);
	d->index = idx;
	d->icap = icap;
	for (int e = 0; e < d->n; e++) {
		if (!d->keys[e])
			continue;
		int mask = icap - 1, i = (int)(d->hashes[e] & (uint64_t)mask);
		while (idx[i] >= 0)
			i = (i + 1) & mask;
		idx[i] = e;
	}
	return DALIC_OK;
}

int dalic_pydict_set(pyarena_t *a, pydict_t *d, pyval_t *key, pyval_t *value)
{
	if (!dalic_pyval_hashable(key))
		return DALIC_EINVAL;
	uint64_t h = dalic_pyval_hash(key);
	if (d->icap) {
		bool found;
		int slot = pydict_find_slot(d, key, h, &found);
		if (found) {
			d->vals[d->index[slot]] = value;
			return DALIC_OK;
		}
	}
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 8;
		pyval_t **k = dalic_pyarena_alloc(a, sizeof *k * (size_t)cap);
		pyval_t **v = dalic_pyarena_alloc(a, sizeof *v * (size_t)cap);
		uint64_t *hs = dalic_pyarena_alloc(a, sizeof *hs * (size_t)cap);
		if (!k || !v || !hs)
			return DALIC_ENOMEM;
		if (d->n) {
			memcpy(k, d->keys, sizeof *k * (size_t)d->n);
			memcpy(v, d->vals, sizeof *v * (size_t)d->n);
			memcpy(hs, d->hashes, sizeof *hs * (size_t)d->n);
		}
		d->keys = k;
		d->vals = v;
		d->hashes = hs;
		d->cap = cap;
	}
	d->keys[d->n] = key;
	d->vals[d->n] = value;
	d->hashes[d->n] = h;
	d->n++;
	d->live++;
	if ((d->n + 1) * 3 > d->icap * 2)
		return pydict_rebuild_index(a, d, d->icap ? d->icap * 2 : 16);
	bool found;
	int slot = pydict_find_slot(d, key, h, &found);
	d->index[slot] = d->n - 1;
	return DALIC_OK;
}

pyval_t *dalic_pydict_get(const pydict_t *d, const pyval_t *key)
{
	if (!d->icap || !dalic_pyval_hashable(key))
		return NULL;
	bool found;
	int slot = pydict_find_slot(d, key, dalic_pyval_hash(key), &found);
	return found ? d->vals[d->index[slot]] : NULL;
}

pyval_t *dalic_pydict_get_str(const pydict_t *d, const char *key)
{
	if (!d->icap)
		return NULL;
	size_t n = strlen(key);
	uint64_t h = dalic_pyval_hash_str(key, n);
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0)
			return NULL;
		const pyval_t *k = d->keys[e];
		if (k && d->hashes[e] == h && k->kind == PV_STR && k->str.len == n &&
		    !memcmp(k->str.s, key, n))
			return d->vals[e];
	}
}

int dalic_pydict_set_str(pyarena_t *a, pydict_t *d, const char *key, pyval_t *value)
{
	pyval_t *k = dalic_pyval_cstr(a, key);
	return k ? dalic_pydict_set(a, d, k, value) : DALIC_ENOMEM;
}

bool dalic_pydict_del(pydict_t *d, const pyval_t *key)
{
	if (!d->icap || !dalic_pyval_hashable(key))
		return false;
	bool found;
	int slot = pydict_find_slot(d, key, dalic_pyval_hash(key), &found);
	if (!found)
		return false;
	/* the index keeps pointing at the tombstone so probe chains stay intact */
	d->keys[d->index[slot]] = NULL;
	d->live--;
	return true;
}

int dalic_pydict_len(const pydict_t *d)
{
	return d->live;
}

bool dalic_pydict_next(const pydict_t *d, int *it, pyval_t **key, pyval_t **value)
{
	while (*it < d->n) {
		int e = (*it)++;
		if (d->keys[e]) {
			*key = d->keys[e];
			if (value)
				*value = d->vals[e];
			return true;
		}
	}
	return false;
}
