/*
 * A string-keyed hash map (open addressing, linear probing): name lookups that stay O(1)
 * however many operators, data nodes or outputs a definition holds. Keys are borrowed: the
 * caller keeps each key alive (and unchanged) while it is in the map.
 */
#ifndef DALIC_ENGINE_STRMAP_H
#define DALIC_ENGINE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct dalic_strmap_slot {
	const char *key; /* NULL: empty */
	size_t hash;
	void *value;
} dalic_strmap_slot_t;

/* Zero-initialise (= {0}) to get an empty map. */
typedef struct dalic_strmap {
	dalic_strmap_slot_t *slots;
	size_t cap; /* a power of two, or 0 */
	size_t count;
} dalic_strmap_t;

/* Sets key -> value, replacing an earlier value. DALIC_ENOMEM (message set) on failure. */
int dalic_strmap_put(dalic_strmap_t *m, const char *key, void *value);
/* The value of key, or NULL. */
void *dalic_strmap_get(const dalic_strmap_t *m, const char *key);
/* True when key is in the map (its value may be NULL). */
bool dalic_strmap_has(const dalic_strmap_t *m, const char *key);
/* Removes key; false when it was not there. */
bool dalic_strmap_del(dalic_strmap_t *m, const char *key);
/* Frees the table (not the keys or values); the map is empty again. */
void dalic_strmap_clear(dalic_strmap_t *m);

#endif
