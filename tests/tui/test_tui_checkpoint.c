/*
 * Checkpoints and mark / since in the workbench (tui/runner_ckpt.c, tui/runner_mark.c):
 * `c` writes the checkpoint of the current iteration — after 3 iterations of the golden
 * pipeline, DALI's own file byte for byte (tests/data/checkpoints/, written by real DALI) —;
 * QUEUES shows each reader's position (epoch 1, 3 of 12 samples into it, as DALI's file
 * says) and the status line the epoch; `--checkpoint F` and `--at N` open either engine
 * there, and the next batch is the one DALI gave next (the .next.txt file); without
 * enable_checkpointing the position says why it is missing and `c` refuses. `m` / `M` mark
 * the memory counters and show what grew since, in both engines.
 */
#include "tests/testlib.h"
#include "tests/testlib/tui.h"

#include <stdlib.h>
#include <string.h>

#define TCK_DIR "tests/data/checkpoints/"
#define TCK_PIPE TCK_DIR "pipe_rng_reader.py"

TestSuite(tui_checkpoint, .timeout = 120, .fini = tl_tmpdir_remove);

static void tck_expect_same_file(const char *path, const char *golden)
{
	size_t n, m;
	void *got = tl_read_file(path, &n), *want = tl_read_file(golden, &m);
	cr_expect(n == m && !memcmp(got, want, n), "%s differs from DALI's %s (%zu vs %zu bytes)",
	          path, golden, n, m);
	free(got);
	free(want);
}

/* The labels the BATCH pane shows (Reader[1], "= [L]" per sample), in order. */
static void tck_expect_labels(const tl_tui_t *r, int dump, const char *want)
{
	char got[32] = "";
	const char *d = tl_tui_dump(r, dump);
	for (const char *p = strstr(d, "= ["); p && strlen(got) < 31; p = strstr(p + 3, "= ["))
		strncat(got, p + 3, 1);
	cr_expect_str_eq(got, want, "labels of dump %d:\n%s", dump, d);
}

Test(tui_checkpoint, key_saves_dalis_checkpoint_and_shows_the_position)
{
	const char *f = tl_tmp_path("tui3.ckpt");
	char keys[256];
	snprintf(keys, sizeof keys, "dump\nn\nn\nn\nc\ntype %s\n<Enter>\ndump\nq\n", f);
	tl_tui_t r = tl_tui_run(TCK_PIPE, keys, "--size 120x30");
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "Reader: epoch 0, sample 0/12");
	tl_tui_expect_has(&r, 2, "it 3 ");
	tl_tui_expect_has(&r, 2, "epoch 0 ");
	tl_tui_expect_has(&r, 2, "Reader: epoch 1, sample 3/12");
	tl_tui_expect_has(&r, 2, "it opens at iteration 3");
	tl_tui_free(&r);
	tck_expect_same_file(f, TCK_DIR "rng_reader_iter3.ckpt");
}

/* Opened at DALI's checkpoint after 7 iterations, in either engine: the position is the
 * file's, the next batch DALI's next (labels 1 2 1 0 0), and saved at once it is the file. */
static void tck_open_at_checkpoint(const char *engine)
{
	const char *f = tl_tmp_path("again.ckpt");
	char keys[256], args[256];
	snprintf(keys, sizeof keys, "dump\nc\ntype %s\n<Enter>\nn\ndump\nq\n", f);
	snprintf(args, sizeof args,
	         "--size 120x30 --checkpoint " TCK_DIR "rng_reader_iter7.ckpt %s", engine);
	tl_tui_t r = tl_tui_run(TCK_PIPE, keys, args);
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "it 7");
	tl_tui_expect_has(&r, 1, "Reader: epoch 2, sample 11");
	tl_tui_expect_has(&r, 2, "Reader: epoch 3, sample 4");
	if (!*engine) /* the debug engine shows the node it ran last, not the outputs */
		tck_expect_labels(&r, 2, "12100");
	tl_tui_free(&r);
	tck_expect_same_file(f, TCK_DIR "rng_reader_iter7.ckpt");
}

Test(tui_checkpoint, opens_at_a_dali_checkpoint)
{
	tck_open_at_checkpoint("");
}

Test(tui_checkpoint, opens_at_a_dali_checkpoint_in_the_debug_engine)
{
	tck_open_at_checkpoint("--debug");
}

/* --at 7 from the start moves the readers and generators on: the same place as DALI's
 * checkpoint after 7 iterations, and the note says nothing had to run. */
Test(tui_checkpoint, at_from_the_start)
{
	const char *f = tl_tmp_path("at7.ckpt");
	char keys[256];
	snprintf(keys, sizeof keys, "dump\nc\ntype %s\n<Enter>\nq\n", f);
	tl_tui_t r = tl_tui_run(TCK_PIPE, keys, "--size 120x30 --at 7");
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "it 7");
	tl_tui_expect_has(&r, 1, "moved 7 iterations on without running them");
	tl_tui_expect_has(&r, 1, "Reader: epoch 2, sample 11/12");
	tl_tui_free(&r);
	tck_expect_same_file(f, TCK_DIR "rng_reader_iter7.ckpt");
}

Test(tui_checkpoint, without_checkpointing)
{
	tl_tui_t r = tl_tui_run("@coin", "n\nc\n<Enter>\ndump\nq\n", "--size 120x30");
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "positions: checkpointing off");
	tl_tui_expect_has(&r, 1, "opened without enable_checkpointing");
	tl_tui_free(&r);
}

/* m then one iteration then M: the first iteration's buffers were allocated after the mark;
 * in both engines (the full one not pipelined, so that the collector counts exactly the
 * iterations run, none ahead). */
static void tck_mark_since(const char *engine)
{
	char args[128];
	snprintf(args, sizeof args,
	         "--size 120x34 --exec-pipelined=False --exec-async=False "
	         "--prefetch-queue-depth 1 %s",
	         engine);
	tl_tui_t r = tl_tui_run(TCK_PIPE, "M\ndump\nm\nn\nM\ndump\nM\ndump\nq\n", args);
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "no mark yet: m marks the memory counters");
	tl_tui_expect_has(&r, 2, "SINCE MARK at iteration 0 (1 iterations)");
	tl_tui_expect_has(&r, 2, "bytes live");
	tl_tui_expect_has(&r, 2, "__CoinFlip_0");
	tl_tui_expect_lacks(&r, 3, "SINCE MARK");
	tl_tui_free(&r);
}

Test(tui_checkpoint, mark_and_since)
{
	tck_mark_since("");
}

Test(tui_checkpoint, mark_and_since_in_the_debug_engine)
{
	tck_mark_since("--debug");
}
