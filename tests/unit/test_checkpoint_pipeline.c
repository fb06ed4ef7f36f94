/*
 * Checkpoints in a running pipeline: DALI's golden checkpoints restore in dalic and give the
 * batches DALI gave next (tests/data/checkpoints/, the .next.txt files); dalic's own checkpoints are
 * DALI's bytes, taken after the last consumed output whatever the executor mode and prefetch
 * depth; DALI's refusals; and the seek.
 */
#include "tests/testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CKP_DIR "tests/data/checkpoints/"
#define CKP_PIPE CKP_DIR "pipe_rng_reader.py"

TestSuite(checkpoint_pipeline, .timeout = 120, .fini = tl_tmpdir_remove);

/* The golden pipeline with mode m's executor settings (NULL: the script's). */
static dalic_pipeline_t *ckp_open(const tl_mode_t *m, bool checkpointing)
{
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_CHECKPOINTING;
	o.params.enable_checkpointing = checkpointing;
	if (m) {
		o.fields |= DALIC_PARAM_PREFETCH | DALIC_PARAM_EXEC_PIPELINED | DALIC_PARAM_EXEC_ASYNC;
		o.params.exec_pipelined = m->pipelined;
		o.params.exec_async = m->async;
		o.params.separated_queues = m->separated;
		o.params.prefetch_cpu = m->cpu;
		o.params.prefetch_gpu = m->gpu;
	}
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(CKP_PIPE, NULL, &o, &p));
	return p;
}

static void ckp_restore(dalic_pipeline_t *p, const char *name)
{
	char path[256];
	snprintf(path, sizeof path, CKP_DIR "%s", name);
	size_t n;
	void *buf = tl_read_file(path, &n);
	ASSERT_OK(dalic_pipeline_set_checkpoint(p, buf, n, path));
	free(buf);
}

/* Output o of the current iteration against one line of DALI's values ("a b | c d | ..."). */
static void ckp_expect_line(const dalic_batch_t *b, const char *line, const char *what)
{
	const char *s = line;
	for (int i = 0; i < dalic_batch_num_samples(b); i++) {
		int64_t k = 0;
		for (;;) {
			while (*s == ' ')
				s++;
			if (*s == '|' || *s == '\n' || !*s)
				break;
			char *end;
			double want = strtod(s, &end);
			cr_assert(end != s, "%s: bad golden line '%s'", what, line);
			s = end;
			double got = tl_at(b, i, k++);
			cr_expect((float)want == (float)got, "%s: sample %d element %lld: dalic %.9g, "
				  "DALI %.9g", what, i, (long long)(k - 1), got, want);
		}
		if (*s == '|')
			s++;
	}
}

/* The next `iters` iterations equal the .next.txt DALI wrote after the checkpoint. */
static void ckp_expect_next_n(dalic_pipeline_t *p, const char *next_file, int iters)
{
	char path[256];
	snprintf(path, sizeof path, CKP_DIR "%s", next_file);
	size_t n;
	char *text = tl_read_file(path, &n);
	char *line = text;
	for (int it = 0; it < iters; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
			char *nl = strchr(line, '\n');
			cr_assert(nl, "%s: too few lines", next_file);
			*nl = 0;
			char what[128];
			snprintf(what, sizeof what, "%s iteration %d output %d", next_file, it, o);
			ckp_expect_line(dalic_pipeline_output(p, o), line, what);
			line = nl + 1;
		}
	}
	free(text);
}

static void ckp_expect_next(dalic_pipeline_t *p, const char *next_file)
{
	ckp_expect_next_n(p, next_file, 2);
}

Test(checkpoint_pipeline, dali_checkpoints_restore_to_dalis_next_batches)
{
	const char *iters[] = {"0", "3", "7"};
	for (int i = 0; i < 3; i++) {
		char ck[64], next[64];
		snprintf(ck, sizeof ck, "rng_reader_iter%s.ckpt", iters[i]);
		snprintf(next, sizeof next, "rng_reader_iter%s.next.txt", iters[i]);
		dalic_pipeline_t *p = ckp_open(NULL, true);
		ckp_restore(p, ck);
		ASSERT_OK(dalic_pipeline_build(p));
		cr_expect_eq(dalic_pipeline_position(p), atoi(iters[i]));
		ckp_expect_next(p, next);
		dalic_pipeline_destroy(p);
	}
}

