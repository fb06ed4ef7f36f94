/*
 * `dalic stats --stats-dir` per rank and `dalic stats-merge` (issue 19), without MPI: four
 * ranks run as four processes with torchrun's variables, on the sample images. The merged
 * counts are the sums of the ranks' files, the shards cover the epoch exactly once (or the
 * merge says which shard is missing or read twice), a rank slowed by DALIC_TEST_DELAY_* is the
 * straggler, and the merged trace has one process per rank.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TestSuite(ranks_merge, .timeout = 180, .fini = tl_tmpdir_remove);

static const char *rmerge_script(bool pad)
{
	char text[600];
	snprintf(text, sizeof text,
	         "from nvidia.dali import pipeline_def\n"
	         "import nvidia.dali.fn as fn\n"
	         "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	         "def p():\n"
	         "    jpegs, labels = fn.readers.file(file_root='samples/images', "
	         "pad_last_batch=%s, name='Reader')\n"
	         "    return fn.decoders.image(jpegs), labels\n"
	         "pipe = p()\n",
	         pad ? "True" : "False");
	const char *path = tl_tmp_path(pad ? "rmerge_pad.py" : "rmerge.py");
	tl_write_text(path, text);
	return path;
}

/* The reader alone: thousands of samples/s even under sanitizers, far from a slowed rank. */
static const char *rmerge_fast_script(void)
{
	const char *path = tl_tmp_path("rmerge_fast.py");
	tl_write_text(path, "from nvidia.dali import pipeline_def\n"
	                    "import nvidia.dali.fn as fn\n"
	                    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                    "def p():\n"
	                    "    jpegs, labels = fn.readers.file(file_root='samples/images', "
	                    "name='Reader')\n"
	                    "    return jpegs, labels\n"
	                    "pipe = p()\n");
	return path;
}

/* Runs rank r of `world` (torchrun's variables) with `flags`, its files into dir. */
static void rmerge_rank_of(const char *script, const char *dir, int r, int world,
                           const char *flags)
{
	char v[16];
	snprintf(v, sizeof v, "%d", r);
	setenv("RANK", v, 1);
	snprintf(v, sizeof v, "%d", world);
	setenv("WORLD_SIZE", v, 1);
	tl_cmd_t c = tl_dalic(NULL, "stats %s --shard-from-env --stats-dir %s %s", script, dir,
	                      flags);
	cr_assert_eq(c.status, 0, "rank %d: %s", r, c.out);
	cr_expect(strstr(c.out, "# Rank\nrank: "), "rank %d: %s", r, c.out);
	tl_cmd_free(&c);
	unsetenv("RANK");
	unsetenv("WORLD_SIZE");
}

static void rmerge_rank(const char *dir, int r, int world, bool pad, const char *flags)
{
	rmerge_rank_of(rmerge_script(pad), dir, r, world, flags);
}

/* `dalic stats-merge dir --json ...`: the merged document; *status its exit status. */
static cJSON *rmerge_merge(const char *dir, const char *flags, int *status)
{
	tl_cmd_t c = tl_dalic(NULL, "stats-merge %s --json %s 2>/dev/null", dir, flags);
	*status = c.status;
	cJSON *m = cJSON_Parse(c.out);
	cr_assert_not_null(m, "stats-merge: %s", c.out);
	tl_cmd_free(&c);
	return m;
}

static double rmerge_num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
	if (b)
		x = cJSON_GetObjectItemCaseSensitive(x, b);
	cr_assert(cJSON_IsNumber(x), "no number %s.%s", a, b ? b : "");
	return x->valuedouble;
}

/* A rank's own file: key a(.b), summed over the readers for "epoch_coverage". */
static double rmerge_rank_file(const char *dir, int r, const char *key)
{
	char path[512];
	snprintf(path, sizeof path, "%s/stats-rank-%d.json", dir, r);
	char *text = tl_read_file(path, NULL);
	cJSON *d = cJSON_Parse(text);
	free(text);
	cr_assert_not_null(d, "%s", path);
	cr_expect_eq(rmerge_num(d, "rank", "rank"), r);
	double v = 0;
	if (!strcmp(key, "samples_read")) {
		const cJSON *c;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(d, "epoch_coverage"))
		v += rmerge_num(c, "samples_read", NULL);
	} else {
		v = rmerge_num(d, key, NULL);
	}
	cJSON_Delete(d);
	return v;
}

static const cJSON *rmerge_reader(const cJSON *m)
{
	const cJSON *cov = cJSON_GetObjectItemCaseSensitive(m, "coverage");
	cr_assert_eq(cJSON_GetArraySize(cov), 1);
	const cJSON *c = cJSON_GetArrayItem(cov, 0);
	cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "reader")), "Reader");
	return c;
}

