/*
 * Debug mode runs the same kernels as the full engine (issue 22, "one path"): every sample
 * script in samples/scripts/ and the built-in @arith and @coin pipelines run through the
 * engine (`dalic run --dump DIR -n 3`) and in debug mode (`dalic run --debug --dump DIR -n 3`)
 * write the same files, byte for byte. Driven through the dalic binary ($DALIC_BIN, set by
 * `make test`; skipped without it) from the repository root, where the scripts find
 * samples/images.
 *
 * The scripts are listed from the directory when the test starts, so a new sample script is
 * covered without touching this file.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(debug_same_as_engine, .timeout = 300);

typedef struct same_case {
	char target[128]; /* script path or built-in name */
	char flags[96];   /* extra pipeline flags, the same for both runs */
} same_case_t;

/* The pipelines, each with its default parameters; a few again with more threads and a
 * deeper queue, so both executors' per-sample pools and the engine's async stages work. */
static const same_case_t same_fixed[] = {
    {"@arith", ""},
    {"@coin", ""},
    {"@arith", "--num-threads 3 --prefetch-queue-depth 3"},
    {"samples/scripts/two_pipelines.py", "--pipeline validation"},
    {"samples/scripts/conditional_rotate.py", "--num-threads 3"},
    {"samples/scripts/getting_started.py", "--num-threads 4 --batch-size 5"},
};

static int same_by_name(const void *a, const void *b)
{
	return strcmp(((const same_case_t *)a)->target, ((const same_case_t *)b)->target);
}

ParameterizedTestParameters(debug_same_as_engine, dumps_match)
{
	size_t nfix = sizeof same_fixed / sizeof same_fixed[0], cap = nfix + 64, n = 0;
	same_case_t *cases = cr_malloc(cap * sizeof *cases);
	memset(cases, 0, cap * sizeof *cases);
	DIR *d = opendir("samples/scripts");
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		int room = (int)sizeof cases[n].target - (int)sizeof "samples/scripts/";
		if (len < 4 || strcmp(e->d_name + len - 3, ".py") || n + nfix >= cap || len > (size_t)room)
			continue;
		/* The precision bounds the name for gcc's truncation check (-O1 under ASan). */
		snprintf(cases[n].target, sizeof cases[n].target, "samples/scripts/%.*s", room, e->d_name);
		n++;
	}
	if (d)
		closedir(d);
	qsort(cases, n, sizeof *cases, same_by_name);
	memcpy(cases + n, same_fixed, sizeof same_fixed);
	return cr_make_param_array(same_case_t, cases, n + nfix);
}

/* Runs `dalic run TARGET FLAGS MODE --dump DIR -n 3` and returns its exit status; its output
 * goes to DIR.log. */
static int same_run(const same_case_t *c, const char *mode, const char *dir)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s run %s %s %s --dump %s -n 3 > %s.log 2>&1",
	         getenv("DALIC_BIN"), c->target, c->flags, mode, dir, dir);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole file (new, free()); NULL if it cannot be read. */
static char *same_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, k;
	char chunk[65536];
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
		buf = realloc(buf, n + k + 1);
		memcpy(buf + n, chunk, k);
		n += k;
	}
	fclose(f);
	*len = n;
	if (buf)
		buf[n] = 0; /* the logs are printed as strings */
	return buf ? buf : calloc(1, 1);
}

static int same_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the files in dir, sorted (new, free each and the array). */
static char **same_list(const char *dir, int *count)
{
	char **names = NULL;
	int n = 0;
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "no dump directory %s", dir);
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (size_t)(n + 1) * sizeof *names);
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, same_cmp_str);
	*count = n;
	return names;
}

static void same_rmtree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.log'", dir, dir);
	cr_expect_eq(system(cmd), 0);
}

ParameterizedTest(same_case_t *c, debug_same_as_engine, dumps_match)
{
	if (!getenv("DALIC_BIN"))
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char base[] = "/tmp/dalic_same_XXXXXX";
	cr_assert_not_null(mkdtemp(base));
	char engine[300], debug[300];
	snprintf(engine, sizeof engine, "%s/engine", base);
	snprintf(debug, sizeof debug, "%s/debug", base);
	int rc_e = same_run(c, "", engine), rc_d = same_run(c, "--debug", debug);
	size_t len;
	char log[320];
	snprintf(log, sizeof log, "%s.log", engine);
	char *msg = same_slurp(log, &len);
	cr_assert_eq(rc_e, 0, "%s %s: the engine run failed:\n%s", c->target, c->flags, msg);
	free(msg);
	snprintf(log, sizeof log, "%s.log", debug);
	msg = same_slurp(log, &len);
	cr_assert_eq(rc_d, 0, "%s %s: the debug run failed:\n%s", c->target, c->flags, msg);
	free(msg);

	int ne, nd;
	char **fe = same_list(engine, &ne), **fd = same_list(debug, &nd);
	cr_assert_gt(ne, 0, "%s %s: nothing dumped", c->target, c->flags);
	cr_assert_eq(ne, nd, "%s %s: the engine dumped %d files, debug mode %d", c->target,
	             c->flags, ne, nd);
	for (int i = 0; i < ne; i++) {
		cr_assert_str_eq(fe[i], fd[i], "%s %s: file sets differ", c->target, c->flags);
		char pe[600], pd[600];
		snprintf(pe, sizeof pe, "%s/%s", engine, fe[i]);
		snprintf(pd, sizeof pd, "%s/%s", debug, fd[i]);
		size_t le, ld;
		char *be = same_slurp(pe, &le), *bd = same_slurp(pd, &ld);
		cr_assert(be && bd, "cannot read %s or %s", pe, pd);
		cr_expect(le == ld && !memcmp(be, bd, le), "%s %s: %s differs (%zu vs %zu bytes)",
		          c->target, c->flags, fe[i], le, ld);
		free(be);
		free(bd);
		free(fe[i]);
		free(fd[i]);
	}
	free(fe);
	free(fd);
	same_rmtree(engine);
	same_rmtree(debug);
	rmdir(base);
}

/* The listing found the sample scripts: a moved directory must not make the test vacuous. */
Test(debug_same_as_engine, every_sample_script_is_covered)
{
	DIR *d = opendir("samples/scripts");
	cr_assert_not_null(d, "run from the repository root");
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		n += len > 3 && !strcmp(e->d_name + len - 3, ".py");
	}
	closedir(d);
	cr_expect_geq(n, 13, "samples/scripts holds %d scripts", n);
}
