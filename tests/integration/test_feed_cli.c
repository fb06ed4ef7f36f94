/*
 * `--feed NAME=PATH` (cli/feed.c): external sources of a script read from a .npy, a
 * directory of per-sample files or a text list, batch by batch, cycling — through the dalic
 * binary ($DALIC_BIN, set by `make test`) and its --dump files.
 */
#include "tests/testlib.h"
#include "tests/testlib/tui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

TestSuite(feed_cli, .timeout = 60, .fini = tl_tmpdir_remove);

static const char *const FEED_SCRIPT =
    "from nvidia.dali import pipeline_def\n"
    "import nvidia.dali.fn as fn\n"
    "import nvidia.dali.types as types\n"
    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
    "def p():\n"
    "    x = fn.external_source(name='x', dtype=types.FLOAT)\n"
    "    y = fn.external_source(name='y', dtype=types.INT16)\n"
    "    j = fn.external_source(name='jpegs', dtype=types.UINT8)\n"
    "    return x * 2, y, fn.decoders.image(j, device='cpu')\n"
    "pipe = p()\n";

/* A .npy (format 1.0) of `descr` with the shape text and raw data. */
static void feed_write_npy(const char *path, const char *descr, const char *shape,
                           const void *data, size_t bytes)
{
	char h[256];
	int len = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
	                   descr, shape);
	int pad = (64 - (10 + len + 1) % 64) % 64;
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	unsigned short hl = (unsigned short)(len + pad + 1);
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	fputc(hl & 0xff, f);
	fputc(hl >> 8, f);
	fwrite(h, 1, (size_t)len, f);
	fprintf(f, "%*s\n", pad, "");
	fwrite(data, 1, bytes, f);
	fclose(f);
}

/* The data of a dumped .npy (past its header); new buffer. */
static void *feed_read_npy(const char *dir, int it, int o, int s, size_t *bytes)
{
	char path[512];
	snprintf(path, sizeof path, "%s/i%06d_o%d_s%03d.npy", dir, it, o, s);
	size_t n;
	unsigned char *b = tl_read_file(path, &n);
	size_t off = 10 + (b[8] | (size_t)b[9] << 8);
	*bytes = n - off;
	memmove(b, b + off, *bytes);
	return b;
}

/* x.npy: float32 [5, 2, 3] = arange; d/: int16 samples [1] of 0, [2] of 1, [3] of 2; a list
 * of two JPEGs. Returns the script's path (static: tl_tmp_path's buffers rotate). */
static const char *feed_setup(void)
{
	static char script[512];
	float x[30];
	for (int i = 0; i < 30; i++)
		x[i] = (float)i;
	feed_write_npy(tl_tmp_path("x.npy"), "<f4", "(5, 2, 3)", x, sizeof x);
	mkdir(tl_tmp_path("d"), 0755);
	for (int i = 0; i < 3; i++) {
		int16_t v[3] = {(int16_t)i, (int16_t)i, (int16_t)i};
		char name[32], shape[16];
		snprintf(name, sizeof name, "d/s%d.npy", i);
		snprintf(shape, sizeof shape, "(%d,)", i + 1);
		feed_write_npy(tl_tmp_path(name), "<i2", shape, v, sizeof(int16_t) * (size_t)(i + 1));
	}
	char cwd[400], list[1024];
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	snprintf(list, sizeof list,
	         "# two images\n%s/samples/images/cat/chelsea.jpg\n\n"
	         "%s/samples/images/space/rocket.jpg\n",
	         cwd, cwd);
	tl_write_text(tl_tmp_path("list.txt"), list);
	snprintf(script, sizeof script, "%s", tl_tmp_path("feed.py"));
	tl_write_text(script, FEED_SCRIPT);
	return script;
}