static void rmerge_expect_ints(const cJSON *arr, int n, const int *want, const char *what)
{
	cr_assert_eq(cJSON_GetArraySize(arr), n, "%s: %d entries", what, cJSON_GetArraySize(arr));
	for (int i = 0; i < n; i++)
		cr_expect_eq((int)cJSON_GetArrayItem(arr, i)->valuedouble, want[i], "%s[%d]", what, i);
}

/* Four ranks, one epoch each (12 images, shards of 3, batch 2: 2 iterations). */
static void rmerge_four_ranks(bool pad)
{
	const char *dir = tl_tmp_path(pad ? "rmerge_pad" : "rmerge");
	for (int r = 0; r < 4; r++)
		rmerge_rank(dir, r, 4, pad, "-n 2");
	int status;
	cJSON *m = rmerge_merge(dir, "", &status);
	cr_expect(status == 0 || status == 3, "status %d", status); /* 3: timing imbalance */
	cr_expect_eq(rmerge_num(m, "world", NULL), 4);
	cr_expect_eq(rmerge_num(m, "ranks_found", NULL), 4);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "missing_ranks")), 0);
	double samples = 0, read = 0, iters = 0;
	for (int r = 0; r < 4; r++) {
		samples += rmerge_rank_file(dir, r, "samples");
		iters += rmerge_rank_file(dir, r, "iterations");
		read += rmerge_rank_file(dir, r, "samples_read");
		const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "ranks"), r);
		cr_expect_eq(rmerge_num(row, "samples", NULL), rmerge_rank_file(dir, r, "samples"));
	}
	cr_expect_geq(samples, 4 * 4, "every rank delivered its 2 batches of 2");
	cr_expect_eq(rmerge_num(m, "total", "samples"), samples);
	cr_expect_eq(rmerge_num(m, "total", "iterations"), iters);
	cr_expect_eq(rmerge_num(m, "total", "samples_read"), read);
	const cJSON *c = rmerge_reader(m);
	cr_expect_eq(rmerge_num(c, "epoch_size", NULL), 12);
	cr_expect_eq(rmerge_num(c, "num_shards", NULL), 4);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(c, "complete")), "pad %d: not complete", pad);
	cr_expect_geq(rmerge_num(c, "min_epochs_read", NULL), 1.0, "every rank read its epoch");
	const cJSON *shards = cJSON_GetObjectItem(c, "shards");
	for (int s = 0; s < 4; s++)
		rmerge_expect_ints(cJSON_GetArrayItem(shards, s), 1, &s, "shard's ranks");
	cJSON_Delete(m);
}

Test(ranks_merge, four_ranks_cover_the_epoch_without_padding)
{
	rmerge_four_ranks(false);
}

Test(ranks_merge, four_ranks_cover_the_epoch_with_padding)
{
	rmerge_four_ranks(true);
}

Test(ranks_merge, the_slowed_rank_is_the_straggler)
{
	const char *dir = tl_tmp_path("rmerge_slow");
	setenv("DALIC_TEST_DELAY_RANK", "2", 1);
	setenv("DALIC_TEST_DELAY_US", "60000", 1); /* 60 ms per sample, in rank 2 only */
	for (int r = 0; r < 4; r++)
		rmerge_rank_of(rmerge_fast_script(), dir, r, 4, "-n 4 --warmup 1");
	int status;
	cJSON *m = rmerge_merge(dir, "--tolerance 0.5", &status);
	cr_expect_eq(status, 3, "a straggler is a finding");
	cr_expect_eq(rmerge_num(m, "imbalance", "slowest_rank"), 2);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "imbalance"),
	                                           "imbalanced")));
	const cJSON *st = cJSON_GetObjectItem(m, "stragglers"), *x;
	bool has2 = false;
	cJSON_ArrayForEach(x, st) has2 |= (int)x->valuedouble == 2;
	cr_expect(has2, "rank 2 is not among the stragglers");
	const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "ranks"), 2);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(row, "straggler")));
	cJSON_Delete(m);
	/* the text table marks it too */
	tl_cmd_t c = tl_dalic(NULL, "stats-merge %s --tolerance 0.5", dir);
	cr_expect_eq(c.status, 3);
	const char *line = strstr(c.out, "\n2 ");
	cr_assert_not_null(line, "%s", c.out);
	const char *eol = strchr(line + 1, '\n');
	cr_expect(eol && memmem(line, (size_t)(eol - line), "STRAGGLER", 9), "%s", c.out);
	cr_expect(strstr(c.out, "imbalance: ") && strstr(c.out, "stragglers: "), "%s", c.out);
	tl_cmd_free(&c);
}

