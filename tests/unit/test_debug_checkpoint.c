/*
 * Debug mode's `checkpoint save FILE` / `checkpoint load FILE` (dalic_debug_checkpoint_save
 * and _load): between iterations the saved file is DALI 2.4's checkpoint byte for byte (the
 * golden files of tests/data/checkpoints/, which real DALI wrote), after `next` and after
 * `goto`; a loaded checkpoint resumes where it says; refusals mid-iteration and without
 * enable_checkpointing; the commands through `dalic debug`.
 */
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>

#define DBC_DIR "tests/data/checkpoints/"
#define DBC_PIPE DBC_DIR "pipe_rng_reader.py"

TestSuite(debug_checkpoint, .timeout = 60, .fini = tl_tmpdir_remove);

static dalic_pipeline_t *dbc_open(bool checkpointing)
{
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_CHECKPOINTING;
	o.params.enable_checkpointing = checkpointing;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(DBC_PIPE, NULL, &o, &p));
	return p;
}

static void dbc_expect_file_is(const char *path, const char *golden)
{
	size_t n, m;
	void *got = tl_read_file(path, &n), *want = tl_read_file(golden, &m);
	cr_expect(n == m && !memcmp(got, want, n), "%s differs from DALI's %s (%zu vs %zu bytes)",
		  path, golden, n, m);
	free(got);
	free(want);
}

Test(debug_checkpoint, save_is_dalis_checkpoint)
{
	dalic_pipeline_t *p = dbc_open(true);
	dalic_debug_t *s = tl_debug_open(p);
	const char *f0 = tl_tmp_path("at0.ckpt"), *f3 = tl_tmp_path("at3.ckpt"),
		   *f7 = tl_tmp_path("at7.ckpt");
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f0));
	dbc_expect_file_is(f0, DBC_DIR "rng_reader_iter0.ckpt");
	for (int i = 0; i < 3; i++)
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	/* iteration 2 complete: the start of iteration 3 */
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f3));
	dbc_expect_file_is(f3, DBC_DIR "rng_reader_iter3.ckpt");
	/* goto from the start (the seek) */
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 7));
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f7));
	dbc_expect_file_is(f7, DBC_DIR "rng_reader_iter7.ckpt");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_checkpoint, load_resumes_at_the_checkpoint)
{
	dalic_pipeline_t *ref = dbc_open(true);
	for (int i = 0; i < 8; i++)
		ASSERT_OK(dalic_pipeline_run(ref));
	dalic_pipeline_t *p = dbc_open(true);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s)); /* anywhere: load restarts */
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_load(s, DBC_DIR "rng_reader_iter7.ckpt"));
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.iteration, 7);
	cr_expect_eq(st.next_op, 0);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	for (int o = 0; o < dalic_pipeline_num_outputs(ref); o++)
		tl_expect_same_batch(dalic_debug_output(s, o), dalic_pipeline_output(ref, o),
				     "iteration 7 after checkpoint load");
	/* and saved again right away, it is the next golden checkpoint's position */
	const char *f8 = tl_tmp_path("at8.ckpt");
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f8));
	uint8_t *want;
	size_t n;
	ASSERT_OK(dalic_pipeline_checkpoint(ref, &want, &n));
	size_t m;
	void *got = tl_read_file(f8, &m);
	cr_expect(m == n && !memcmp(got, want, n), "debug checkpoint after 8 differs from the "
		  "engine's");
	free(got);
	free(want);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(ref);
}

Test(debug_checkpoint, refusals)
{
	dalic_pipeline_t *p = dbc_open(true);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_step(s));
	cr_expect_eq(dalic_debug_checkpoint_save(s, tl_tmp_path("mid.ckpt")), DALIC_ESTATE);
	EXPECT_DEBUG_ERROR_HAS(s, "checkpoint save: iteration 0 is under way (1 of its");
	cr_expect_neq(dalic_debug_checkpoint_load(s, DBC_DIR "old_format.ckpt"), DALIC_OK);
	EXPECT_DEBUG_ERROR_HAS(s, "old_format.ckpt");
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.iteration, 0, "a failed load leaves the session at the start");
	cr_expect_neq(dalic_debug_checkpoint_load(s, tl_tmp_path("missing.ckpt")), DALIC_OK);
	EXPECT_DEBUG_ERROR_HAS(s, "missing.ckpt");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);

	p = dbc_open(false);
	s = tl_debug_open(p);
	cr_expect_eq(dalic_debug_checkpoint_save(s, tl_tmp_path("off.ckpt")), DALIC_ESTATE);
	EXPECT_DEBUG_ERROR_HAS(s, "`enable_checkpointing` was not specified");
	cr_expect_eq(dalic_debug_checkpoint_load(s, DBC_DIR "rng_reader_iter3.ckpt"),
		     DALIC_ESTATE);
	EXPECT_DEBUG_ERROR_HAS(s, "Cannot restore checkpoint");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* The commands in `dalic debug`. */
Test(debug_checkpoint, commands)
{
	const char *f = tl_tmp_path("cmd.ckpt");
	char cmds[512];
	snprintf(cmds, sizeof cmds,
		 "next\nnext\nnext\ncheckpoint save %s\ncheckpoint load " DBC_DIR
		 "rng_reader_iter7.ckpt\niter\ncheckpoint bogus\nquit\n", f);
	tl_cmd_t c = tl_dalic(cmds, "debug " DBC_PIPE);
	EXPECT_HAS(c.out, "checkpoint saved to ");
	EXPECT_HAS(c.out, "restored " DBC_DIR "rng_reader_iter7.ckpt");
	EXPECT_HAS(c.out, "iteration 7");
	EXPECT_HAS(c.out, "usage: checkpoint save FILE | checkpoint load FILE");
	tl_cmd_free(&c);
	dbc_expect_file_is(f, DBC_DIR "rng_reader_iter3.ckpt");
}

