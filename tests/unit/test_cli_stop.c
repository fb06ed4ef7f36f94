/*
 * SIGINT / SIGTERM during `dalic run` and `dalic stats` (issue 20): the command stops after
 * the iteration in flight, prints the summary of the iterations completed so far, and exits
 * 128 + the signal.
 */
#include "tests/testlib.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(cli_stop, .timeout = 60);

/* Runs `dalic <cmd> @arith -n <huge>`, sends `sig` after its start-up, returns its exit status
 * and its stdout (new). */
static int cstop_run(const char *cmd, int sig, char **out)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	int fd[2];
	cr_assert_eq(pipe(fd), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		execl(bin, bin, cmd, "@arith", "-n", "1000000000", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	usleep(1500 * 1000); /* started and running iterations */
	kill(pid, sig);
	size_t cap = 1 << 16, len = 0;
	ssize_t got;
	*out = malloc(cap);
	while ((got = read(fd[0], *out + len, cap - len - 1)) > 0)
		len += (size_t)got;
	(*out)[len] = 0;
	close(fd[0]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

/* The count after `key` in `text`. */
static long cstop_count(const char *text, const char *key)
{
	const char *at = strstr(text, key);
	cr_assert_not_null(at, "no '%s' in: %s", key, text);
	return strtol(at + strlen(key), NULL, 10);
}

Test(cli_stop, sigint_during_run_prints_the_summary_and_exits_130)
{
	char *out;
	int st = cstop_run("run", SIGINT, &out);
	cr_expect_eq(st, 130, "status %d: %s", st, out);
	long n = cstop_count(out, "iterations: ");
	cr_expect(n > 0 && n < 1000000000, "%ld iterations: %s", n, out);
	EXPECT_HAS(out, "samples_per_second: ");
	free(out);
}

Test(cli_stop, sigterm_during_stats_prints_the_report_and_exits_143)
{
	char *out;
	int st = cstop_run("stats", SIGTERM, &out);
	cr_expect_eq(st, 143, "status %d: %s", st, out);
	long n = cstop_count(out, "iterations_run: ");
	cr_expect(n > 0 && n < 1000000000, "%ld iterations: %s", n, out);
	free(out);
}