Test(ranks_merge, a_shard_read_twice_and_one_not_read_are_named)
{
	const char *dir = tl_tmp_path("rmerge_dup");
	rmerge_rank(dir, 0, 3, false, "-n 1");
	rmerge_rank(dir, 1, 3, false, "-n 1 --shard-id 0"); /* rank 1 reads shard 0 too */
	rmerge_rank(dir, 2, 3, false, "-n 1");
	int status;
	cJSON *m = rmerge_merge(dir, "", &status);
	cr_expect_eq(status, 3);
	const cJSON *c = rmerge_reader(m);
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(c, "complete")));
	int zero = 0, one = 1, both[] = {0, 1};
	rmerge_expect_ints(cJSON_GetObjectItem(c, "duplicated_shards"), 1, &zero, "duplicated");
	rmerge_expect_ints(cJSON_GetObjectItem(c, "missing_shards"), 1, &one, "missing");
	rmerge_expect_ints(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "shards"), 0), 2, both,
	                   "shard 0");
	cJSON_Delete(m);
	/* a rank that never wrote its file */
	char path[512];
	snprintf(path, sizeof path, "%s/stats-rank-2.json", dir);
	cr_assert_eq(unlink(path), 0);
	m = rmerge_merge(dir, "", &status);
	cr_expect_eq(status, 3);
	rmerge_expect_ints(cJSON_GetObjectItem(m, "missing_ranks"), 1, (int[]){2}, "missing");
	cr_expect_eq(rmerge_num(m, "ranks_found", NULL), 2);
	cJSON_Delete(m);
}

Test(ranks_merge, one_trace_with_a_process_per_rank)
{
	const char *dir = tl_tmp_path("rmerge_trace");
	for (int r = 0; r < 4; r++)
		rmerge_rank(dir, r, 4, false, "-n 2");
	const char *out = tl_tmp_path("merged_trace.json");
	tl_cmd_t c = tl_dalic(NULL, "stats-merge %s --trace %s", dir, out);
	cr_expect(c.status == 0 || c.status == 3, "%s", c.out);
	tl_cmd_free(&c);
	char *text = tl_read_file(out, NULL);
	cJSON *t = cJSON_Parse(text);
	free(text);
	cr_assert_not_null(t);
	int named[4] = {0}, events[4] = {0};
	const cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(t, "traceEvents"))
	{
		int pid = (int)rmerge_num(e, "pid", NULL);
		cr_assert(pid >= 1 && pid <= 4, "pid %d", pid);
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(e, "name"));
		if (n && !strcmp(n, "process_name")) {
			char want[32];
			snprintf(want, sizeof want, "rank %d (", pid - 1);
			const char *got =
			    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), "name"));
			cr_expect(got && !strncmp(got, want, strlen(want)), "process %d named %s", pid,
			          got ? got : "?");
			named[pid - 1]++;
		}
		events[pid - 1] += cJSON_GetObjectItem(e, "ts") != NULL;
	}
	for (int r = 0; r < 4; r++) {
		cr_expect_eq(named[r], 1, "rank %d's process name", r);
		cr_expect_gt(events[r], 0, "rank %d has no timed events", r);
	}
	cJSON_Delete(t);
}

Test(ranks_merge, bad_directories_are_refused)
{
	const char *empty = tl_tmp_path("rmerge_empty");
	tl_rmtree(empty);
	cr_assert_eq(mkdir(empty, 0777), 0);
	tl_cmd_t c = tl_dalic(NULL, "stats-merge %s", empty);
	cr_expect_eq(c.status, 1);
	cr_expect(strstr(c.out, "no stats-rank-N.json"), "%s", c.out);
	tl_cmd_free(&c);
	char path[512];
	snprintf(path, sizeof path, "%s/stats-rank-0.json", empty);
	tl_write_text(path, "{\"samples\": 3");
	c = tl_dalic(NULL, "stats-merge %s", empty);
	cr_expect_eq(c.status, 1);
	cr_expect(strstr(c.out, "stats-rank-0.json: not JSON"), "%s", c.out);
	tl_cmd_free(&c);
	tl_write_text(path, "{\"samples\": 3}");
	c = tl_dalic(NULL, "stats-merge %s", empty);
	cr_expect(strstr(c.out, "stats-rank-0.json: not a rank's statistics document"), "%s",
	          c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "stats-merge %s/missing", empty);
	cr_expect_eq(c.status, 1);
	cr_expect(strstr(c.out, "cannot open the stats directory"), "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "stats-merge %s --tolerance 2", empty);
	cr_expect_eq(c.status, 2);
	cr_expect(strstr(c.out, "--tolerance: '2' is not a number in (0, 1)"), "%s", c.out);
	tl_cmd_free(&c);
	/* --ranks cannot write one trace from every rank */
	c = tl_dalic(NULL, "stats @arith --ranks --trace %s/t.json", empty);
	cr_expect_eq(c.status, 2);
	cr_expect(strstr(c.out, "--ranks with --trace FILE: give --stats-dir DIR instead"), "%s",
	          c.out);
	tl_cmd_free(&c);
}