/* A fresh run gives DALI's next batches too, and its checkpoint after N outputs is DALI's
 * file byte for byte. */
static void ckp_expect_golden_bytes(dalic_pipeline_t *p, const char *name, const char *what)
{
	char path[256];
	snprintf(path, sizeof path, CKP_DIR "%s", name);
	size_t n;
	uint8_t *want = tl_read_file(path, &n);
	uint8_t *got = NULL;
	size_t m = 0;
	ASSERT_OK(dalic_pipeline_checkpoint(p, &got, &m));
	cr_expect(m == n && !memcmp(got, want, n), "%s: checkpoint differs from DALI's %s "
		  "(%zu vs %zu bytes)", what, name, m, n);
	free(got);
	free(want);
}

Test(checkpoint_pipeline, dalic_writes_dalis_bytes)
{
	dalic_pipeline_t *p = ckp_open(NULL, true);
	ckp_expect_golden_bytes(p, "rng_reader_iter0.ckpt", "before build");
	for (int i = 0; i < 3; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	ckp_expect_golden_bytes(p, "rng_reader_iter3.ckpt", "after 3 runs");
	for (int i = 0; i < 4; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	ckp_expect_golden_bytes(p, "rng_reader_iter7.ckpt", "after 7 runs");
	dalic_pipeline_destroy(p);
}

/* shuffle_after_epoch with checkpointing: each epoch shuffles the original list (DALI's
 * rule in that mode); DALI's checkpoint after 7 batches (epoch 2) and its next 3 batches. */
Test(checkpoint_pipeline, shuffle_after_epoch_matches_dali)
{
	const char *script = CKP_DIR "pipe_epoch_shuffle.py";
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(script, NULL, NULL, &p));
	for (int i = 0; i < 7; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	ckp_expect_golden_bytes(p, "epoch_shuffle_iter7.ckpt", "shuffle_after_epoch, 7 runs");
	ckp_expect_next_n(p, "epoch_shuffle_iter7.next.txt", 3);
	dalic_pipeline_destroy(p);
	ASSERT_OK(dalic_pipeline_load(script, NULL, NULL, &p));
	ckp_restore(p, "epoch_shuffle_iter7.ckpt");
	ckp_expect_next_n(p, "epoch_shuffle_iter7.next.txt", 3);
	dalic_pipeline_destroy(p);
}

/* Whatever the executor mode and however far ahead it computed, the checkpoint is the state
 * after the last consumed output. */
Test(checkpoint_pipeline, after_last_consumed_output_in_every_mode)
{
	TL_FOR_EACH_MODE(m)
	{
		if (m->separated)
			continue; /* refused, below */
		for (int depth = 1; depth <= 3; depth++) {
			tl_mode_t mm = *m;
			mm.cpu = mm.gpu = depth;
			dalic_pipeline_t *p = ckp_open(&mm, true);
			/* the first schedule_run fills the queue: up to `depth` iterations ahead */
			ASSERT_OK(dalic_pipeline_schedule_run(p));
			for (int i = 0; i < 3; i++) {
				ASSERT_OK(dalic_pipeline_outputs(p));
				ASSERT_OK(dalic_pipeline_release_outputs(p));
				ASSERT_OK(dalic_pipeline_schedule_run(p));
			}
			char what[96];
			snprintf(what, sizeof what, "%s, depth %d", m->name, depth);
			ckp_expect_golden_bytes(p, "rng_reader_iter3.ckpt", what);
			dalic_pipeline_destroy(p);
		}
	}
}

Test(checkpoint_pipeline, refusals)
{
	dalic_pipeline_t *p = ckp_open(NULL, false);
	uint8_t *buf = NULL;
	size_t n = 0;
	ASSERT_STATUS(dalic_pipeline_checkpoint(p, &buf, &n), DALIC_ESTATE);
	EXPECT_ERROR_HAS("Cannot save the checkpoint. The `enable_checkpointing` was not specified");
	ckp_restore(p, "rng_reader_iter3.ckpt");
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_ESTATE);
	EXPECT_ERROR_HAS("Cannot restore checkpoint. The `enable_checkpointing` was not specified");
	dalic_pipeline_destroy(p);

	tl_mode_t sep = tl_modes[3];
	cr_assert(sep.separated);
	p = ckp_open(&sep, true);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("Checkpointing is not supported with `separated` pipeline execution mode");
	dalic_pipeline_destroy(p);
}

Test(checkpoint_pipeline, another_pipeline_is_refused)
{
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_CHECKPOINTING;
	o.params.enable_checkpointing = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load("@coin", NULL, &o, &p));
	ckp_restore(p, "rng_reader_iter3.ckpt");
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS(CKP_DIR "rng_reader_iter3.ckpt: entry 0: The executor doesn't recognize "
			 "\"Reader\" as a name of an operator. The checkpoint might come from "
			 "another pipeline.");
	dalic_pipeline_destroy(p);
}