static void feed_check_dump(const char *dir)
{
	/* x * 2, first element of each sample: samples 0,1 | 2,3 | 4,0 (cycled mid-batch) */
	const float first[3][2] = {{0, 12}, {24, 36}, {48, 0}};
	/* y: the directory's files in name order, cycled: s0 s1 | s2 s0 | s1 s2 */
	const int ylen[3][2] = {{1, 2}, {3, 1}, {2, 3}};
	for (int it = 0; it < 3; it++)
		for (int s = 0; s < 2; s++) {
			size_t n;
			float *x = feed_read_npy(dir, it, 0, s, &n);
			cr_expect_eq(n, 6 * sizeof(float));
			cr_expect_float_eq(x[0], first[it][s], 0, "x it %d s %d", it, s);
			cr_expect_float_eq(x[5], first[it][s] + 10, 0, "x it %d s %d", it, s);
			free(x);
			int16_t *y = feed_read_npy(dir, it, 1, s, &n);
			cr_expect_eq(n, sizeof(int16_t) * (size_t)ylen[it][s], "y it %d s %d", it, s);
			cr_expect_eq(y[0], ylen[it][s] - 1);
			free(y);
		}
}

Test(feed_cli, run_reads_npy_directories_and_lists_batch_by_batch)
{
	const char *script = feed_setup();
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 3 --feed x=%s --feed y=%s --feed jpegs=%s --dump %s",
	                      script, tl_tmp_path("x.npy"), tl_tmp_path("d"),
	                      tl_tmp_path("list.txt"), tl_tmp_path("out"));
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "output 2: __Image_1 dtype=UINT8 layout=\"HWC\" device=cpu samples=2\n"
	                  "  shapes: [300, 451, 3] [427, 640, 3]");
	tl_cmd_free(&c);
	feed_check_dump(tl_tmp_path("out"));
}

Test(feed_cli, debug_mode_reads_the_same_batches)
{
	const char *script = feed_setup();
	tl_cmd_t c = tl_dalic(NULL,
	                      "run %s -n 3 --debug --feed x=%s --feed y=%s --feed jpegs=%s "
	                      "--dump %s",
	                      script, tl_tmp_path("x.npy"), tl_tmp_path("d"),
	                      tl_tmp_path("list.txt"), tl_tmp_path("dbg"));
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	feed_check_dump(tl_tmp_path("dbg"));
	c = tl_dalic("next\nprint y\nquit\n", "debug %s --feed x=%s --feed y=%s --feed jpegs=%s",
	             script, tl_tmp_path("x.npy"), tl_tmp_path("d"), tl_tmp_path("list.txt"));
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "shape=[(1,), (2,)]");
	tl_cmd_free(&c);
}

Test(feed_cli, bad_feeds_are_errors_naming_the_source_and_the_file)
{
	const char *script = feed_setup();
	tl_cmd_t c = tl_dalic(NULL, "run %s --feed zz=%s", script, tl_tmp_path("x.npy"));
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "no external_source named 'zz'");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s --feed x=%s", script, tl_tmp_path("missing.npy"));
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "--feed x: no file or directory '");
	tl_cmd_free(&c);
	tl_write_text(tl_tmp_path("bad.npy"), "not numpy");
	c = tl_dalic(NULL, "run %s --feed x=%s", script, tl_tmp_path("bad.npy"));
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "bad.npy' is not a .npy file");
	tl_cmd_free(&c);
	feed_write_npy(tl_tmp_path("big.npy"), ">f4", "(2, 2)", "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
	               16);
	c = tl_dalic(NULL, "run %s --feed x=%s", script, tl_tmp_path("big.npy"));
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "only little-endian, C-order numeric .npy arrays");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s --feed x", script);
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "--feed (NAME=PATH)");
	tl_cmd_free(&c);
}

