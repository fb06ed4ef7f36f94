/*
 * `--ranks` under `mpirun --oversubscribe -np 4` (cli/ranks_mpi.c): every rank runs dalic
 * stats, rank 0 gathers the documents through MPI and prints the merged view once. Skipped,
 * with the reason, when mpirun is not on PATH or this dalic was built without MPI (sanitizer
 * builds; the Makefile installs Open MPI, so CI machines run it).
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

TestSuite(ranks_mpi, .timeout = 240, .fini = tl_tmpdir_remove);

static const char *rmpi_script(void)
{
	const char *path = tl_tmp_path("rmpi.py");
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

/* `mpirun -np 4 [env] dalic ARGS` with stdout captured (stderr dropped unless keep_err). */
static char *rmpi_run(const char *env, const char *args, bool keep_err, int *status)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
	         "mpirun --allow-run-as-root --oversubscribe -np 4 %s %s %s %s </dev/null", env, bin,
	         args, keep_err ? "2>&1" : "2>/dev/null");
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t cap = 1 << 20, len = 0, got;
	char *out = malloc(cap);
	while ((got = fread(out + len, 1, cap - len - 1, p)) > 0)
		len += got;
	out[len] = 0;
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

static bool rmpi_has_mpi(void)
{
	tl_cmd_t c = tl_dalic(NULL, "stats @arith -n 1 --ranks");
	bool without = strstr(c.out, "built without") != NULL;
	tl_cmd_free(&c);
	return !without;
}

static double rmpi_num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
	if (b)
		x = cJSON_GetObjectItemCaseSensitive(x, b);
	cr_assert(cJSON_IsNumber(x), "no number %s.%s", a, b ? b : "");
	return x->valuedouble;
}

Test(ranks_mpi, four_ranks_gather_to_rank_0)
{
	if (system("command -v mpirun >/dev/null 2>&1"))
		cr_skip_test("mpirun is not on PATH (tools/deps.sh installs openmpi-bin)");
	if (!rmpi_has_mpi())
		cr_skip_test("this dalic was built without MPI (a sanitizer build, or no "
		             "libopenmpi-dev when it was configured)");
	const char *dir = tl_tmp_path("rmpi_files");
	char args[1024];
	snprintf(args, sizeof args, "stats %s --shard-from-env -n 2 --ranks --json --stats-dir %s",
	         rmpi_script(), dir);
	int status;
	char *out = rmpi_run("", args, false, &status);
	cJSON *m = cJSON_Parse(out);
	cr_assert_not_null(m, "status %d: %s", status, out);
	free(out);
	cr_expect(status == 0, "status %d", status);
	cr_expect_eq(rmpi_num(m, "world", NULL), 4);
	cr_expect_eq(rmpi_num(m, "ranks_found", NULL), 4);
	/* the gathered documents are the ones the ranks wrote: the same counts */
	double samples = 0;
	for (int r = 0; r < 4; r++) {
		char path[512];
		snprintf(path, sizeof path, "%s/stats-rank-%d.json", dir, r);
		char *text = tl_read_file(path, NULL);
		cJSON *d = cJSON_Parse(text);
		free(text);
		cr_assert_not_null(d);
		cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(
		                     cJSON_GetObjectItem(d, "rank"), "launcher")),
		                 "MPI");
		samples += rmpi_num(d, "samples", NULL);
		const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "ranks"), r);
		cr_expect_eq(rmpi_num(row, "rank", NULL), r);
		cr_expect_eq(rmpi_num(row, "samples", NULL), rmpi_num(d, "samples", NULL));
		cJSON_Delete(d);
	}
	cr_expect_eq(rmpi_num(m, "total", "samples"), samples);
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "coverage"), 0);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(c, "complete")), "shards do not cover the epoch");
	cr_expect_eq(rmpi_num(c, "num_shards", NULL), 4);
	cJSON_Delete(m);
}

Test(ranks_mpi, run_ranks_prints_once_and_names_the_straggler)
{
	if (system("command -v mpirun >/dev/null 2>&1"))
		cr_skip_test("mpirun is not on PATH (tools/deps.sh installs openmpi-bin)");
	if (!rmpi_has_mpi())
		cr_skip_test("this dalic was built without MPI");
	char args[1024];
	snprintf(args, sizeof args, "run %s --shard-from-env -n 4 --ranks", rmpi_script());
	int status;
	char *out = rmpi_run("-x DALIC_TEST_DELAY_RANK=2 -x DALIC_TEST_DELAY_US=150000", args,
	                     false, &status);
	const char *first = strstr(out, "# Ranks");
	cr_assert_not_null(first, "%s", out);
	cr_expect_null(strstr(first + 1, "# Ranks"), "printed by more than rank 0: %s", out);
	const char *line = strstr(out, "\n2 ");
	cr_assert_not_null(line, "%s", out);
	const char *eol = strchr(line + 1, '\n');
	cr_expect(eol && memmem(line, (size_t)(eol - line), "STRAGGLER", 9), "%s", out);
	const char *im = strstr(out, "\nimbalance: ");
	cr_assert_not_null(im, "%s", out);
	const char *im_end = strchr(im + 1, '\n');
	cr_expect(im_end && memmem(im, (size_t)(im_end - im), ", rank 2 ", 9),
	          "rank 2 is not the slowest: %s", out);
	free(out);
}
