/*
 * Output that cannot be written is a failure the dalic command reports (issue 24): its
 * standard output on a full device (/dev/full), a graph or serialized file on one, and files
 * cut short by a size limit (RLIMIT_FSIZE, the unprivileged stand-in for a full disk) —
 * which must leave no file behind rather than a truncated one that looks complete. Runs the
 * binary ($DALIC_BIN, set by `make test`; skipped without it).
 */
#include "tests/integration/shell_run.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TestSuite(write_errors, .timeout = 60);

typedef struct write_run {
	char *out; /* stderr (stdout goes where the command line says) */
	int status;
} write_run_t;

/* Runs `sh -c "<prefix> exec $DALIC_BIN <args>"`; prefix sets limits, args redirect. */
static write_run_t write_errors_run(const char *prefix, const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "sh -c '%s exec %s %s' 2>&1", prefix, shell_run_bin(), args);
	write_run_t r;
	r.status = shell_run(cmd, &r.out);
	return r;
}

static void write_errors_expect_failed(const char *prefix, const char *args, const char *why)
{
	write_run_t r = write_errors_run(prefix, args);
	cr_expect_neq(r.status, 0, "dalic %s exited 0:\n%s", args, r.out);
	cr_expect(strstr(r.out, why), "dalic %s: '%s' missing in:\n%s", args, why, r.out);
	free(r.out);
}

static char *write_errors_tmpdir(void)
{
	char *dir = strdup("/tmp/dalic_write_errors_XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	return dir;
}

/* Files in dir whose names contain `part`. */
static int write_errors_count(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strstr(e->d_name, part) != NULL;
	closedir(d);
	return n;
}

static void write_errors_rm(const char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(write_errors, stdout_on_a_full_device_fails_every_command)
{
	const char *lost = "cannot write standard output";
	write_errors_expect_failed("", "run @coin -n 2 >/dev/full", "No space left on device");
	write_errors_expect_failed("", "run @coin -n 2 --json >/dev/full", lost);
	write_errors_expect_failed("", "stats @coin -n 2 >/dev/full", lost);
	write_errors_expect_failed("", "stats @coin -n 2 --json >/dev/full", lost);
	write_errors_expect_failed("", "ops >/dev/full", lost);
	write_errors_expect_failed("", "ops Resize >/dev/full", lost);
	write_errors_expect_failed("", "show @coin >/dev/full", "No space left");
	write_errors_expect_failed("", "run @coin -n 2 --debug >/dev/full", lost);
	write_errors_expect_failed("", "--help >/dev/full", lost);
	/* the same commands succeed where the output fits */
	write_run_t r = write_errors_run("", "run @coin -n 2 >/dev/null");
	cr_expect_eq(r.status, 0, "%s", r.out);
	free(r.out);
}

Test(write_errors, output_files_on_a_full_device_fail)
{
	char *dir = write_errors_tmpdir();
	char args[512], link[300];
	const char *names[] = {"g.svg", "g.png", "g.dot", "p.pb"};
	for (int i = 0; i < 4; i++) {
		snprintf(link, sizeof link, "%s/%s", dir, names[i]);
		cr_assert_eq(symlink("/dev/full", link), 0);
		snprintf(args, sizeof args, "%s @arith -o %s", i < 3 ? "dot" : "serialize", link);
		write_errors_expect_failed("", args, "No space left");
	}
	write_errors_expect_failed("", "serialize @arith -o /dev/full", "No space left");
	write_errors_rm(dir);
	free(dir);
}

/* A 4000-byte sample per iteration; with files limited to 1 KiB every dump write fails. */
static char *write_errors_script(const char *dir)
{
	char *path = malloc(strlen(dir) + 16);
	sprintf(path, "%s/big.py", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("from nvidia.dali import pipeline_def, fn\n"
	      "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)\n"
	      "def p():\n"
	      "    return fn.random.uniform(range=[0, 1], shape=[1000])\n"
	      "pipe = p()\n",
	      f);
	cr_assert_eq(fclose(f), 0);
	return path;
}

Test(write_errors, a_failed_dump_leaves_no_truncated_file)
{
	char *dir = write_errors_tmpdir();
	char *script = write_errors_script(dir);
	char args[1024], out[600];
	snprintf(out, sizeof out, "%s/dump", dir);
	/* ignore SIGXFSZ so writes past the limit fail with EFBIG, as on a full disk */
	const char *limit = "trap \"\" XFSZ; ulimit -f 1;";
	snprintf(args, sizeof args, "run %s -n 2 --dump %s", script, out);
	write_errors_expect_failed(limit, args, "File too large");
	cr_expect_eq(write_errors_count(out, ".npy"), 0, "a truncated .npy was left in %s", out);
	cr_expect_eq(write_errors_count(out, ".tmp"), 0, "a temporary file was left in %s", out);
	snprintf(args, sizeof args, "run %s -n 2 --debug --dump %s", script, out);
	write_errors_expect_failed(limit, args, "File too large");
	cr_expect_eq(write_errors_count(out, ".npy"), 0);
	/* without the limit the same dump is complete: 2 iterations x 2 samples */
	write_run_t r = write_errors_run("", args);
	cr_expect_eq(r.status, 0, "%s", r.out);
	free(r.out);
	cr_expect_eq(write_errors_count(out, ".npy"), 4);
	char npy[700];
	snprintf(npy, sizeof npy, "%s/i000001_o0_s001.npy", out);
	struct stat st;
	cr_assert_eq(stat(npy, &st), 0);
	cr_expect_eq(st.st_size, 128 + 4000, "header (128 bytes) + 1000 floats");
	write_errors_rm(dir);
	free(script);
	free(dir);
}

/* The graph drawn as SVG is larger than the limit: an error and no file, not an empty one. */
Test(write_errors, a_graph_file_cut_short_is_not_left_behind)
{
	char *dir = write_errors_tmpdir();
	char args[512];
	snprintf(args, sizeof args, "dot @arith --show-tensors -o %s/g.svg", dir);
	write_errors_expect_failed("trap \"\" XFSZ; ulimit -f 1;", args, "File too large");
	cr_expect_eq(write_errors_count(dir, "g.svg"), 0, "g.svg (or its temporary) left behind");
	write_errors_rm(dir);
	free(dir);
}
