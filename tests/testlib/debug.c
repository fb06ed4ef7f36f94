/* The shared test library: debug sessions (see tests/testlib.h). */
#include "tests/testlib.h"

#include <stdlib.h>

dalic_debug_t *tl_debug_open(dalic_pipeline_t *p)
{
	dalic_debug_t *s = NULL;
	ASSERT_OK(dalic_debug_open(p, &s));
	return s;
}

void tl_debug_feed_floats(dalic_debug_t *s, const char *name, int batch, const float *values)
{
	int64_t shapes[64];
	cr_assert_leq(batch, 64);
	for (int i = 0; i < batch; i++)
		shapes[i] = 1;
	ASSERT_DEBUG_OK(
	    s, dalic_debug_feed_input(s, name, DALIC_FLOAT, 1, batch, shapes, values, NULL));
}

dalic_debug_status_t tl_debug_status(const dalic_debug_t *s)
{
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	return st;
}

const char *tl_debug_op_name(const dalic_debug_t *s, int i)
{
	dalic_debug_op_info_t info;
	ASSERT_OK(dalic_debug_op_info(s, i, &info), "operator %d", i);
	return info.name;
}

void tl_capture_fn(void *user, const char *text)
{
	tl_capture_t *c = user;
	size_t m = strlen(text);
	c->text = realloc(c->text, c->n + m + 1);
	cr_assert_not_null(c->text);
	memcpy(c->text + c->n, text, m + 1);
	c->n += m;
}
