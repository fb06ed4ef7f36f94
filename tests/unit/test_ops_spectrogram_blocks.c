/* spectrogram's "ft" output, written 16 windows at a time: a signal of 37 windows (two full
 * blocks and a partial one) gives exactly the transpose of its "tf" output, and a step tone
 * puts its power in the windows it covers (hand-computed: a constant 1 over a 16-sample
 * all-ones window is 256 in bin 0). */
#include "tests/testlib/oneop.h"

TestSuite(ops_spectrogram_blocks, .timeout = 20);

static tl_oneop_t spectrogram_blocks_op(const char *layout)
{
	tl_oneop_t t = tl_oneop("spectrogram", 1, 1, NULL);
	double ones[16];
	for (int k = 0; k < 16; k++)
		ones[k] = 1;
	ASSERT_OK(dalic_op_set_int(t.op, "window_length", 16));
	ASSERT_OK(dalic_op_set_int(t.op, "nfft", 16));
	ASSERT_OK(dalic_op_set_int(t.op, "window_step", 16));
	ASSERT_OK(dalic_op_set_floats(t.op, "window_fn", 16, ones));
	ASSERT_OK(dalic_op_set_bool(t.op, "center_windows", false));
	ASSERT_OK(dalic_op_set_string(t.op, "layout", layout));
	return t;
}

Test(ops_spectrogram_blocks, ft_is_the_transpose_of_tf)
{
	/* 37 windows of 16: windows 20..29 are ones, the rest zeros */
	float x[37 * 16] = {0};
	for (int k = 20 * 16; k < 30 * 16; k++)
		x[k] = 1;
	tl_oneop_t tf = spectrogram_blocks_op("tf"), ft = spectrogram_blocks_op("ft");
	tl_oneop_feed_f32(&tf, "in", 1, 1, (int64_t[]){37 * 16}, x, NULL);
	tl_oneop_feed_f32(&ft, "in", 1, 1, (int64_t[]){37 * 16}, x, NULL);
	const dalic_batch_t *a = tl_run(tf.p, 0), *b = tl_run(ft.p, 0);
	tl_expect_shape(a, 0, 2, (int64_t[]){37, 9});
	tl_expect_shape(b, 0, 2, (int64_t[]){9, 37});
	for (int w = 0; w < 37; w++)
		for (int f = 0; f < 9; f++) {
			double want = f == 0 && w >= 20 && w < 30 ? 256 : 0;
			cr_expect_float_eq(tl_at(a, 0, w * 9 + f), want, 1e-3, "tf w%d f%d", w, f);
			cr_expect_eq(tl_at(b, 0, f * 37 + w), tl_at(a, 0, w * 9 + f), "ft f%d w%d", f,
			             w);
		}
	dalic_pipeline_destroy(tf.p);
	dalic_pipeline_destroy(ft.p);
}
