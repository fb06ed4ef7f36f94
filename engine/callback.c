/* The callable registry and keep handles (see callback.h). */
#include "engine/callback.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct callback_entry {
	int64_t id;
	dalic_cb_call_fn call;
	void *obj;
} callback_entry_t;

static pthread_mutex_t callback_lock = PTHREAD_MUTEX_INITIALIZER;
static callback_entry_t *callback_entries;
static int callback_n, callback_cap;
static int64_t callback_next_id = 1;

int64_t dalic_callback_add(dalic_cb_call_fn call, void *obj)
{
	int64_t id = 0;
	pthread_mutex_lock(&callback_lock);
	if (callback_n == callback_cap) {
		int cap = callback_cap ? callback_cap * 2 : 16;
		callback_entry_t *e = realloc(callback_entries, sizeof *e * (size_t)cap);
		if (e) {
			callback_entries = e;
			callback_cap = cap;
		}
	}
	if (callback_n < callback_cap) {
		id = callback_next_id++;
		callback_entries[callback_n++] = (callback_entry_t){id, call, obj};
	}
	pthread_mutex_unlock(&callback_lock);
	return id;
}

bool dalic_callback_get(int64_t id, dalic_cb_call_fn *call, void **obj)
{
	bool found = false;
	pthread_mutex_lock(&callback_lock);
	for (int i = 0; i < callback_n && !found; i++)
		if (callback_entries[i].id == id) {
			*call = callback_entries[i].call;
			*obj = callback_entries[i].obj;
			found = true;
		}
	pthread_mutex_unlock(&callback_lock);
	return found;
}

void dalic_callback_remove(int64_t id)
{
	pthread_mutex_lock(&callback_lock);
	for (int i = 0; i < callback_n; i++)
		if (callback_entries[i].id == id) {
			callback_entries[i] = callback_entries[--callback_n];
			break;
		}
	if (!callback_n) {
		free(callback_entries);
		callback_entries = NULL;
		callback_cap = 0;
	}
	pthread_mutex_unlock(&callback_lock);
}

void dalic_cb_samples_free(dalic_cb_sample_t *s, int n)
{
	for (int i = 0; s && i < n; i++) {
		free(s[i].data);
		s[i] = (dalic_cb_sample_t){0};
	}
}

void dalic_keep_retain(dalic_keep_t *k)
{
	if (k)
		__atomic_add_fetch(&k->refs, 1, __ATOMIC_ACQ_REL);
}

void dalic_keep_release(dalic_keep_t *k)
{
	if (k && __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL) == 0)
		k->free(k);
}
