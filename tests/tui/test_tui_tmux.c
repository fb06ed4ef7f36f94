/*
 * End to end in a real terminal: the dalic binary runs inside tmux (a private server per
 * test, 100x30), keys go in with send-keys and the screen comes back with capture-pane.
 * Also checks that the terminal is restored on every way out: q, SIGTERM and a crash
 * (SIGSEGV: the handler restores the terminal and re-raises, so the exit status stays 139).
 * Skipped, with a message, where tmux is not installed.
 */
#include "tests/testlib/tui.h"

#include <stdarg.h>
#include <unistd.h>
#include <time.h>

TestSuite(tui_tmux, .timeout = 60);

typedef struct tui_tmux_tmux {
	char socket[64];
	char dir[64];
} tui_tmux_t;

static void tui_tmux_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tui_tmux_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	int rc = system(cmd);
	(void)rc;
}

/* Starts `inner` (a shell command) in a detached 100x30 session on a private server. */
static tui_tmux_t tui_tmux_start(const char *inner)
{
	if (system("command -v tmux >/dev/null 2>&1"))
		cr_skip_test("tmux is not installed: the end-to-end terminal test is skipped");
	if (!getenv("DALIC_BIN"))
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	tui_tmux_t t;
	snprintf(t.socket, sizeof t.socket, "dalic-test-%d", (int)getpid());
	snprintf(t.dir, sizeof t.dir, "/tmp/dalic_tmux_XXXXXX");
	cr_assert_not_null(mkdtemp(t.dir));
	char script[128];
	snprintf(script, sizeof script, "%s/run.sh", t.dir);
	FILE *f = fopen(script, "w");
	cr_assert_not_null(f);
	fprintf(
	    f,
	    "cd '%s'\n%s\necho \"EXIT=$?\"\nstty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'\n"
	    "sleep 60\n",
	    getcwd((char[1024]){0}, 1024), inner);
	fclose(f);
	tui_tmux_sh(
	    "tmux -L %s -f /dev/null new-session -d -x 100 -y 30 -s t 'TERM=xterm-256color sh %s'",
	    t.socket, script);
	return t;
}

static void tui_tmux_stop(tui_tmux_t *t)
{
	tui_tmux_sh("tmux -L %s kill-server 2>/dev/null", t->socket);
	tui_tmux_sh("rm -rf %s", t->dir);
}

static char *tui_tmux_capture(const tui_tmux_t *t)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "tmux -L %s capture-pane -p -t t", t->socket);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	char *s = calloc(1, 1);
	size_t n = 0, k;
	char buf[4096];
	while ((k = fread(buf, 1, sizeof buf, p)) > 0) {
		s = realloc(s, n + k + 1);
		memcpy(s + n, buf, k);
		n += k;
		s[n] = 0;
	}
	pclose(p);
	return s;
}

/* Polls the screen until it contains `needle` (true) or 15 s pass (false); *screen keeps
 * the last capture. */
static bool tui_tmux_wait_for(const tui_tmux_t *t, const char *needle, char **screen)
{
	for (int i = 0; i < 300; i++) {
		free(*screen);
		*screen = tui_tmux_capture(t);
		if (strstr(*screen, needle))
			return true;
		nanosleep(&(struct timespec){0, 50000000}, NULL);
	}
	return false;
}

static void tui_tmux_keys(const tui_tmux_t *t, const char *k)
{
	tui_tmux_sh("tmux -L %s send-keys -t t %s", t->socket, k);
}

Test(tui_tmux, drive_the_workbench_in_a_terminal)
{
	char inner[512];
	snprintf(inner, sizeof inner, "'%s' tui @arith",
	         getenv("DALIC_BIN") ? getenv("DALIC_BIN") : "");
	tui_tmux_t t = tui_tmux_start(inner);
	char *s = NULL;
	cr_expect(tui_tmux_wait_for(&t, "ready: n runs", &s), "the workbench did not come up:\n%s",
	          s);
	EXPECT_HAS(s, "GRAPH");
	EXPECT_HAS(s, "OPERATORS");
	EXPECT_HAS(s, "QUEUES");
	EXPECT_HAS(s, "BATCH");
	tui_tmux_keys(&t, "n");
	cr_expect(tui_tmux_wait_for(&t, "\xe2\x94\x82 it 1 \xe2\x94\x82", &s),
	          "n did not step:\n%s", s);
	tui_tmux_keys(&t, "'?'");
	cr_expect(tui_tmux_wait_for(&t, "HELP", &s), "no help screen:\n%s", s);
	tui_tmux_keys(&t, "Escape");
	cr_expect(tui_tmux_wait_for(&t, "OPERATORS", &s), "help did not close:\n%s", s);
	tui_tmux_keys(&t, "Space");
	cr_expect(tui_tmux_wait_for(&t, "\xe2\x96\xb6 running", &s), "Space did not run:\n%s", s);
	tui_tmux_keys(&t, "q");
	cr_expect(tui_tmux_wait_for(&t, "EXIT=0", &s), "q did not quit cleanly:\n%s", s);
	/* icanon (not -icanon): the terminal is back in its normal line mode */
	cr_expect(tui_tmux_wait_for(&t, "\nicanon", &s), "terminal not restored:\n%s", s);
	cr_expect(!strstr(s, "GRAPH"), "the workbench is still on screen:\n%s", s);
	free(s);
	tui_tmux_stop(&t);
}

/* Runs the workbench with its pid written to a file, sends `sig`, checks the exit status and
 * that the terminal came back. */
static void tui_tmux_signal_restores(int sig, const char *status, const char *message)
{
	char inner[700];
	const char *bin = getenv("DALIC_BIN") ? getenv("DALIC_BIN") : "";
	snprintf(inner, sizeof inner,
	         "sh -c 'echo $$ > /tmp/dalic_tmux_pid_%d; exec \"%s\" tui @arith'", (int)getpid(),
	         bin);
	tui_tmux_t t = tui_tmux_start(inner);
	char *s = NULL;
	cr_expect(tui_tmux_wait_for(&t, "ready: n runs", &s), "the workbench did not come up:\n%s",
	          s);
	tui_tmux_sh("kill -%d $(cat /tmp/dalic_tmux_pid_%d)", sig, (int)getpid());
	cr_expect(tui_tmux_wait_for(&t, status, &s), "no %s after signal %d:\n%s", status, sig, s);
	cr_expect(tui_tmux_wait_for(&t, "\nicanon", &s),
	          "terminal not restored after signal %d:\n%s", sig, s);
	if (message)
		EXPECT_HAS(s, message, "no '%s'", message);
	tui_tmux_sh("rm -f /tmp/dalic_tmux_pid_%d", (int)getpid());
	free(s);
	tui_tmux_stop(&t);
}

Test(tui_tmux, sigterm_quits_cleanly_and_restores_the_terminal)
{
	tui_tmux_signal_restores(15, "EXIT=143", NULL); /* 128 + SIGTERM, after a clean shutdown */
}

Test(tui_tmux, crash_restores_the_terminal_and_keeps_the_signal)
{
	tui_tmux_signal_restores(11, "EXIT=139",
	                         "dalic tui: crashed (SIGSEGV); the terminal was restored");
}
