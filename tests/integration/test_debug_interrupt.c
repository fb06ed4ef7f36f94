/*
 * Ctrl-C in `dalic debug` (issue 24): SIGINT stops any run command — goto, continue, step N,
 * next N, info perf N — between two operators and returns to the prompt with the session
 * intact; at the prompt it does nothing; absurd counts are refused at once. The dalic binary
 * ($DALIC_BIN, set by `make test`; skipped without it) runs the built-in @arith pipeline
 * (7 operators) with commands written to its stdin while the test reads its output, and the
 * test sends the signals.
 */
#include <criterion/criterion.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

TestSuite(debug_interrupt, .timeout = 240);

typedef struct dbg_proc {
	pid_t pid;
	int in, out; /* its stdin (we write), its stdout and stderr (we read) */
	char *text;  /* everything it wrote so far */
	size_t len;
} dbg_proc_t;

static dbg_proc_t dbg_start(void)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	int in[2], out[2];
	cr_assert_eq(pipe(in), 0);
	cr_assert_eq(pipe(out), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(in[1]);
		close(out[0]);
		execl(bin, bin, "debug", "@arith", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	return (dbg_proc_t){.pid = pid, .in = in[1], .out = out[0], .text = calloc(1, 1)};
}

static void dbg_send(dbg_proc_t *p, const char *text)
{
	cr_assert_eq(write(p->in, text, strlen(text)), (ssize_t)strlen(text));
}

/* Reads what is there within `ms` milliseconds; false at end of output. */
static bool dbg_read(dbg_proc_t *p, int ms)
{
	struct pollfd pf = {.fd = p->out, .events = POLLIN};
	if (poll(&pf, 1, ms) <= 0)
		return true;
	char buf[4096];
	ssize_t k = read(p->out, buf, sizeof buf);
	if (k <= 0)
		return false;
	p->text = realloc(p->text, p->len + (size_t)k + 1);
	memcpy(p->text + p->len, buf, (size_t)k);
	p->len += (size_t)k;
	p->text[p->len] = 0;
	return true;
}

static double dbg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits until the output after `from` holds `needle`; when `signal_every` > 0, sends SIGINT
 * that often meanwhile (a signal that comes before the command starts finds the prompt and
 * is ignored, so the next one is needed). */
static const char *dbg_wait(dbg_proc_t *p, size_t from, const char *needle, double signal_every)
{
	double end = dbg_now() + 120, next_signal = dbg_now() + signal_every;
	for (;;) {
		const char *hit = strstr(p->text + from, needle);
		if (hit)
			return hit;
		cr_assert(dbg_now() < end, "no \"%s\" after 120 s; output:\n%s", needle, p->text);
		if (signal_every > 0 && dbg_now() >= next_signal) {
			kill(p->pid, SIGINT);
			next_signal = dbg_now() + signal_every;
		}
		cr_assert(dbg_read(p, 50), "dalic debug ended early; output:\n%s", p->text);
	}
}

/* Closes stdin, reads the rest, returns the exit status. */
static int dbg_finish(dbg_proc_t *p)
{
	close(p->in);
	while (dbg_read(p, 1000))
		;
	int st;
	cr_assert_eq(waitpid(p->pid, &st, 0), p->pid);
	close(p->out);
	cr_assert(WIFEXITED(st), "dalic debug died (signal %d); output:\n%s",
	          WIFSIGNALED(st) ? WTERMSIG(st) : 0, p->text);
	return WEXITSTATUS(st);
}

/* The session answers (so its SIGINT handler is in place): `iter` shows where it is.
 * Returns the offset after the answer's first line. */
static size_t dbg_ready(dbg_proc_t *p)
{
	size_t from = p->len;
	dbg_send(p, "iter\n");
	const char *hit = dbg_wait(p, from, "iterations done:", 0);
	return (size_t)(hit - p->text) + strlen("iterations done:");
}

/* Starts `command`, interrupts it, and checks the session goes on from where it stopped. */
static void dbg_interrupt_case(const char *command, const char *after)
{
	dbg_proc_t p = dbg_start();
	size_t from = dbg_ready(&p);
	dbg_send(&p, command);
	usleep(300 * 1000);
	const char *hit = dbg_wait(&p, from, "interrupted", 0.5);
	from = (size_t)(hit - p.text) + strlen("interrupted");
	/* the session is intact: it answers, and a step runs the next operator */
	dbg_send(&p, "iter\nstep\n");
	dbg_wait(&p, from, after, 0);
	dbg_send(&p, "quit\n");
	cr_expect_eq(dbg_finish(&p), 0, "%s", p.text);
	free(p.text);
}

Test(debug_interrupt, ctrl_c_stops_goto)
{
	/* from iteration 1: a goto from the start moves the operators on without running */
	dbg_interrupt_case("next\ngoto 100000000\n", "  ran ");
}

Test(debug_interrupt, ctrl_c_stops_continue)
{
	dbg_interrupt_case("continue\n", "  ran ");
}

Test(debug_interrupt, ctrl_c_stops_repeated_steps_and_iterations)
{
	dbg_interrupt_case("step 100000000\n", "  ran ");
	dbg_interrupt_case("next 100000000\n", "  ran ");
	dbg_interrupt_case("continue 100000000\n", "  ran ");
}

Test(debug_interrupt, ctrl_c_stops_a_measurement)
{
	dbg_proc_t p = dbg_start();
	size_t from = dbg_ready(&p);
	dbg_send(&p, "info perf 100000000\n");
	usleep(300 * 1000);
	dbg_wait(&p, from, "interrupted", 0.5);
	from = p.len;
	/* a measurement runs its own copies: the session has not moved */
	dbg_send(&p, "iter\nquit\n");
	dbg_finish(&p); /* 1: the failed measurement counts as a failed command */
	cr_expect(strstr(p.text + from, "iterations done: 0, batch size 0"), "%s", p.text);
	free(p.text);
}

/* The position after the interrupt is the one the run stopped at, and the commands after
 * it start from there: iter and the interrupt report agree, and `step 2` moves by two. */
Test(debug_interrupt, the_position_survives)
{
	dbg_proc_t p = dbg_start();
	size_t from = dbg_ready(&p);
	dbg_send(&p, "continue\n");
	usleep(300 * 1000);
	const char *hit = dbg_wait(&p, from, "interrupted\niteration ", 0.5);
	/* the whole position line */
	dbg_wait(&p, (size_t)(hit - p.text) + strlen("interrupted\n"), "\n", 0);
	hit = strstr(p.text + from, "interrupted\niteration ");
	long long it;
	int op = 7; /* "iteration N complete": every operator of N ran */
	cr_assert_eq(sscanf(hit, "interrupted\niteration %lld", &it), 1, "%s", hit);
	sscanf(hit, "interrupted\niteration %*d, next operator %d/7", &op);
	from = p.len;
	dbg_send(&p, "iter\nstep 2\nquit\n");
	cr_expect_eq(dbg_finish(&p), 0, "%s", p.text);
	char want[128];
	if (op < 7)
		snprintf(want, sizeof want, "iteration %lld, next operator %d/7", it, op);
	else
		snprintf(want, sizeof want, "iteration %lld complete", it);
	cr_expect(strstr(p.text + from, want), "iter after the interrupt: want \"%s\" in\n%s", want,
	          p.text + from);
	/* two more operators; a complete iteration shows as such until the next step */
	long long it2 = op == 7 ? it + 1 : it;
	int op2 = (op == 7 ? 0 : op) + 2;
	if (op2 > 7) {
		it2++;
		op2 -= 7;
	}
	if (op2 < 7)
		snprintf(want, sizeof want, "iteration %lld, next operator %d/7", it2, op2);
	else
		snprintf(want, sizeof want, "iteration %lld complete", it2);
	cr_expect(strstr(p.text + from, want), "step 2 from %lld/%d: want \"%s\" in\n%s", it, op,
	          want, p.text + from);
	free(p.text);
}

/* Ctrl-C at the prompt is not kept for later: the next run command runs in full. */
Test(debug_interrupt, ctrl_c_at_the_prompt_does_nothing)
{
	dbg_proc_t p = dbg_start();
	size_t from = dbg_ready(&p);
	kill(p.pid, SIGINT);
	usleep(200 * 1000);
	kill(p.pid, SIGINT);
	usleep(200 * 1000);
	dbg_send(&p, "step 3\nquit\n");
	cr_expect_eq(dbg_finish(&p), 0, "%s", p.text);
	cr_expect(strstr(p.text + from, "iteration 0, next operator 3/7"), "%s", p.text + from);
	cr_expect_null(strstr(p.text + from, "interrupted"), "%s", p.text + from);
	free(p.text);
}

/* Absurd counts are refused at once with the bound, and the session goes on. */
Test(debug_interrupt, absurd_counts_are_refused)
{
	dbg_proc_t p = dbg_start();
	size_t from = dbg_ready(&p);
	dbg_send(&p, "goto 99999999999999\n"
	             "goto 99999999999999999999999\n"
	             "step 99999999999999999999\n"
	             "next 1000000001\n"
	             "continue 5000000000\n"
	             "info perf 99999999999\n"
	             "step\n"
	             "quit\n");
	int st = dbg_finish(&p);
	const char *out = p.text + from;
	cr_expect(strstr(out, "error: goto 99999999999999: iterations go up to 1000000000"), "%s",
	          out);
	cr_expect(strstr(out, "error: goto 99999999999999999999999: iterations go up to"), "%s",
	          out);
	cr_expect(strstr(out, "error: 99999999999999999999 is too many: one command runs at most "
	                      "1000000000"),
	          "%s", out);
	cr_expect(strstr(out, "error: 1000000001 is too many"), "%s", out);
	cr_expect(strstr(out, "error: 5000000000 is too many"), "%s", out);
	cr_expect(strstr(out, "99999999999 iterations: give 1 to 1000000000"), "%s", out);
	/* nothing ran before the last step: it runs operator 0 */
	cr_expect(strstr(out, "iteration 0, next operator 1/7"), "%s", out);
	cr_expect_eq(st, 1, "refused commands make a piped session exit 1:\n%s", out);
	free(p.text);
}
