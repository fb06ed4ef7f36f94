/*
 * Running the dalic binary from a test: `$DALIC_BIN` (set by `make test`; the test is skipped
 * without it) inside a shell command line, capturing what it prints.
 */
#ifndef DALIC_TESTS_SHELL_RUN_H
#define DALIC_TESTS_SHELL_RUN_H

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The binary, or skips the test. */
static inline const char *shell_run_bin(void)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	return bin;
}

/* Runs `cmd` with sh; *out gets its stdout (new: free()). Returns the exit status, or -1 when
 * it did not exit normally. */
static inline int shell_run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t n = 0, k;
	char buf[4096];
	*out = calloc(1, 1);
	cr_assert_not_null(*out);
	while ((k = fread(buf, 1, sizeof buf, p)) > 0) {
		*out = realloc(*out, n + k + 1);
		cr_assert_not_null(*out);
		memcpy(*out + n, buf, k);
		n += k;
		(*out)[n] = 0;
	}
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
