/*
 * The runner for the Criterion stand-in (criterion/criterion.h here): runs every registered
 * test whose "suite/name" matches --filter PATTERN (fnmatch), each in a forked child with its
 * suite's timeout, and prints one line per test plus a synthesis like Criterion's. Exit
 * status 0 only when every selected test passed.
 */
#include "criterion/criterion.h"

#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static shim_test_t *tests;
static shim_suite_t *suites;
static int failures;

void shim_register_test(shim_test_t *t)
{
	t->next = tests;
	tests = t;
}

void shim_register_suite(shim_suite_t *s)
{
	s->next = suites;
	suites = s;
}

void shim_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "[----] %s:%d: Assertion failed: %s\n[----]   %s\n", file, line, expr,
		msg);
	failures++;
	if (fatal)
		exit(1);
}

void shim_skip(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "[SKIP] %s\n", msg);
	exit(failures ? 1 : 0);
}

static int suite_timeout(const char *name)
{
	for (shim_suite_t *s = suites; s; s = s->next)
		if (!strcmp(s->name, name))
			return s->timeout;
	return 60;
}

static int run_one(shim_test_t *t)
{
	pid_t pid = fork();
	if (pid == 0) {
		alarm((unsigned)suite_timeout(t->suite));
		t->fn();
		exit(failures ? 1 : 0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "[----] %s::%s: %s\n", t->suite, t->name,
		WTERMSIG(status) == SIGALRM ? "timed out" : strsignal(WTERMSIG(status)));
	return 2;
}

int main(int argc, char **argv)
{
	const char *filter = "*";
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--filter") && i + 1 < argc)
			filter = argv[++i];
	int tested = 0, failed = 0;
	for (shim_test_t *t = tests; t; t = t->next) {
		char full[256];
		snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
		if (fnmatch(filter, full, 0))
			continue;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		int rc = run_one(t);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		printf("[%s] %s::%s: (%.2fs)\n", rc ? "FAIL" : "PASS", t->suite, t->name, s);
		fflush(stdout);
		tested++;
		failed += rc != 0;
	}
	printf("[====] Synthesis: Tested: %d | Passing: %d | Failing: %d\n", tested, tested - failed,
	       failed);
	return failed || !tested;
}