/* a source in the supported subset runs (sdsource.h); --feed replaces it with files */
Test(feed_cli, a_python_source_runs_and_feed_replaces_it)
{
	feed_setup();
	char script[512];
	snprintf(script, sizeof script, "%s", tl_tmp_path("gen.py"));
	tl_write_text(script, "import numpy as np\n"
	                      "from nvidia.dali import pipeline_def, fn, types\n"
	                      "def sample_source(info):\n"
	                      "    return np.full((2, 3), info.idx_in_epoch, dtype=np.float32)\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def p():\n"
	                      "    return fn.external_source(source=sample_source, batch=False,\n"
	                      "                              name='x', dtype=types.FLOAT)\n"
	                      "pipe = p()\n");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 2", script);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "shapes: [2, 3] x 2");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s -n 3 --feed x=%s", script, tl_tmp_path("x.npy"));
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "shapes: [2, 3] x 2");
	tl_cmd_free(&c);
}

/* a source reaching code dalic does not model fails naming --feed */
Test(feed_cli, a_python_source_outside_the_subset_points_to_feed)
{
	feed_setup();
	char script[512];
	snprintf(script, sizeof script, "%s", tl_tmp_path("torchsrc.py"));
	tl_write_text(script, "import torch\n"
	                      "from nvidia.dali import pipeline_def, fn, types\n"
	                      "def batches():\n"
	                      "    return [torch.rand(2, 3) for _ in range(2)]\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def p():\n"
	                      "    return fn.external_source(source=batches, name='x',\n"
	                      "                              dtype=types.FLOAT)\n"
	                      "pipe = p()\n");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 1", script);
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "external_source 'x' (iteration 0): its Python source (line 7) failed");
	EXPECT_HAS(c.out, "otherwise give the data with --feed x=PATH");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s -n 3 --feed x=%s", script, tl_tmp_path("x.npy"));
	cr_expect_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
}

Test(feed_cli, the_workbench_runs_fed_sources_in_both_engines)
{
	const char *script = feed_setup();
	char args[2048];
	snprintf(args, sizeof args, "--feed x=%s --feed y=%s --feed jpegs=%s", tl_tmp_path("x.npy"),
	         tl_tmp_path("d"), tl_tmp_path("list.txt"));
	tl_tui_t r = tl_tui_run(script, "n\nn\nn\ndump\ne\nn\ndump\nq\n", args);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "it 2");
	tl_tui_expect_has(&r, 2, "debug (eager)");
	cr_expect_null(strstr(tl_tui_dump(&r, 2), "no data was fed"), "%s", tl_tui_dump(&r, 2));
	tl_tui_free(&r);
	snprintf(args, sizeof args, "--feed x=%s", tl_tmp_path("nothing.npy"));
	r = tl_tui_run(script, "dump\nq\n", args);
	tl_tui_expect_has(&r, 1, "--feed x: no file or directory");
	tl_tui_free(&r);
}

/* fed files are named in BATCH as a reader's are, in both engines (#12) */
Test(feed_cli, the_workbench_shows_each_fed_samples_file)
{
	feed_setup();
	const char *script = tl_tmp_path("images.py");
	tl_write_text(script, "from nvidia.dali import pipeline_def\n"
	                      "import nvidia.dali.fn as fn\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def p():\n"
	                      "    j = fn.external_source(name='jpegs')\n"
	                      "    return fn.decoders.image(j, device='cpu')\n"
	                      "pipe = p()\n");
	char args[2048];
	snprintf(args, sizeof args, "--feed jpegs=%s", tl_tmp_path("list.txt"));
	tl_tui_t r = tl_tui_run(script, "n\ndump\n<Tab>\n<Tab>\n<Tab>\n<Right>\ndump\ne\nn\ndump\nq\n",
	                        args);
	cr_expect_eq(r.status, 0, "%s", r.out);
	/* the whole path is wider than the pane: its end is shown */
	tl_tui_expect_has(&r, 1, "images/cat/chelsea.jpg");
	tl_tui_expect_has(&r, 2, "images/space/rocket.jpg");
	tl_tui_expect_has(&r, 3, "debug (eager)");
	tl_tui_expect_has(&r, 3, "images/space/rocket.jpg"); /* sample #1 stays selected */
	tl_tui_free(&r);
}
