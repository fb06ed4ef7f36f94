/*
 * Helpers for the debug-mode tests (test_debug_*.c), on top of helpers.h: opening sessions,
 * feeding them, comparing batches byte for byte and capturing print() replay output. Every
 * helper asserts on failure and shows the session's or the thread's last error.
 */
#ifndef DALIC_TESTS_UNIT_TEST_DEBUG_UTIL_H
#define DALIC_TESTS_UNIT_TEST_DEBUG_UTIL_H

#include "helpers.h"

#include "dalic_debug.h"

#include <stdio.h>
#include <stdlib.h>

/* Opens a session on p's definition. Free with dalic_debug_close. */
static inline dalic_debug_t *td_open(dalic_pipeline_t *p)
{
	dalic_debug_t *s = NULL;
	cr_assert_eq(dalic_debug_open(p, &s), DALIC_OK, "%s", dalic_last_error());
	return s;
}

/* Feeds `n` float scalars-per-sample batch: sample i gets values[i] (shape [1]). */
static inline void td_feed_floats(dalic_debug_t *s, const char *name, int batch,
                                  const float *values)
{
	int64_t shapes[64];
	for (int i = 0; i < batch; i++)
		shapes[i] = 1;
	cr_assert_eq(dalic_debug_feed_input(s, name, DALIC_FLOAT, 1, batch, shapes, values, NULL),
	             DALIC_OK, "%s", dalic_last_error());
}

static inline void td_ok(dalic_debug_t *s, int rc)
{
	cr_assert_eq(rc, DALIC_OK, "%s (%s / %s)", dalic_strerror(rc), dalic_debug_last_error(s),
	             dalic_last_error());
}

static inline dalic_debug_status_t td_status(const dalic_debug_t *s)
{
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	return st;
}

/* Instance name of the operator at execution position i. */
static inline const char *td_op_name(const dalic_debug_t *s, int i)
{
	dalic_debug_op_info_t info;
	cr_assert_eq(dalic_debug_op_info(s, i, &info), DALIC_OK);
	return info.name;
}

/* Byte-for-byte equality of two batches: count, dtype, ndim, layout, shapes, data. */
static inline void td_expect_same_batch(const dalic_batch_t *a, const dalic_batch_t *b,
                                        const char *what)
{
	cr_assert_not_null(a, "%s: first batch missing", what);
	cr_assert_not_null(b, "%s: second batch missing", what);
	cr_assert_eq(dalic_batch_num_samples(a), dalic_batch_num_samples(b), "%s: sample count",
	             what);
	cr_assert_eq(dalic_batch_dtype(a), dalic_batch_dtype(b), "%s: dtype", what);
	cr_assert_eq(dalic_batch_ndim(a), dalic_batch_ndim(b), "%s: ndim", what);
	cr_assert_str_eq(dalic_batch_layout(a), dalic_batch_layout(b), "%s: layout", what);
	for (int i = 0; i < dalic_batch_num_samples(a); i++) {
		cr_assert_eq(memcmp(dalic_batch_shape(a, i), dalic_batch_shape(b, i),
		                    sizeof(int64_t) * (size_t)dalic_batch_ndim(a)),
		             0, "%s: shape of sample %d", what, i);
		size_t n = dalic_batch_sample_bytes(a, i);
		cr_assert_eq(n, dalic_batch_sample_bytes(b, i), "%s: bytes of sample %d", what, i);
		cr_assert_eq(memcmp(dalic_batch_data(a, i), dalic_batch_data(b, i), n), 0,
		             "%s: data of sample %d differs", what, i);
	}
}

/* A deep copy of a batch's bytes, to compare against later iterations. */
typedef struct td_snapshot {
	int n;
	size_t bytes[64];
	unsigned char *data[64];
} td_snapshot_t;

static inline void td_snap(td_snapshot_t *snap, const dalic_batch_t *b)
{
	cr_assert_not_null(b);
	snap->n = dalic_batch_num_samples(b);
	cr_assert_leq(snap->n, 64);
	for (int i = 0; i < snap->n; i++) {
		snap->bytes[i] = dalic_batch_sample_bytes(b, i);
		snap->data[i] = malloc(snap->bytes[i] + 1);
		memcpy(snap->data[i], dalic_batch_data(b, i), snap->bytes[i]);
	}
}

static inline bool td_snap_equal(const td_snapshot_t *snap, const dalic_batch_t *b)
{
	if (dalic_batch_num_samples(b) != snap->n)
		return false;
	for (int i = 0; i < snap->n; i++)
		if (dalic_batch_sample_bytes(b, i) != snap->bytes[i] ||
		    memcmp(dalic_batch_data(b, i), snap->data[i], snap->bytes[i]))
			return false;
	return true;
}

static inline void td_snap_free(td_snapshot_t *snap)
{
	for (int i = 0; i < snap->n; i++)
		free(snap->data[i]);
	snap->n = 0;
}

/* print() replay captured into one growing string. */
typedef struct td_capture {
	char *text;
	size_t n;
} td_capture_t;

static inline void td_capture_fn(void *user, const char *text)
{
	td_capture_t *c = user;
	size_t m = strlen(text);
	c->text = realloc(c->text, c->n + m + 1);
	memcpy(c->text + c->n, text, m + 1);
	c->n += m;
}

#endif
