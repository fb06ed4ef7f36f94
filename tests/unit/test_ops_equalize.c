/* equalize: OpenCV's equalizeHist per plane. For the plane {0, 0, 1, 1, 2, 2, 2, 3}: bins
 * 2, 2, 3, 1; the lowest bin maps to 0, scale = 255 / (8 - 2) = 42.5, so 1 -> 2 * 42.5 = 85,
 * 2 -> 5 * 42.5 = 212.5 -> 212 (ties to even), 3 -> 255. */
#include "tests/testlib/oneop.h"

TestSuite(ops_equalize, .timeout = 20);

static const uint8_t ops_equalize_plane[8] = {0, 0, 1, 1, 2, 2, 2, 3};
static const double ops_equalize_want[8] = {0, 0, 85, 85, 212, 212, 212, 255};

Test(ops_equalize, one_grey_plane)
{
	tl_oneop_t t = tl_oneop("equalize", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 2, (const int64_t[]){2, 4}, ops_equalize_plane, "HW");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_values(out, 0, 8, ops_equalize_want);
	dalic_pipeline_destroy(t.p);
}

Test(ops_equalize, channels_and_frames_are_separate_planes)
{
	/* HWC with 2 channels: channel 0 is the plane above, channel 1 is constant 9 (kept) */
	uint8_t hwc[16];
	double want[16];
	for (int k = 0; k < 8; k++) {
		hwc[2 * k] = ops_equalize_plane[k];
		hwc[2 * k + 1] = 9;
		want[2 * k] = ops_equalize_want[k];
		want[2 * k + 1] = 9;
	}
	tl_oneop_t t = tl_oneop("equalize", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){2, 4, 2}, hwc, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 16, want);
	dalic_pipeline_destroy(t.p);

	/* FCHW: two frames of one channel; the second frame is the plane shifted by 100 */
	uint8_t f[16];
	double wf[16];
	for (int k = 0; k < 8; k++) {
		f[k] = ops_equalize_plane[k];
		f[8 + k] = (uint8_t)(ops_equalize_plane[k] + 100);
		wf[k] = wf[8 + k] = ops_equalize_want[k];
	}
	t = tl_oneop("equalize", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 4, (const int64_t[]){2, 1, 2, 4}, f, "FCHW");
	tl_expect_values(tl_run(t.p, 0), 0, 16, wf);
	dalic_pipeline_destroy(t.p);
}

Test(ops_equalize, refuses_other_types_and_layouts)
{
	tl_oneop_t t = tl_oneop("equalize", 1, 1, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){1, 2}, (const float[]){1, 2}, "HW");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported input type for equalize operator");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("equalize", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){2, 4, 1}, ops_equalize_plane, "WHC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "does not match any of the allowed layouts");
	dalic_pipeline_destroy(t.p);
}

Test(ops_equalize, legacy_experimental_alias)
{
	tl_oneop_t t = tl_oneop("experimental.equalize", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 2, (const int64_t[]){2, 4}, ops_equalize_plane, "HW");
	tl_expect_values(tl_run(t.p, 0), 0, 8, ops_equalize_want);
	dalic_pipeline_destroy(t.p);
}
