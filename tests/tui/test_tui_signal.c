/*
 * BATCH pane pictures of signals: a 1-D audio-like sample is drawn as a waveform, a
 * spectrogram ("ft") as a heat map and an FHWC sequence as a strip of frames — chafa block
 * cells where a number dump used to be — while short 1-D tensors stay numbers.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_signal, .timeout = 60);

/* Cells drawn with block elements (U+2580..U+259F). */
static int tui_signal_block_cells(const char *dump)
{
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)dump; p[0]; p++)
		if (p[0] == 0xe2 && p[1] == 0x96 && p[2] >= 0x80 && p[2] <= 0x9f)
			n++;
	return n;
}

/* A script whose one output is EXPR (over `noise`, 4000 normal values, and `frames`). */
static const char *tui_signal_script(const char *name, const char *expr)
{
	char text[1024];
	int n = snprintf(text, sizeof text,
	                 "from nvidia.dali import pipeline_def, fn, types\n"
	                 "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)\n"
	                 "def p():\n"
	                 "    noise = fn.random.normal(shape=[4000])\n"
	                 "    jpegs, _ = fn.readers.file(file_root='samples/images')\n"
	                 "    img = fn.resize(fn.decoders.image(jpegs), size=[48, 64])\n"
	                 "    frames = fn.stack(img, img, img, axis=0, axis_name='F')\n"
	                 "    return %s\n"
	                 "pipe = p()\n",
	                 expr);
	const char *path = tl_tmp_path(name);
	tl_write_file(path, text, (size_t)n);
	return path;
}

Test(tui_signal, audio_is_a_waveform)
{
	tl_tui_t r = tl_tui_run(tui_signal_script("wave.py", "noise"), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "[4000] FLOAT");
	tl_tui_expect_lacks(&r, 1, "= [");
	cr_expect_gt(tui_signal_block_cells(tl_tui_dump(&r, 1)), 40, "no waveform:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_signal, spectrogram_is_a_heat_map)
{
	tl_tui_t r = tl_tui_run(
	    /* noise and silence in turns: a uniform map would be blank in a monochrome dump */
	    tui_signal_script("spec.py", "fn.spectrogram(fn.cat(noise, noise * 0, noise, "
	                                 "noise * 0), nfft=256, window_length=256, "
	                                 "window_step=128)"),
	    "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "FLOAT ft");
	tl_tui_expect_lacks(&r, 1, "= [");
	cr_expect_gt(tui_signal_block_cells(tl_tui_dump(&r, 1)), 12, "no heat map:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_signal, video_is_a_strip_of_frames)
{
	tl_tui_t r = tl_tui_run(tui_signal_script("frames.py", "frames"), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "UINT8 FHWC");
	tl_tui_expect_has(&r, 1, "[3, 48, 64, 3]");
	cr_expect_gt(tui_signal_block_cells(tl_tui_dump(&r, 1)), 40, "no frames:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_signal, short_tensors_stay_numbers)
{
	tl_tui_t r = tl_tui_run(tui_signal_script("short.py", "fn.random.normal(shape=[8])"),
	                        "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "#0   [8] = [");
	tl_tui_free(&r);
}