/* A reader state the data set cannot reach: 40 samples into an epoch of 12. */
Test(checkpoint_pipeline, unreachable_reader_state)
{
	size_t n;
	uint8_t *buf = tl_read_file(CKP_DIR "rng_reader_iter3.ckpt", &n);
	uint8_t *age = memmem(buf, n, "1834104266\x10\x01\x18\x03", 14);
	cr_assert(age);
	age[13] = 40;
	dalic_pipeline_t *p = ckp_open(NULL, true);
	ASSERT_OK(dalic_pipeline_set_checkpoint(p, buf, n, "edited.ckpt"));
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("edited.ckpt: entry 'Reader'");
	EXPECT_ERROR_HAS("40 samples into epoch 1");
	dalic_pipeline_destroy(p);
	free(buf);
}

/* seek(n) then k iterations == n + k iterations, byte for byte, from the start and from a
 * restored checkpoint. */
static void ckp_expect_seek(const char *ckpt, int64_t from, int64_t n)
{
	dalic_pipeline_t *ref = ckp_open(NULL, true);
	if (ckpt)
		ckp_restore(ref, ckpt);
	for (int64_t i = 0; i < n; i++)
		ASSERT_OK(dalic_pipeline_run(ref));
	dalic_pipeline_t *p = ckp_open(NULL, true);
	if (ckpt)
		ckp_restore(p, ckpt);
	char *why = (char *)"unset";
	ASSERT_OK(dalic_pipeline_seek(p, n, &why));
	cr_expect(why == NULL, "the seek ran iterations: %s", why ? why : "");
	cr_expect_eq(dalic_pipeline_position(p), from + n);
	for (int k = 0; k < 3; k++) {
		ASSERT_OK(dalic_pipeline_run(ref));
		ASSERT_OK(dalic_pipeline_run(p));
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++)
			tl_expect_same_batch(dalic_pipeline_output(p, o), dalic_pipeline_output(ref, o),
					     "seek");
	}
	/* and the checkpoints agree */
	uint8_t *a, *b;
	size_t la, lb;
	ASSERT_OK(dalic_pipeline_checkpoint(p, &a, &la));
	ASSERT_OK(dalic_pipeline_checkpoint(ref, &b, &lb));
	cr_expect(la == lb && !memcmp(a, b, la), "checkpoints after seek and run differ");
	free(a);
	free(b);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(ref);
}

Test(checkpoint_pipeline, seek_equals_running)
{
	ckp_expect_seek(NULL, 0, 1);
	ckp_expect_seek(NULL, 0, 11); /* crosses four epochs */
	ckp_expect_seek("rng_reader_iter7.ckpt", 7, 5);
}

Test(checkpoint_pipeline, seek_after_run_refused)
{
	dalic_pipeline_t *p = ckp_open(NULL, false);
	ASSERT_OK(dalic_pipeline_run(p));
	ASSERT_STATUS(dalic_pipeline_seek(p, 3, NULL), DALIC_ESTATE);
	EXPECT_ERROR_HAS("before the pipeline's first run");
	dalic_pipeline_destroy(p);
}

/* Debug mode's goto from the start is the same seek: iteration 11 equals the full engine's. */
Test(checkpoint_pipeline, debug_goto_seeks)
{
	dalic_pipeline_t *ref = ckp_open(NULL, false);
	for (int i = 0; i < 12; i++)
		ASSERT_OK(dalic_pipeline_run(ref));
	dalic_pipeline_t *p = ckp_open(NULL, false);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 11));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	for (int o = 0; o < dalic_pipeline_num_outputs(ref); o++)
		tl_expect_same_batch(dalic_debug_output(s, o), dalic_pipeline_output(ref, o),
				     "debug goto 11");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(ref);
}
