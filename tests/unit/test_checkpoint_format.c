/*
 * DALI checkpoints: the format (golden files written by DALI 2.4, tests/data/checkpoints/
 * make_golden.py), `dalic checkpoint show`, and the errors for bad files.
 */
#include "engine/checkpoint.h"
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>

#define CKF_DIR "tests/data/checkpoints/"

TestSuite(checkpoint_format, .timeout = 60, .fini = tl_tmpdir_remove);

static dalic_ckpt_t *ckf_load(const char *name)
{
	dalic_ckpt_t *c = NULL;
	char path[256];
	snprintf(path, sizeof path, CKF_DIR "%s", name);
	ASSERT_OK(dalic_ckpt_load_file(path, &c));
	return c;
}

Test(checkpoint_format, golden_iter3_decodes)
{
	dalic_ckpt_t *c = ckf_load("rng_reader_iter3.ckpt");
	cr_assert_eq(c->num_entries, 8);
	const dalic_ckpt_entry_t *r = dalic_ckpt_find(c, "Reader");
	cr_assert(r && r->kind == DALIC_CKPT_READER);
	/* 15 samples of 12 files: epoch 1, 3 samples in; the generator at epoch 1's start */
	cr_expect_eq(r->reader.epoch, 1);
	cr_expect_eq(r->reader.age, 3);
	cr_expect_eq(r->reader.rng, 1834104266u);
	const dalic_ckpt_entry_t *coin = dalic_ckpt_find(c, "__CoinFlip_0");
	cr_assert(coin && coin->kind == DALIC_CKPT_RNG);
	cr_expect_eq(coin->rng.key, 0x34BE6725u); /* seed_seq{1234}[1] */
	cr_expect_eq(coin->rng.ctr[1], 15u);      /* 3 iterations x 5 samples */
	cr_expect_eq(coin->rng.ctr[0], 0u);
	cr_expect_eq(coin->rng.phase, 0);
	const dalic_ckpt_entry_t *normal = dalic_ckpt_find(c, "__Normal_2");
	cr_assert(normal);
	cr_expect_eq(normal->rng.key, 7u); /* its own seed= */
	const dalic_ckpt_entry_t *mc = dalic_ckpt_find(c, "__MakeContiguous_CpuToCpu___Uniform_1");
	cr_assert(mc && mc->kind == DALIC_CKPT_STATELESS);
	cr_expect_eq(c->iter, 3);
	cr_expect_eq(c->epoch_idx, 0);
	cr_expect_str_eq(c->iterator_data, "");
	dalic_ckpt_free(c);
}

Test(checkpoint_format, golden_iter7_epoch2)
{
	dalic_ckpt_t *c = ckf_load("rng_reader_iter7.ckpt");
	const dalic_ckpt_entry_t *r = dalic_ckpt_find(c, "Reader");
	cr_assert(r);
	cr_expect_eq(r->reader.epoch, 2); /* 35 samples: 24 in epochs 0-1, 11 into epoch 2 */
	cr_expect_eq(r->reader.age, 11);
	cr_expect_eq(dalic_ckpt_find(c, "__Uniform_1")->rng.ctr[1], 35u);
	dalic_ckpt_free(c);
}

/* Parse then write gives DALI's bytes back, for every golden file. */
Test(checkpoint_format, golden_files_round_trip_bytes)
{
	const char *names[] = {"rng_reader_iter0.ckpt", "rng_reader_iter3.ckpt",
			       "rng_reader_iter7.ckpt", "rng_reader_iter3_iterator.ckpt",
			       "epoch_shuffle_iter7.ckpt"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char path[256];
		snprintf(path, sizeof path, CKF_DIR "%s", names[i]);
		size_t n;
		uint8_t *want = tl_read_file(path, &n);
		dalic_ckpt_t *c = NULL;
		ASSERT_OK(dalic_ckpt_parse(want, n, path, &c));
		uint8_t *got = NULL;
		size_t m = 0;
		ASSERT_OK(dalic_ckpt_serialize(c, &got, &m));
		cr_expect(m == n && !memcmp(got, want, n), "%s: rewritten bytes differ", names[i]);
		free(got);
		free(want);
		dalic_ckpt_free(c);
	}
}

Test(checkpoint_format, iterator_data_kept)
{
	dalic_ckpt_t *c = ckf_load("rng_reader_iter3_iterator.ckpt");
	cr_expect(strstr(c->iterator_data, "\"_counter\": 15") != NULL);
	dalic_ckpt_free(c);
}

/* Every cut of a real checkpoint is an error naming the file, never a crash or a
 * checkpoint that silently lost entries. */
Test(checkpoint_format, truncated_everywhere)
{
	size_t n;
	uint8_t *buf = tl_read_file(CKF_DIR "rng_reader_iter3.ckpt", &n);
	for (size_t cut = 0; cut < n; cut++) {
		dalic_ckpt_t *c = NULL;
		int rc = dalic_ckpt_parse(buf, cut, "cut.ckpt", &c);
		cr_expect_eq(rc, DALIC_EPARSE, "cut at %zu parsed", cut);
		cr_expect(c == NULL);
		EXPECT_STARTS(dalic_last_error(), "cut.ckpt: ");
		dalic_ckpt_free(c);
	}
	free(buf);
}

