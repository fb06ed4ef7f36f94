/*
 * Helpers for the workbench tests: they run the real binary ($DALIC_BIN, set by `make test`;
 * skipped without it) in headless mode — `dalic tui PIPELINE --keys FILE --dump DIR` — and
 * read the text screen dumps it writes (DIR/screen-NNN.txt), exactly what a person would see
 * minus colour. Every test gets its own temporary directory.
 *
 *     tui_run_t r = tui_run("@arith", "n\ndump\n", NULL);
 *     tui_expect_has(&r, 1, "it 1");
 *     tui_run_free(&r);
 */
#ifndef DALIC_TESTS_TUI_TEST_H
#define DALIC_TESTS_TUI_TEST_H

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TUI_MAX_DUMPS 32

typedef struct tui_run {
	char dir[64]; /* temporary directory of this run */
	int status;   /* exit status of dalic tui */
	char *out;    /* its stdout and stderr */
	int num_dumps;
	char *dumps[TUI_MAX_DUMPS]; /* dumps[i]: screen-(i+1).txt */
} tui_run_t;

static inline char *tui_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	cr_assert_not_null(s);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = 0;
	fclose(f);
	return s;
}

/* Runs `dalic tui PIPELINE --keys <keys> --dump <dir> ARGS` and loads the dumps. */
static inline tui_run_t tui_run(const char *pipeline, const char *keys, const char *args)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	tui_run_t r;
	memset(&r, 0, sizeof r);
	snprintf(r.dir, sizeof r.dir, "/tmp/dalic_tui_XXXXXX");
	cr_assert_not_null(mkdtemp(r.dir));
	char path[128];
	snprintf(path, sizeof path, "%s/keys", r.dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(keys, f);
	fclose(f);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s tui %s --keys %s/keys --dump %s/dumps %s 2>&1", bin, pipeline,
	         r.dir, r.dir, args ? args : "");
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t n = 0, k;
	char buf[4096];
	r.out = calloc(1, 1);
	while ((k = fread(buf, 1, sizeof buf, p)) > 0) {
		r.out = realloc(r.out, n + k + 1);
		memcpy(r.out + n, buf, k);
		n += k;
		r.out[n] = 0;
	}
	int st = pclose(p);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	for (r.num_dumps = 0; r.num_dumps < TUI_MAX_DUMPS; r.num_dumps++) {
		snprintf(path, sizeof path, "%s/dumps/screen-%03d.txt", r.dir, r.num_dumps + 1);
		if (!(r.dumps[r.num_dumps] = tui_read_file(path)))
			break;
	}
	return r;
}

static inline void tui_run_free(tui_run_t *r)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", r->dir);
	int rc = system(cmd);
	(void)rc;
	for (int i = 0; i < r->num_dumps; i++)
		free(r->dumps[i]);
	free(r->out);
}

/* Dump number `n` (1-based), asserting it was written. */
static inline const char *tui_dump(const tui_run_t *r, int n)
{
	cr_assert(n >= 1 && n <= r->num_dumps, "dump %d missing (%d written); output:\n%s", n,
	          r->num_dumps, r->out);
	return r->dumps[n - 1];
}

#define tui_expect_has(r, n, needle)                                                               \
	cr_expect(strstr(tui_dump(r, n), needle), "dump %d lacks \"%s\":\n%s", n, needle,          \
	          tui_dump(r, n))
#define tui_expect_lacks(r, n, needle)                                                             \
	cr_expect(!strstr(tui_dump(r, n), needle), "dump %d has \"%s\":\n%s", n, needle,           \
	          tui_dump(r, n))

/* Line `row` (0-based) of a dump, copied into buf. */
static inline const char *tui_line(const char *dump, int row, char *buf, size_t n)
{
	for (int i = 0; i < row && dump; i++) {
		dump = strchr(dump, '\n');
		if (dump)
			dump++;
	}
	buf[0] = 0;
	if (dump) {
		size_t len = strcspn(dump, "\n");
		snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), dump);
	}
	return buf;
}

/* Columns (code points) of the widest line and the number of lines of a dump. */
static inline void tui_dump_size(const char *dump, int *w, int *h)
{
	*w = *h = 0;
	int cols = 0;
	for (const unsigned char *p = (const unsigned char *)dump; *p; p++) {
		if (*p == '\n') {
			if (cols > *w)
				*w = cols;
			cols = 0;
			(*h)++;
		} else if ((*p & 0xc0) != 0x80) {
			cols++;
		}
	}
}

#endif
