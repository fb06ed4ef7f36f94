/*
 * Helpers for the hostile-input tests (issue 24): a pipeline script written the way a user
 * would hand it over, run to its first failure, and the dalic binary driven like a shell
 * would. A hostile input must fail with a message; these helpers return that message so a
 * test can check it names the operator, the sample, the file and the size.
 *
 *     const char *msg = hs_script_fails(HS_PIPE("    return
 * fn.random.coin_flip(probability=float('nan'))"));
 */
#ifndef DALIC_TESTS_TESTLIB_HOSTILE_H
#define DALIC_TESTS_TESTLIB_HOSTILE_H

#include <criterion/criterion.h>

#include "dalic.h"
#include "engine/pipeline.h"
#include "frontend/script.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A script whose pipeline `p` (batch 2, CPU only) returns what BODY (indented lines) does. */
#define HS_PIPE(body)                                                                              \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"import nvidia.dali as dali\n"                                                             \
	"@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=7)\n"                     \
	"def p():\n" body "\n"                                                                     \
	"pipe = p()\n"

static char hs_msg[4096];

/* Writes text to a new temporary file named with `suffix`; returns its path (static). */
static inline const char *hs_temp(const char *text, size_t n, const char *suffix)
{
	static char path[8][96];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 96, "/tmp/dalic_hostile_XXXXXX%s", suffix);
	int fd = mkstemps(p, (int)strlen(suffix));
	cr_assert(fd >= 0, "cannot create a temporary file");
	cr_assert_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	return p;
}

/* Loads, builds and runs the script for `iterations`; the first failing status (DALIC_OK when
 * all went through), with its message in hs_msg. */
static inline int hs_script_run(const char *text, int iterations)
{
	const char *path = hs_temp(text, strlen(text), ".py");
	dalic_graphdef_t *g = NULL;
	dalic_pipeline_t *p = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	if (!rc)
		rc = dalic_pipeline_from_graphdef(g, &p);
	if (!rc)
		rc = dalic_pipeline_build(p);
	for (int i = 0; !rc && i < iterations; i++)
		rc = dalic_pipeline_run(p);
	snprintf(hs_msg, sizeof hs_msg, "%s", rc ? dalic_last_error() : "");
	if (!p)
		dalic_graphdef_free(g);
	dalic_pipeline_destroy(p);
	unlink(path);
	return rc;
}

/* Runs the script expecting a failure; returns its message. */
static inline const char *hs_script_fails(const char *text)
{
	int rc = hs_script_run(text, 1);
	cr_assert_neq(rc, DALIC_OK, "the pipeline ran: it should have failed");
	cr_assert(hs_msg[0], "failed without a message");
	return hs_msg;
}

/* Asserts that `msg` contains every string given (NULL-terminated list). */
static inline void hs_expect_mentions(const char *msg, ...)
{
	va_list ap;
	va_start(ap, msg);
	for (const char *s; (s = va_arg(ap, const char *));)
		cr_expect(strstr(msg, s), "'%s' is not mentioned in: %s", s, msg);
	va_end(ap);
}

/* Runs `$DALIC_BIN <args>` through the shell, stdout and stderr captured into hs_msg; returns
 * the exit status (-1 when killed by a signal). Skips the test without DALIC_BIN. */
static inline int hs_dalic(const char *env, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int hs_dalic(const char *env, const char *fmt, ...)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char args[1024], cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "%s %s %s 2>&1", env ? env : "", bin, args);
	FILE *f = popen(cmd, "r");
	cr_assert(f);
	size_t n = fread(hs_msg, 1, sizeof hs_msg - 1, f);
	hs_msg[n] = 0;
	while (fgetc(f) != EOF) /* keep draining: the command must not block on a full pipe */
		;
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