Test(checkpoint_format, truncated_names_the_entry)
{
	size_t n;
	uint8_t *buf = tl_read_file(CKF_DIR "rng_reader_iter3.ckpt", &n);
	/* inside the third entry (__CoinFlip_0's Philox string): bytes 0..0x47 hold two entries */
	dalic_ckpt_t *c = NULL;
	uint8_t copy[0x70];
	memcpy(copy, buf, sizeof copy);
	copy[0x48] = 0x60; /* the entry claims 96 bytes: past the end of what is left */
	ASSERT_STATUS(dalic_ckpt_parse(copy, sizeof copy, "t.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("t.ckpt: ");
	EXPECT_ERROR_HAS("truncated");
	free(buf);
}

Test(checkpoint_format, garbled_philox_names_entry)
{
	size_t n;
	uint8_t *buf = tl_read_file(CKF_DIR "rng_reader_iter3.ckpt", &n);
	uint8_t *p = memmem(buf, n, "Philox_00000000B1552E18", 23);
	cr_assert(p);
	p[40] = '#'; /* the ':' between the counter words */
	dalic_ckpt_t *c = NULL;
	ASSERT_STATUS(dalic_ckpt_parse(buf, n, "g.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("g.ckpt: entry 4 ('__Uniform_1')");
	free(buf);
}

Test(checkpoint_format, garbled_reader_state)
{
	size_t n;
	uint8_t *buf = tl_read_file(CKF_DIR "rng_reader_iter3.ckpt", &n);
	uint8_t *p = memmem(buf, n, "1834104266", 10);
	cr_assert(p);
	p[3] = 'x';
	dalic_ckpt_t *c = NULL;
	ASSERT_STATUS(dalic_ckpt_parse(buf, n, "r.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("r.ckpt: entry 0 ('Reader')");
	EXPECT_ERROR_HAS("minstd_rand0");
	free(buf);
}

Test(checkpoint_format, old_dali_version)
{
	dalic_ckpt_t *c = NULL;
	ASSERT_STATUS(dalic_ckpt_load_file(CKF_DIR "old_format.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("old_format.ckpt: ");
	EXPECT_ERROR_HAS("older than 1.30");
}

Test(checkpoint_format, not_a_checkpoint)
{
	const char text[] = "import nvidia.dali\n";
	dalic_ckpt_t *c = NULL;
	ASSERT_STATUS(dalic_ckpt_parse((const uint8_t *)text, sizeof text - 1, "x.py", &c),
		      DALIC_EPARSE);
	EXPECT_ERROR_HAS("x.py: ");
	ASSERT_STATUS(dalic_ckpt_parse((const uint8_t *)"", 0, "empty", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("empty: empty file");
}

Test(checkpoint_format, duplicate_names)
{
	dalic_ckpt_t *c = dalic_ckpt_new();
	ASSERT_OK(dalic_ckpt_add(c, "a", DALIC_CKPT_STATELESS, NULL, NULL));
	ASSERT_OK(dalic_ckpt_add(c, "a", DALIC_CKPT_STATELESS, NULL, NULL));
	uint8_t *buf;
	size_t n;
	ASSERT_OK(dalic_ckpt_serialize(c, &buf, &n));
	dalic_ckpt_free(c);
	ASSERT_STATUS(dalic_ckpt_parse(buf, n, "d.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("The checkpoint already contains an operator with name \"a\".");
	free(buf);
}

Test(checkpoint_format, bad_pipeline_data)
{
	/* one stateless entry, then pipeline_data "{iter" */
	const uint8_t buf[] = {0x0a, 0x05, 0x0a, 0x01, 'a', 0x12, 0x00,
			       0x12, 0x07, 0x0a, 0x05, '{', 'i', 't', 'e', 'r'};
	dalic_ckpt_t *c = NULL;
	ASSERT_STATUS(dalic_ckpt_parse(buf, sizeof buf, "j.ckpt", &c), DALIC_EPARSE);
	EXPECT_ERROR_HAS("j.ckpt: pipeline_data: Pipeline checkpoint data is not a valid JSON");
}

Test(checkpoint_format, cli_show_text_and_json)
{
	tl_cmd_t c = tl_dalic(NULL, "checkpoint show " CKF_DIR "rng_reader_iter3_iterator.ckpt");
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "resumes after output 3");
	EXPECT_HAS(c.out, "epoch 1, 3 samples into it");
	EXPECT_HAS(c.out, "key 0x0000000034BE6725  counter 15:0");
	EXPECT_HAS(c.out, "\"_counter\": 15");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "checkpoint show --json " CKF_DIR "rng_reader_iter7.ckpt");
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "\"iter\":\t7");
	EXPECT_HAS(c.out, "\"age\":\t11");
	EXPECT_HAS(c.out, "\"counter_hi\":\t35");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "checkpoint show " CKF_DIR "old_format.ckpt");
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "old_format.ckpt: external_ctx_cpt holds integers");
	tl_cmd_free(&c);
}
