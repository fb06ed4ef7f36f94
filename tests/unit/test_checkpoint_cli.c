/*
 * `dalic run --checkpoint FILE --at N --save-checkpoint FILE`: the dumps after a seek are the
 * files of running N iterations, byte for byte; a pipeline that cannot seek says which
 * operators made it run the iterations.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CKC_PIPE "tests/data/checkpoints/pipe_rng_reader.py"

TestSuite(checkpoint_cli, .timeout = 120, .fini = tl_tmpdir_remove);

/* Files i<it>_o<o>_s<s>.npy (zero-padded) of two dumps agree for iterations [from, to). */
static void ckc_expect_same_dumps(const char *a, const char *b, int from, int to, int outputs,
				  int batch)
{
	for (int it = from; it < to; it++)
		for (int o = 0; o < outputs; o++)
			for (int s = 0; s < batch; s++) {
				char pa[512], pb[512];
				snprintf(pa, sizeof pa, "%s/i%06d_o%d_s%03d.npy", a, it, o, s);
				snprintf(pb, sizeof pb, "%s/i%06d_o%d_s%03d.npy", b, it, o, s);
				size_t na, nb;
				void *da = tl_try_read_file(pa, &na), *db = tl_try_read_file(pb, &nb);
				cr_expect(da && db, "missing %s or %s", pa, pb);
				cr_expect(!da || !db || (na == nb && !memcmp(da, db, na)),
					  "%s differs from %s", pa, pb);
				free(da);
				free(db);
			}
}

static void ckc_expect_same_file(const char *a, const char *b, const char *what)
{
	size_t na, nb;
	void *da = tl_read_file(a, &na), *db = tl_read_file(b, &nb);
	cr_expect(na == nb && !memcmp(da, db, na), "%s differ", what);
	free(da);
	free(db);
}

Test(checkpoint_cli, at_n_equals_running_n)
{
	const char *ref = tl_tmp_path("ref"), *seek = tl_tmp_path("seek");
	tl_cmd_t c = tl_dalic(NULL, "run " CKC_PIPE " -n 14 --dump %s", ref);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run " CKC_PIPE " --at 11 -n 3 --dump %s", seek);
	cr_assert_eq(c.status, 0, "%s", c.out);
	cr_expect(!strstr(c.out, "seek ran"), "the seek ran iterations: %s", c.out);
	tl_cmd_free(&c);
	ckc_expect_same_dumps(ref, seek, 11, 14, 4, 5);
	/* nothing before the seek's end was dumped */
	size_t n;
	void *none = tl_try_read_file(tl_tmp_path("seek/i000010_o0_s000.npy"), &n);
	cr_expect(none == NULL);
	free(none);
}

/* From DALI's checkpoint after 3 outputs to iteration 9 == running 9 from the start; the
 * checkpoint saved at the end equals one saved by a plain run. */
Test(checkpoint_cli, checkpoint_then_at)
{
	const char *ref = tl_tmp_path("ref2"), *seek = tl_tmp_path("seek2");
	const char *ck_ref = tl_tmp_path("ref.ckpt"), *ck_seek = tl_tmp_path("seek.ckpt");
	tl_cmd_t c = tl_dalic(NULL, "run " CKC_PIPE " -n 11 --dump %s --save-checkpoint %s", ref,
			      ck_ref);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL,
		     "run " CKC_PIPE " --checkpoint tests/data/checkpoints/rng_reader_iter3.ckpt "
		     "--at 9 -n 2 --dump %s --save-checkpoint %s",
		     seek, ck_seek);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	ckc_expect_same_dumps(ref, seek, 9, 11, 4, 5);
	ckc_expect_same_file(ck_ref, ck_seek, "checkpoints after 11 iterations");
	c = tl_dalic(NULL, "checkpoint show %s", ck_seek);
	EXPECT_HAS(c.out, "resumes after output 11");
	tl_cmd_free(&c);
}

Test(checkpoint_cli, at_before_checkpoint_refused)
{
	tl_cmd_t c = tl_dalic(NULL, "run " CKC_PIPE " --checkpoint "
				    "tests/data/checkpoints/rng_reader_iter7.ckpt --at 2 -n 1");
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "--at 2: the checkpoint is already at iteration 7");
	tl_cmd_free(&c);
}

Test(checkpoint_cli, conditional_pipeline_runs_and_says_why)
{
	const char *ref = tl_tmp_path("ref3"), *seek = tl_tmp_path("seek3");
	const char *pipe = "samples/scripts/conditional_rotate.py";
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 3 --dump %s", pipe, ref);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s --at 2 -n 1 --dump %s", pipe, seek);
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "seek ran 2 iterations");
	EXPECT_HAS(c.out, "(a conditional: batch sizes depend on the data)");
	tl_cmd_free(&c);
	ckc_expect_same_dumps(ref, seek, 2, 3, 4, 6);
}

/* `--at N` with another reader of the reader core: readers.numpy with shuffle_after_epoch (7
 * files, batch 3: iteration 5 is in the third, reshuffled epoch), checkpoint saved after. */
Test(checkpoint_cli, at_n_numpy_reader)
{
	const char *root = tl_tmp_path("npy");
	cr_assert_eq(mkdir(root, 0755), 0);
	for (int f = 0; f < 7; f++) {
		char path[600];
		snprintf(path, sizeof path, "%s/f%d.npy", root, f);
		int32_t v[3] = {f, 2 * f, 3 * f};
		tl_npy_write(path, "<i4", false, 1, (int64_t[]){3}, v, 4);
	}
	char script[1024];
	snprintf(script, sizeof script,
		 "from nvidia.dali import pipeline_def, fn\n"
		 "@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=5)\n"
		 "def npy_pipe():\n"
		 "    return fn.readers.numpy(file_root=\"%s\", shuffle_after_epoch=True, "
		 "name=\"Reader\")\n"
		 "pipe = npy_pipe(enable_checkpointing=True)\n",
		 root);
	char pipe[300];
	snprintf(pipe, sizeof pipe, "%s", tl_write_temp("ckc_npy", ".py", script));
	const char *ref = tl_tmp_path("ref4"), *seek = tl_tmp_path("seek4");
	const char *ck_ref = tl_tmp_path("ref4.ckpt"), *ck_seek = tl_tmp_path("seek4.ckpt");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 8 --dump %s --save-checkpoint %s", pipe, ref, ck_ref);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s --at 5 -n 3 --dump %s --save-checkpoint %s", pipe, seek,
		     ck_seek);
	cr_assert_eq(c.status, 0, "%s", c.out);
	cr_expect(!strstr(c.out, "seek ran"), "the seek ran iterations: %s", c.out);
	tl_cmd_free(&c);
	unlink(pipe);
	ckc_expect_same_dumps(ref, seek, 5, 8, 1, 3);
	ckc_expect_same_file(ck_ref, ck_seek, "checkpoints after 8 iterations");
}
