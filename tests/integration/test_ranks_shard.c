/*
 * Rank and world from the launcher's environment (cli/ranks.c): `--shard-from-env` makes every
 * reader read shard RANK of WORLD, `--shard-id/--num-shards` override, bad or disagreeing
 * variables are refused. Checked through the binary's --dump of the file reader's bytes,
 * matched against the 12 sample images (DALI's order: class directories, then file names).
 */
#include "tests/testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(ranks_shard, .timeout = 120, .fini = tl_tmpdir_remove);

static const char *const rshard_files[] = {
    "cat/chelsea.jpg",       "cat/chelsea_411.jpg",   "cat/chelsea_440.jpg",
    "cat/chelsea_exif6.jpg", "cat/chelsea_gray.jpg",  "cat/chelsea_progressive.jpg",
    "coffee/coffee_422.jpg", "coffee/coffee_444.jpg", "coffee/coffee_cup.png",
    "space/astronaut_444_progressive.jpg", "space/rocket.jpg",
    "space/rocket_gray_progressive.jpg"};
enum { RSHARD_FILES = 12 };

static const char *const rshard_vars[] = {
    "RANK",         "WORLD_SIZE",    "LOCAL_RANK",           "OMPI_COMM_WORLD_RANK",
    "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_RANK", "PMI_SIZE",
    "MPI_LOCALRANKID", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"};

static void rshard_clear_env(void)
{
	for (size_t i = 0; i < sizeof rshard_vars / sizeof rshard_vars[0]; i++)
		unsetenv(rshard_vars[i]);
}

static void rshard_set(const char *rank_var, int rank, const char *world_var, int world)
{
	char v[32];
	snprintf(v, sizeof v, "%d", rank);
	setenv(rank_var, v, 1);
	snprintf(v, sizeof v, "%d", world);
	setenv(world_var, v, 1);
}

/* A script: the file reader over samples/images, batch 2, its bytes and labels out. */
static const char *rshard_script(bool pad)
{
	char text[512];
	snprintf(text, sizeof text,
	         "from nvidia.dali import pipeline_def\n"
	         "import nvidia.dali.fn as fn\n"
	         "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	         "def p():\n"
	         "    jpegs, labels = fn.readers.file(file_root='samples/images', "
	         "pad_last_batch=%s, name='Reader')\n"
	         "    return jpegs, labels\n"
	         "pipe = p()\n",
	         pad ? "True" : "False");
	const char *path = tl_tmp_path(pad ? "rshard_pad.py" : "rshard.py");
	tl_write_text(path, text);
	return path;
}

/* Which sample image sample `s` of iteration `it` in `dir` is (its bytes), -1 if none. */
static int rshard_which(const char *dir, int it, int s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/i%06d_o0_s%03d.npy", dir, it, s);
	size_t n;
	unsigned char *b = tl_read_file(path, &n);
	size_t off = 10 + (b[8] | (size_t)b[9] << 8);
	int found = -1;
	for (int f = 0; f < RSHARD_FILES && found < 0; f++) {
		char img[256];
		snprintf(img, sizeof img, "samples/images/%s", rshard_files[f]);
		size_t m;
		unsigned char *d = tl_read_file(img, &m);
		if (m == n - off && !memcmp(d, b + off, m))
			found = f;
		free(d);
	}
	free(b);
	return found;
}

/* Runs `dalic run SCRIPT FLAGS -n 2 --dump DIR` in the current environment; the 4 samples'
 * image indices into got[]. */
static void rshard_run(const char *flags, bool pad, int got[4])
{
	static int calls;
	char dir[64];
	snprintf(dir, sizeof dir, "rshard_dump%d", calls++);
	const char *d = tl_tmp_path(dir);
	tl_cmd_t c = tl_dalic(NULL, "run %s %s -n 2 --dump %s", rshard_script(pad), flags, d);
	cr_assert_eq(c.status, 0, "dalic run %s: %s", flags, c.out);
	tl_cmd_free(&c);
	for (int k = 0; k < 4; k++)
		got[k] = rshard_which(d, k / 2, k % 2);
}

/* Expects the first 3 samples to be images first..first+2. */
static void rshard_expect_shard(const char *flags, int first)
{
	int got[4];
	rshard_run(flags, false, got);
	for (int k = 0; k < 3; k++)
		cr_expect_eq(got[k], first + k, "%s: sample %d is image %d, expected %d", flags, k,
		             got[k], first + k);
}

Test(ranks_shard, torchrun_rank_is_the_shard)
{
	rshard_clear_env();
	rshard_set("RANK", 1, "WORLD_SIZE", 4);
	setenv("LOCAL_RANK", "1", 1);
	rshard_expect_shard("--shard-from-env", 3); /* 12 * 1 / 4 */
}

Test(ranks_shard, every_launcher)
{
	rshard_clear_env();
	rshard_set("OMPI_COMM_WORLD_RANK", 2, "OMPI_COMM_WORLD_SIZE", 4);
	rshard_expect_shard("--shard-from-env", 6);
	rshard_clear_env();
	rshard_set("PMI_RANK", 3, "PMI_SIZE", 4);
	rshard_expect_shard("--shard-from-env", 9);
	rshard_clear_env();
	rshard_set("SLURM_PROCID", 1, "SLURM_NTASKS", 3);
	rshard_expect_shard("--shard-from-env", 4);
	/* none: shard 0 of 1, the whole data set */
	rshard_clear_env();
	rshard_expect_shard("--shard-from-env", 0);
}

Test(ranks_shard, slurm_allocation_under_torchrun_is_not_a_disagreement)
{
	rshard_clear_env();
	rshard_set("RANK", 1, "WORLD_SIZE", 4);
	rshard_set("SLURM_PROCID", 0, "SLURM_NTASKS", 1); /* one srun task running torchrun */
	rshard_expect_shard("--shard-from-env", 3);
}

Test(ranks_shard, flags_override_the_environment)
{
	rshard_clear_env();
	rshard_set("RANK", 3, "WORLD_SIZE", 4);
	rshard_expect_shard("--shard-from-env --shard-id 0", 0);  /* 0 of 4 */
	rshard_expect_shard("--shard-from-env --num-shards 6", 6); /* 3 of 6: 12*3/6 */
	rshard_clear_env();
	rshard_expect_shard("--shard-id=2 --num-shards=3", 8);    /* no env needed */
}

/* The error and exit status 2 of `dalic run SCRIPT FLAGS` in the current environment. */
static void rshard_refused(const char *flags, const char *message)
{
	tl_cmd_t c = tl_dalic(NULL, "run %s %s -n 1", rshard_script(false), flags);
	cr_expect_eq(c.status, 2, "%s: status %d: %s", flags, c.status, c.out);
	cr_expect(strstr(c.out, message), "%s: expected '%s' in: %s", flags, message, c.out);
	tl_cmd_free(&c);
}

Test(ranks_shard, bad_environments_are_refused)
{
	rshard_clear_env();
	setenv("RANK", "1x", 1);
	setenv("WORLD_SIZE", "4", 1);
	rshard_refused("--shard-from-env", "RANK='1x' is not a non-negative integer");
	setenv("RANK", "-1", 1);
	rshard_refused("--shard-from-env", "RANK='-1' is not a non-negative integer");
	unsetenv("WORLD_SIZE");
	setenv("RANK", "1", 1);
	rshard_refused("--shard-from-env", "torchrun: RANK is set but WORLD_SIZE is not");
	rshard_set("RANK", 4, "WORLD_SIZE", 4);
	rshard_refused("--shard-from-env", "torchrun: RANK=4 is not a rank of WORLD_SIZE=4");
	rshard_set("RANK", 1, "WORLD_SIZE", 4);
	rshard_set("OMPI_COMM_WORLD_RANK", 2, "OMPI_COMM_WORLD_SIZE", 4);
	rshard_refused("--shard-from-env",
	               "the launchers disagree: torchrun says rank 1 of 4 (RANK, WORLD_SIZE), "
	               "Open MPI says rank 2 of 4");
	rshard_clear_env();
	rshard_set("PMI_RANK", 0, "PMI_SIZE", 0);
	rshard_refused("--shard-from-env", "MPICH/PMI: PMI_RANK=0 is not a rank of PMI_SIZE=0");
	rshard_clear_env();
	rshard_refused("--shard-id 4 --num-shards 4", "shard 4 does not exist with 4 shards");
	rshard_refused("--num-shards 0", "invalid value '0' for --num-shards (an integer >= 1)");
	rshard_refused("--shard-id two", "invalid value 'two' for --shard-id");
	/* a bad variable matters only when asked for */
	setenv("RANK", "junk", 1);
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 1", rshard_script(false));
	cr_expect_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
}

/* One epoch of `world` ranks (each its own process): every image exactly once across them.
 * Padded, a rank's epoch is ceil(12 / world) samples rounded up to the batch (2), its last
 * image repeated; unpadded, its shard's samples, after which it reads the next shard. */
static void rshard_epoch(int world, bool pad)
{
	int seen[RSHARD_FILES] = {0};
	for (int r = 0; r < world; r++) {
		rshard_clear_env();
		rshard_set("RANK", r, "WORLD_SIZE", world);
		int got[4];
		rshard_run("--shard-from-env", pad, got);
		int begin = RSHARD_FILES * r / world, end = RSHARD_FILES * (r + 1) / world;
		for (int k = 0; k < end - begin; k++) {
			cr_expect_eq(got[k], begin + k, "world %d pad %d rank %d sample %d", world, pad,
			             r, k);
			if (got[k] >= 0)
				seen[got[k]]++;
		}
		for (int k = end - begin; pad && k < 4; k++) /* padding: the shard's last again */
			cr_expect_eq(got[k], end - 1, "world %d rank %d padded sample %d", world, r, k);
	}
	for (int f = 0; f < RSHARD_FILES; f++)
		cr_expect_eq(seen[f], 1, "world %d pad %d: %s read %d times in the epoch", world, pad,
		             rshard_files[f], seen[f]);
}

Test(ranks_shard, four_ranks_read_every_sample_once)
{
	rshard_epoch(4, false);
	rshard_epoch(4, true);
}

Test(ranks_shard, uneven_shards_read_every_sample_once)
{
	rshard_epoch(5, false); /* shards of 2, 2, 3, 2, 3 */
	rshard_epoch(5, true);
}
