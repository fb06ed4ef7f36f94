/*
 * The headless workbench reads key-script lines of any length (issue 24): a line longer
 * than the old 511-character buffer was split, and its tail ran as a line of its own. Runs
 * the binary ($DALIC_BIN, set by `make test`; skipped without it).
 */
#include "tests/integration/shell_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(tui_long_lines, .timeout = 60);

/* Runs the headless workbench on @coin with `keys`; returns the exit status, *out the
 * output (new). */
static int tui_long_lines_run(const char *keys, char **out)
{
	const char *bin = shell_run_bin();
	char dir[] = "/tmp/dalic_tui_long_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[128], cmd[512];
	snprintf(path, sizeof path, "%s/keys", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(keys, f);
	cr_assert_eq(fclose(f), 0);
	snprintf(cmd, sizeof cmd,
	         "%s tui @coin --keys %s --dump %s/dumps 2>&1; s=$?; rm -rf %s; exit $s", bin, path,
	         dir, dir);
	return shell_run(cmd, out);
}

Test(tui_long_lines, a_long_comment_line_stays_one_line)
{
	/* a comment of 5000 characters: its tail would be taken for a key or command */
	size_t len = 5000;
	char *keys = malloc(len + 64);
	cr_assert_not_null(keys);
	strcpy(keys, "# ");
	memset(keys + 2, 'x', len);
	strcpy(keys + 2 + len, "\nn\nq\n");
	char *out;
	int status = tui_long_lines_run(keys, &out);
	cr_expect_eq(status, 0, "%s", out);
	cr_expect_null(strstr(out, "no key or command"), "%s", out);
	cr_expect_not_null(strstr(out, "iterations 1"), "%s", out);
	free(out);
	free(keys);
}

Test(tui_long_lines, a_long_bad_line_is_reported_once_with_its_number)
{
	size_t len = 1500;
	char *keys = malloc(len + 64);
	cr_assert_not_null(keys);
	memset(keys, 'z', len);
	strcpy(keys + len, "\nq\n");
	char *out;
	int status = tui_long_lines_run(keys, &out);
	cr_expect_eq(status, 2, "%s", out);
	const char *first = strstr(out, "line 1: no key or command");
	cr_expect_not_null(first, "%s", out);
	cr_expect_null(first ? strstr(first + 10, "no key or command") : NULL, "%s", out);
	free(out);
	free(keys);
}
