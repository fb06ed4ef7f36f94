/* String-keyed hash map (strmap.h). FNV-1a; the table doubles at 1/2 load; deletion shifts
 * the following run back, so no tombstones accumulate. */
#include "engine/strmap.h"

#include "engine/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t strmap_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

/* The slot holding key, or the empty slot where it would go. */
static dalic_strmap_slot_t *strmap_find(const dalic_strmap_t *m, const char *key, size_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		dalic_strmap_slot_t *s = &m->slots[i];
		if (!s->key || (s->hash == h && !strcmp(s->key, key)))
			return s;
	}
}

static int strmap_grow(dalic_strmap_t *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	dalic_strmap_slot_t *old = m->slots;
	size_t old_cap = m->cap;
	m->slots = calloc(cap, sizeof *m->slots);
	if (!m->slots) {
		m->slots = old;
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	m->cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*strmap_find(m, old[i].key, old[i].hash) = old[i];
	free(old);
	return DALIC_OK;
}

int dalic_strmap_put(dalic_strmap_t *m, const char *key, void *value)
{
	if ((m->count + 1) * 2 > m->cap) {
		int rc = strmap_grow(m);
		if (rc)
			return rc;
	}
	size_t h = strmap_hash(key);
	dalic_strmap_slot_t *s = strmap_find(m, key, h);
	if (!s->key)
		m->count++;
	*s = (dalic_strmap_slot_t){key, h, value};
	return DALIC_OK;
}

void *dalic_strmap_get(const dalic_strmap_t *m, const char *key)
{
	if (!m->cap)
		return NULL;
	const dalic_strmap_slot_t *s = strmap_find(m, key, strmap_hash(key));
	return s->key ? s->value : NULL;
}

bool dalic_strmap_has(const dalic_strmap_t *m, const char *key)
{
	return m->cap && strmap_find(m, key, strmap_hash(key))->key;
}

bool dalic_strmap_del(dalic_strmap_t *m, const char *key)
{
	if (!m->cap)
		return false;
	dalic_strmap_slot_t *s = strmap_find(m, key, strmap_hash(key));
	if (!s->key)
		return false;
	size_t mask = m->cap - 1, hole = (size_t)(s - m->slots);
	for (size_t i = (hole + 1) & mask; m->slots[i].key; i = (i + 1) & mask) {
		size_t home = m->slots[i].hash & mask;
		/* move i into the hole unless its home lies cyclically in (hole, i] */
		bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
		if (!stays) {
			m->slots[hole] = m->slots[i];
			hole = i;
		}
	}
	m->slots[hole] = (dalic_strmap_slot_t){0};
	m->count--;
	return true;
}

void dalic_strmap_clear(dalic_strmap_t *m)
{
	free(m->slots);
	*m = (dalic_strmap_t){0};
}
