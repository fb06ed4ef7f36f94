/*
 * The BATCH pane on real decoded video: experimental.readers.video's FHWC sequences of a clip
 * the test writes are drawn as a strip of frames (chafa block cells), not a number dump.
 */
#include "tests/testlib/tui.h"
#include "tests/testlib/video_clip.h"

TestSuite(tui_video, .timeout = 60, .fini = tl_tmpdir_remove);

Test(tui_video, reader_sequences_are_a_strip_of_frames)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 12, .gop = 1, .clip_id = 2};
	tl_clip_defaults(&c);
	const char *clip = tl_tmp_path("clip.avi");
	char err[512];
	cr_assert_eq(tl_clip_write(clip, &c, err, sizeof err), 0, "%s", err);
	char text[1024];
	int n = snprintf(text, sizeof text,
	                 "from nvidia.dali import pipeline_def, fn\n"
	                 "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                 "def p():\n"
	                 "    return fn.experimental.readers.video(filenames=['%s'],\n"
	                 "                                         sequence_length=4, stride=2)\n"
	                 "pipe = p()\n",
	                 clip);
	cr_assert_lt(n, (int)sizeof text);
	const char *script = tl_tmp_path("video.py");
	tl_write_file(script, text, (size_t)n);
	tl_tui_t r = tl_tui_run(script, "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "UINT8 FHWC");
	tl_tui_expect_has(&r, 1, "[4, 96, 160, 3]");
	tl_tui_expect_lacks(&r, 1, "= [");
	int cells = 0;
	for (const unsigned char *p = (const unsigned char *)tl_tui_dump(&r, 1); p[0]; p++)
		if (p[0] == 0xe2 && p[1] == 0x96 && p[2] >= 0x80 && p[2] <= 0x9f)
			cells++;
	cr_expect_gt(cells, 40, "no frames:\n%s", tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}