/* The file's pipeline_data and iterator_data (both JSON) in one string, "P | I". */
static void dbc_expect_context(const char *path, const char *pipeline_data, const char *iter_data)
{
	size_t n;
	uint8_t *buf = tl_read_file(path, &n);
	cr_expect(memmem(buf, n, pipeline_data, strlen(pipeline_data)) != NULL,
		  "%s holds %s", path, pipeline_data);
	if (iter_data)
		cr_expect(memmem(buf, n, iter_data, strlen(iter_data)) != NULL, "%s holds %s", path,
			  iter_data);
	free(buf);
}

/* A loaded checkpoint's epoch_idx (here 2, edited into DALI's file) and its iterator's JSON
 * are kept: the next save says the same epoch, not 0. */
Test(debug_checkpoint, loaded_epoch_and_iterator_data_kept)
{
	size_t n;
	uint8_t *buf = tl_read_file(DBC_DIR "rng_reader_iter3_iterator.ckpt", &n);
	uint8_t *at = memmem(buf, n, "\"epoch_idx\": 0}", 15);
	cr_assert(at);
	at[13] = '2';
	const char *edited = tl_tmp_path("epoch2.ckpt");
	tl_write_file(edited, buf, n);
	free(buf);
	dalic_pipeline_t *p = dbc_open(true);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_load(s, edited));
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.epoch_idx, 2);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	const char *f = tl_tmp_path("after.ckpt");
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f));
	dbc_expect_context(f, "{\"iter\": 4, \"epoch_idx\": 2}", "{\"_counter\": 15, ");
	/* a restart starts over at epoch 0, without the iterator's data */
	ASSERT_DEBUG_OK(s, dalic_debug_restart(s));
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f));
	dbc_expect_file_is(f, DBC_DIR "rng_reader_iter0.ckpt");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* An end of data the session goes on past (more input fed) is DALI's reset after
 * StopIteration: the next epoch. One batch, the end, one more batch: iter 2, epoch 1. */
Test(debug_checkpoint, end_of_data_starts_the_next_epoch)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 2;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.enable_checkpointing = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "a");
	ASSERT_OK(dalic_pipeline_add_output(p, "a", NULL));
	dalic_debug_t *s = tl_debug_open(p);
	int64_t shapes[2] = {1, 1};
	int32_t v[2] = {1, 2};
	ASSERT_OK(dalic_debug_feed_input(s, "a", DALIC_INT32, 1, 2, shapes, v, NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	ASSERT_STATUS(dalic_debug_next(s), DALIC_EEND);
	ASSERT_OK(dalic_debug_feed_input(s, "a", DALIC_INT32, 1, 2, shapes, v, NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.epoch_idx, 1);
	const char *f = tl_tmp_path("epoch1.ckpt");
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f));
	dbc_expect_context(f, "{\"iter\": 2, \"epoch_idx\": 1}", NULL);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* goto from a loaded checkpoint is the seek too: no iteration runs (iterations_done stays
 * 0), and the place reached is DALI's after 7 iterations. */
Test(debug_checkpoint, goto_from_a_loaded_checkpoint_seeks)
{
	dalic_pipeline_t *p = dbc_open(true);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_load(s, DBC_DIR "rng_reader_iter3.ckpt"));
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 7));
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.iteration, 7);
	cr_expect_eq(st.iterations_done, 0, "the goto ran iterations");
	const char *f = tl_tmp_path("at7.ckpt");
	ASSERT_DEBUG_OK(s, dalic_debug_checkpoint_save(s, f));
	dbc_expect_file_is(f, DBC_DIR "rng_reader_iter7.ckpt");
	/* once an iteration ran, a goto runs the iterations (and still lands right) */
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 10));
	dalic_debug_status(s, &st);
	cr_expect_eq(st.iterations_done, 3);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* `dalic debug PIPELINE --checkpoint F --at N` and `dalic run --debug --checkpoint F`: the
 * session opens at DALI's checkpoint after 3 iterations, goes to 7, and what it saves there
 * is DALI's checkpoint after 7 iterations. */
Test(debug_checkpoint, flags_of_debug_and_run_debug)
{
	const char *f = tl_tmp_path("flags7.ckpt");
	char cmds[512], args[512];
	snprintf(cmds, sizeof cmds, "iter\ncheckpoint save %s\nquit\n", f);
	tl_cmd_t c = tl_dalic(cmds, "debug " DBC_PIPE " --checkpoint " DBC_DIR
				    "rng_reader_iter3.ckpt --at 7");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "iteration 7, next operator 0/");
	EXPECT_HAS(c.out, "iterations done: 0"); /* the seek: nothing ran */
	tl_cmd_free(&c);
	dbc_expect_file_is(f, DBC_DIR "rng_reader_iter7.ckpt");

	const char *g = tl_tmp_path("run7.ckpt");
	snprintf(args, sizeof args,
		 "run --debug " DBC_PIPE " --checkpoint " DBC_DIR "rng_reader_iter3.ckpt -n 4 "
		 "--save-checkpoint %s",
		 g);
	c = tl_dalic(NULL, args);
	cr_expect_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	dbc_expect_file_is(g, DBC_DIR "rng_reader_iter7.ckpt");

	c = tl_dalic(NULL, "debug " DBC_PIPE " --checkpoint " DBC_DIR "rng_reader_iter7.ckpt "
			   "--at 3");
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "--at 3: the checkpoint is already at iteration 7");
	tl_cmd_free(&c);
}
