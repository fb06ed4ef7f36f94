/*
 * A reader's restore, DALI's way (kernels/common/reader_ckpt.c): the checkpoint taken at an
 * epoch's end names the next epoch's start, as DALI 2.4's loader does; a restore goes straight
 * to the checkpoint's epoch, however far, and gives the batches of an uninterrupted run; reader
 * states no reader can have are refused, naming the entry. The generator values are DALI's,
 * recorded in ../shared/reference/dali-checkpoint.md (exp 2b: the golden pipeline's reader at
 * the start of epochs 0..3).
 */
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>

#define CKS_PIPE "tests/data/checkpoints/pipe_rng_reader.py"

TestSuite(checkpoint_restore, .timeout = 120);

/* The golden pipeline (12 files, random_shuffle, seed 1234) at batch size `batch`. */
static dalic_pipeline_t *cks_open(int batch)
{
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_CHECKPOINTING | DALIC_PARAM_BATCH_SIZE;
	o.params.enable_checkpointing = true;
	o.params.batch_size = batch;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(CKS_PIPE, NULL, &o, &p));
	return p;
}

static uint8_t *cks_checkpoint(dalic_pipeline_t *p, size_t *n)
{
	uint8_t *buf = NULL;
	ASSERT_OK(dalic_pipeline_checkpoint(p, &buf, n));
	return buf;
}

/* The reader's ReaderStateSnapshot{loader_state{rng, current_epoch, age}} in a checkpoint. */
static bool cks_has_reader_state(const uint8_t *ck, size_t n, const char *rng, int epoch, int age)
{
	uint8_t want[32];
	size_t len = strlen(rng);
	want[0] = 0x0a; /* loader_state */
	want[1] = (uint8_t)(len + 6);
	want[2] = 0x0a; /* rng */
	want[3] = (uint8_t)len;
	memcpy(want + 4, rng, len);
	want[4 + len] = 0x10; /* current_epoch */
	want[5 + len] = (uint8_t)epoch;
	want[6 + len] = 0x18; /* age */
	want[7 + len] = (uint8_t)age;
	return memmem(ck, n, want, len + 8) != NULL;
}

/* 3 batches of 4 end epoch 0 exactly: DALI's state is then the start of epoch 1 (its
 * generator after epoch 0's draws, age 0), not (epoch 0, age 12); likewise epoch 2 after 6. */
Test(checkpoint_restore, epoch_end_is_the_next_epochs_start)
{
	dalic_pipeline_t *p = cks_open(4);
	ASSERT_OK(dalic_pipeline_build(p));
	for (int i = 0; i < 3; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	size_t n;
	uint8_t *ck = cks_checkpoint(p, &n);
	cr_expect(cks_has_reader_state(ck, n, "1834104266", 1, 0), "after 12 samples: (1, 0)");
	free(ck);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	ck = cks_checkpoint(p, &n);
	cr_expect(cks_has_reader_state(ck, n, "1804055289", 2, 0), "after 24 samples: (2, 0)");
	free(ck);
	dalic_pipeline_destroy(p);
}

/* A checkpoint hundreds of epochs in (made by a seek, 12 000 picks) restores and continues as
 * the pipeline it came from. */
Test(checkpoint_restore, far_epoch_restores)
{
	dalic_pipeline_t *ref = cks_open(5);
	ASSERT_OK(dalic_pipeline_build(ref));
	ASSERT_OK(dalic_pipeline_seek(ref, 2403, NULL)); /* 12015 samples: epoch 1001, age 3 */
	size_t n;
	uint8_t *ck = cks_checkpoint(ref, &n);
	dalic_pipeline_t *p = cks_open(5);
	ASSERT_OK(dalic_pipeline_set_checkpoint(p, ck, n, "far.ckpt"));
	ASSERT_OK(dalic_pipeline_build(p));
	cr_expect_eq(dalic_pipeline_position(p), 2403);
	for (int it = 0; it < 4; it++) {
		ASSERT_OK(dalic_pipeline_run(ref));
		ASSERT_OK(dalic_pipeline_run(p));
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++)
			tl_expect_same_batch(dalic_pipeline_output(p, o),
			                     dalic_pipeline_output(ref, o),
			                     "restored at epoch 1001");
	}
	free(ck);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(ref);
}

/* The golden checkpoint after 3 iterations with its reader state edited: `from` (14 bytes:
 * the rng text, epoch and age fields) replaced by `to` (same length). */
static void cks_expect_refused(const char *from, const char *to, const char *phrase)
{
	size_t n;
	uint8_t *buf = tl_read_file("tests/data/checkpoints/rng_reader_iter3.ckpt", &n);
	uint8_t *at = memmem(buf, n, from, 14);
	cr_assert(at, "the golden checkpoint holds %s", from);
	memcpy(at, to, 14);
	dalic_pipeline_t *p = cks_open(5);
	int rc = dalic_pipeline_set_checkpoint(p, buf, n, "edited.ckpt");
	if (rc == DALIC_OK) /* read, but refused where the reader restores */
		ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("edited.ckpt: entry");
	EXPECT_ERROR_HAS("'Reader'");
	EXPECT_ERROR_HAS(phrase);
	dalic_pipeline_destroy(p);
	free(buf);
}

Test(checkpoint_restore, impossible_reader_states_refused)
{
	/* minstd_rand0 never reaches 0 nor 2^31 - 1 (refused as the file is read) */
	cks_expect_refused("1834104266\x10\x01\x18\x03", "0000000000\x10\x01\x18\x03",
	                   "minstd_rand0 state in [1, 2^31 - 2]");
	cks_expect_refused("1834104266\x10\x01\x18\x03", "2147483647\x10\x01\x18\x03",
	                   "minstd_rand0 state in [1, 2^31 - 2]");
	/* epoch 0 starts from seed_seq{the reader's seed}: DALI's 1174428687 for seed 1234 */
	cks_expect_refused("1834104266\x10\x01\x18\x03", "1174428688\x10\x00\x18\x03",
	                   "at the start of epoch 0 is 1174428688, this pipeline's is 1174428687");
	/* 13 samples into an epoch of 12 */
	cks_expect_refused("1834104266\x10\x01\x18\x03", "1834104266\x10\x01\x18\x0d",
	                   "13 samples into epoch 1");
}
