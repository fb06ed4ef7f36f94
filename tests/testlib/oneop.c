/* One operator between external sources (see tests/testlib/oneop.h). */
#include "tests/testlib/oneop.h"

tl_oneop_t tl_oneop(const char *op, int batch, int ninputs, const char *const *arg_inputs)
{
	tl_oneop_t t = {tl_pipeline(batch), NULL};
	tl_source(t.p, "in");
	if (ninputs > 1)
		tl_source(t.p, "in1");
	for (int k = 0; arg_inputs && arg_inputs[k]; k++)
		tl_source(t.p, arg_inputs[k]);
	t.op = tl_op(t.p, op);
	tl_input(t.op, "in");
	if (ninputs > 1)
		tl_input(t.op, "in1");
	for (int k = 0; arg_inputs && arg_inputs[k]; k++)
		ASSERT_OK(dalic_op_set_arg_input(t.op, arg_inputs[k], arg_inputs[k]));
	tl_output(t.p, t.op);
	return t;
}

void tl_oneop_feed_scalars(tl_oneop_t *t, const char *name, int batch, const float *values)
{
	int64_t shapes[64];
	cr_assert_leq(batch, 64);
	for (int i = 0; i < batch; i++)
		shapes[i] = 1;
	tl_feed(t->p, name, DALIC_FLOAT, 1, batch, shapes, values, NULL);
}

static void tl_oneop_feed_same(tl_oneop_t *t, const char *name, dalic_dtype_t dtype, int batch,
                               int ndim, const int64_t *shape, const void *data, const char *layout)
{
	int64_t shapes[64 * 8];
	cr_assert(batch <= 64 && ndim <= 8);
	for (int i = 0; i < batch; i++)
		for (int d = 0; d < ndim; d++)
			shapes[i * ndim + d] = shape[d];
	tl_feed(t->p, name, dtype, ndim, batch, shapes, data, layout);
}

void tl_oneop_feed_u8(tl_oneop_t *t, const char *name, int batch, int ndim, const int64_t *shape,
                      const uint8_t *data, const char *layout)
{
	tl_oneop_feed_same(t, name, DALIC_UINT8, batch, ndim, shape, data, layout);
}

void tl_oneop_feed_f32(tl_oneop_t *t, const char *name, int batch, int ndim, const int64_t *shape,
                       const float *data, const char *layout)
{
	tl_oneop_feed_same(t, name, DALIC_FLOAT, batch, ndim, shape, data, layout);
}
