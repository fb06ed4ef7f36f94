/*
 * `dalic debug PIPELINE`: debug mode on a gdb-like line interface. Commands come from a
 * terminal (with a prompt), from stdin when it is not a terminal, or from --commands FILE
 * first; so scripts and tests drive it like a person. One table lists every command with its
 * abbreviation and help, and `help` prints that table.
 *
 * Exit status: 0, or 1 when the pipeline cannot be opened or, reading commands from a file
 * or a pipe, when a command was malformed (an unknown node, a bad condition). Operator errors
 * and the end of data are findings, not failures of the script.
 */
#include "cli/cmd_debug.h"
#include "cli/ckpt.h"
#include "cli/feed.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CMD_LINE_MAX = 4096 };

typedef struct repl {
	dalic_debug_t *s;
	bool quit;
} repl_t;

typedef int (*command_fn)(repl_t *r, const char *arg);

typedef struct command {
	const char *name, *abbrev, *args, *help;
	command_fn fn;
} command_t;

/* The session of the command running now: Ctrl-C interrupts it (NULL at the prompt, where
 * Ctrl-C does nothing, so no interrupt waits for the next command). */
static dalic_debug_t *volatile interrupt_target;

/* Counts and iteration numbers above this are refused: debug mode runs at most this many
 * iterations per command (debugmode/session.h). */
#define CMD_DEBUG_MAX_COUNT 1000000000LL

static void debug_on_sigint(int sig)
{
	(void)sig;
	if (interrupt_target)
		dalic_debug_interrupt(interrupt_target);
}

static bool debug_parse_count(const char *arg, long *n)
{
	if (!*arg) {
		*n = 1;
		return true;
	}
	char *end;
	errno = 0;
	*n = strtol(arg, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || *n <= 0) {
		fprintf(stderr, "error: '%s' is not a positive count\n", arg);
		return false;
	}
	if (errno == ERANGE || *n > CMD_DEBUG_MAX_COUNT) {
		fprintf(stderr, "error: %s is too many: one command runs at most %lld\n", arg,
		        CMD_DEBUG_MAX_COUNT);
		return false;
	}
	return true;
}

/* Runs a run command `n` times, stopping early at anything but a plain step. Returns the
 * last run's status in *run_rc. */
static int debug_repeat(repl_t *r, const char *arg, int (*run)(dalic_debug_t *), int *run_rc)
{
	long n;
	if (!debug_parse_count(arg, &n))
		return DALIC_EINVAL;
	int rc = DALIC_OK;
	for (long i = 0; i < n; i++) {
		rc = run(r->s);
		dalic_debug_status_t st;
		dalic_debug_status(r->s, &st);
		if (rc || st.stop != DALIC_DEBUG_STOP_STEP)
			break;
	}
	*run_rc = rc;
	return DALIC_OK;
}

static int debug_cmd_step(repl_t *r, const char *arg)
{
	int run_rc, rc = debug_repeat(r, arg, dalic_debug_step, &run_rc);
	if (rc)
		return rc;
	dalic_debug_status_t st;
	dalic_debug_status(r->s, &st);
	dalic_debug_op_info_t o;
	/* after one operator, say what it did: the time and what it produced */
	if (!run_rc && st.stop == DALIC_DEBUG_STOP_STEP && st.next_op > 0 &&
	    (!*arg || !strcmp(arg, "1")) && !dalic_debug_op_info(r->s, st.next_op - 1, &o) &&
	    o.last_iteration == st.iteration) {
		printf("  ran %s (%s) in %.3f ms ->", o.name, o.schema, (double)o.last_ns * 1e-6);
		for (int k = 0; k < o.num_outputs; k++) {
			const dalic_batch_t *b = dalic_debug_node(r->s, o.outputs[k], NULL);
			if (b)
				printf(" %s: %d x %s", o.outputs[k], dalic_batch_num_samples(b),
				       dalic_dtype_name(dalic_batch_dtype(b)));
		}
		printf("\n");
	}
	dalic_cli_debug_show_stop(r->s, run_rc);
	return DALIC_OK;
}

static int debug_cmd_next(repl_t *r, const char *arg)
{
	int run_rc, rc = debug_repeat(r, arg, dalic_debug_next, &run_rc);
	if (!rc)
		dalic_cli_debug_show_stop(r->s, run_rc);
	return rc;
}

static int debug_cmd_iter(repl_t *r, const char *arg)
{
	(void)arg;
	dalic_debug_status_t st;
	dalic_debug_status(r->s, &st);
	printf("iterations done: %lld, batch size %d\n", (long long)st.iterations_done,
	       st.batch_size);
	dalic_cli_debug_show_position(r->s);
	return DALIC_OK;
}

static int debug_cmd_continue(repl_t *r, const char *arg)
{
	long n = -1;
	if (*arg && !debug_parse_count(arg, &n))
		return DALIC_EINVAL;
	int rc = dalic_debug_continue(r->s, n);
	dalic_cli_debug_show_stop(r->s, rc);
	return DALIC_OK;
}

static int debug_failed(dalic_debug_t *s)
{
	fprintf(stderr, "error: %s\n", dalic_debug_last_error(s));
	return DALIC_EINVAL;
}

static int debug_cmd_break(repl_t *r, const char *arg)
{
	int id, rc;
	if (!strncmp(arg, "iter ", 5)) {
		char *end;
		long long n = strtoll(arg + 5, &end, 10);
		if (end == arg + 5 || *end) {
			fprintf(stderr, "error: usage: break iter N\n");
			return DALIC_EINVAL;
		}
		rc = dalic_debug_break_iter(r->s, n, &id);
	} else if (!strcmp(arg, "warning")) {
		if (dalic_debug_break_warning(r->s, &id))
			return debug_failed(r->s);
		printf("breakpoint %d: after an operator warns (damaged data)\n", id);
		return DALIC_OK;
	} else if (*arg) {
		rc = dalic_debug_break_op(r->s, arg, &id);
	} else {
		fprintf(stderr, "error: usage: break OP | break iter N | break warning\n");
		return DALIC_EINVAL;
	}
	if (rc)
		return debug_failed(r->s);
	printf("breakpoint %d: %s%s\n", id, strncmp(arg, "iter ", 5) ? "before " : "", arg);
	return DALIC_OK;
}

static int debug_cmd_cond(repl_t *r, const char *arg)
{
	int id;
	if (dalic_debug_break_cond(r->s, arg, &id))
		return debug_failed(r->s);
	printf("condition %d: %s\n", id, arg);
	return DALIC_OK;
}

static int debug_cmd_delete(repl_t *r, const char *arg)
{
	int id = *arg ? atoi(arg) : 0;
	if (*arg && id <= 0) {
		fprintf(stderr, "error: usage: delete [ID]\n");
		return DALIC_EINVAL;
	}
	if (dalic_debug_delete(r->s, id))
		return debug_failed(r->s);
	printf(id ? "deleted breakpoint %d\n" : "deleted all breakpoints\n", id);
	return DALIC_OK;
}

static int debug_cmd_print(repl_t *r, const char *arg)
{
	return dalic_cli_debug_print(r->s, arg);
}

static int debug_cmd_info(repl_t *r, const char *arg)
{
	return dalic_cli_debug_info(r->s, arg);
}

static int debug_cmd_save(repl_t *r, const char *arg)
{
	return dalic_cli_debug_save(r->s, arg);
}

static int debug_cmd_restart(repl_t *r, const char *arg)
{
	(void)arg;
	if (dalic_debug_restart(r->s))
		return debug_failed(r->s);
	printf("restarted: iteration 0, same seed\n");
	dalic_cli_debug_show_position(r->s);
	return DALIC_OK;
}

static int debug_cmd_goto(repl_t *r, const char *arg)
{
	char *end;
	errno = 0;
	long long n = strtoll(arg, &end, 10);
	if (!*arg || *end || n < 0) {
		fprintf(stderr, "error: usage: goto N (N >= 0)\n");
		return DALIC_EINVAL;
	}
	if (errno == ERANGE || n > CMD_DEBUG_MAX_COUNT) {
		fprintf(stderr, "error: goto %s: iterations go up to %lld in debug mode\n", arg,
		        CMD_DEBUG_MAX_COUNT);
		return DALIC_EINVAL;
	}
	int rc = dalic_debug_goto(r->s, n);
	dalic_cli_debug_show_stop(r->s, rc);
	return DALIC_OK;
}

/* checkpoint save FILE | checkpoint load FILE */
static int debug_cmd_checkpoint(repl_t *r, const char *arg)
{
	bool save = !strncmp(arg, "save ", 5), load = !strncmp(arg, "load ", 5);
	const char *path = arg + 5;
	while (*path == ' ')
		path++;
	if ((!save && !load) || !*path) {
		fprintf(stderr, "error: usage: checkpoint save FILE | checkpoint load FILE\n");
		return DALIC_EINVAL;
	}
	if (save ? dalic_debug_checkpoint_save(r->s, path)
		 : dalic_debug_checkpoint_load(r->s, path))
		return debug_failed(r->s);
	if (save) {
		printf("checkpoint saved to %s\n", path);
	} else {
		printf("restored %s\n", path);
		dalic_cli_debug_show_position(r->s);
	}
	return DALIC_OK;
}

/* mark: keep the memory counters; since: what grew after them, per operator */
static int debug_cmd_mark(repl_t *r, const char *arg)
{
	(void)arg;
	if (dalic_debug_mark(r->s))
		return debug_failed(r->s);
	dalic_debug_status_t st;
	dalic_debug_status(r->s, &st);
	printf("marked the memory counters at iteration %lld: `since` shows what grew\n",
	       (long long)st.iteration);
	return DALIC_OK;
}

static int debug_cmd_since(repl_t *r, const char *arg)
{
	(void)arg;
	int64_t its;
	const dalic_debug_growth_t *rows;
	int n;
	if (dalic_debug_since(r->s, &its, &rows, &n))
		return debug_failed(r->s);
	int w = 8;
	for (int i = 0; i < n; i++)
		if ((int)strlen(rows[i].op) > w)
			w = (int)strlen(rows[i].op);
	printf("since the mark (%lld iterations):\n", (long long)its);
	printf("  %-*s %12s %8s %8s %12s\n", w, "operator", "bytes live", "growths", "allocs",
	       "bytes alloc");
	int grew = 0;
	for (int i = 0; i < n; i++) {
		const dalic_debug_growth_t *g = &rows[i];
		if (!g->bytes_live && !g->growth_events && !g->allocations)
			continue;
		grew++;
		printf("  %-*s %+12lld %8lld %8lld %12lld\n", w, g->op, (long long)g->bytes_live,
		       (long long)g->growth_events, (long long)g->allocations,
		       (long long)g->allocated_bytes);
	}
	printf("  %d of %d operators changed\n", grew, n);
	return DALIC_OK;
}

static int debug_cmd_quit(repl_t *r, const char *arg)
{
	(void)arg;
	r->quit = true;
	return DALIC_OK;
}

static int debug_cmd_help(repl_t *r, const char *arg);

static const command_t commands[] = {
    {"step", "s", "[N]",
     "run the next operator (N operators), entering the next iteration "
     "when this one is complete",
     debug_cmd_step},
    {"next", "n", "[N]",
     "run to the end of the current iteration, or the whole next one "
     "when it is complete (N times); stops at breakpoints",
     debug_cmd_next},
    {"iter", NULL, "", "show the position: iteration, next operator, iterations done",
     debug_cmd_iter},
    {"continue", "c", "[N]",
     "run until a breakpoint, an error or the end of data (at most N "
     "iterations); Ctrl-C interrupts",
     debug_cmd_continue},
    {"break", "b", "OP | iter N | warning",
     "stop before operator OP (instance __Rotate_6 or name "
     "Rotate), before iteration N starts, or after an operator "
     "reports a data-quality warning (a damaged file decoded anyway)",
     debug_cmd_break},
    {"cond", NULL, "[NODE:] EXPR",
     "stop after an operator whose output holds EXPR for some "
     "sample: any NaN, any Inf, max > 1, shape[0] > 1000, "
     "mean < 0 and std == 0, ...",
     debug_cmd_cond},
    {"delete", "d", "[ID]", "delete breakpoint ID, or all of them", debug_cmd_delete},
    {"print", "p", "NODE[i][slice]",
     "NODE: the batch as DALI prints it; NODE[i]: sample i; "
     "NODE[i][0:2, 0:2]: a numpy slice of it",
     debug_cmd_print},
    {"info", "i", "graph|node NODE|stats|break|error|perf [N]",
     "operators in execution order; a node's dtype, layout, shapes, statistics and sources; "
     "per-operator time of the last iteration; breakpoints; the last error; debug mode's "
     "slowdown against the full engine on N iterations",
     debug_cmd_info},
    {"save", NULL, "NODE[i] FILE",
     "write sample i as .npy, or its image preview as "
     ".png/.ppm/.pgm",
     debug_cmd_save},
    {"restart", NULL, "",
     "back to iteration 0 with the same seed (iterations reproduce "
     "exactly)",
     debug_cmd_restart},
    {"goto", NULL, "N", "go to the start of iteration N (restarting when N is behind)",
     debug_cmd_goto},
    {"checkpoint", NULL, "save FILE | load FILE",
     "write the operators' states at the start of this iteration as a DALI checkpoint "
     "(needs enable_checkpointing), or restart at a checkpoint's position",
     debug_cmd_checkpoint},
    {"mark", NULL, "",
     "keep every operator's memory counters (bytes live, buffer growths, allocations)",
     debug_cmd_mark},
    {"since", NULL, "",
     "what grew since the mark, per operator (GStreamer's leaks-tracer checkpoints)",
     debug_cmd_since},
    {"help", "h", "[COMMAND]", "this list", debug_cmd_help},
    {"quit", "q", "", "leave", debug_cmd_quit},
};
enum { NUM_COMMANDS = sizeof commands / sizeof commands[0] };

static const command_t *debug_find_command(const char *name, size_t n)
{
	for (int i = 0; i < NUM_COMMANDS; i++) {
		const command_t *c = &commands[i];
		if ((strlen(c->name) == n && !strncmp(c->name, name, n)) ||
		    (c->abbrev && strlen(c->abbrev) == n && !strncmp(c->abbrev, name, n)))
			return c;
	}
	return NULL;
}

static int debug_cmd_help(repl_t *r, const char *arg)
{
	(void)r;
	const command_t *only = *arg ? debug_find_command(arg, strlen(arg)) : NULL;
	if (*arg && !only) {
		fprintf(stderr, "error: no command '%s'\n", arg);
		return DALIC_EINVAL;
	}
	for (int i = 0; i < NUM_COMMANDS; i++) {
		const command_t *c = &commands[i];
		if (only && c != only)
			continue;
		char head[64];
		snprintf(head, sizeof head, "%s%s%s %s", c->name, c->abbrev ? "|" : "",
		         c->abbrev ? c->abbrev : "", c->args);
		printf("  %-26s %s\n", head, c->help);
	}
	if (!only)
		printf("An empty line repeats the last step/next/continue. Positions: an operator "
		       "runs after 'next operator' is shown; 'complete' means every node holds "
		       "this iteration.\n");
	return DALIC_OK;
}

/* Runs one line; returns DALIC_OK or a status when the command was malformed. */
static int debug_run_line(repl_t *r, char *line, char *last)
{
	line[strcspn(line, "\r\n")] = 0;
	char *p = line;
	while (isspace((unsigned char)*p))
		p++;
	char *end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = 0;
	if (*p == '#')
		return DALIC_OK;
	if (!*p) {
		if (!*last)
			return DALIC_OK;
		p = last; /* gdb: an empty line repeats a run command */
	}
	size_t n = strcspn(p, " \t");
	const command_t *c = debug_find_command(p, n);
	if (!c) {
		fprintf(stderr, "error: unknown command '%.*s' (try help)\n", (int)n, p);
		return DALIC_EINVAL;
	}
	const char *arg = p + n;
	while (isspace((unsigned char)*arg))
		arg++;
	if (c->fn == debug_cmd_step || c->fn == debug_cmd_next || c->fn == debug_cmd_continue) {
		if (p != last)
			memmove(last, p, strlen(p) + 1); /* both are CMD_LINE_MAX buffers */
	} else {
		last[0] = 0;
	}
	interrupt_target = r->s;
	int rc = c->fn(r, arg);
	interrupt_target = NULL;
	return rc;
}

/* Reads and runs commands from f until quit or end of file. Returns the number of
 * malformed commands. */
static int debug_run_stream(repl_t *r, FILE *f, bool prompt, bool echo)
{
	char line[CMD_LINE_MAX], last[CMD_LINE_MAX] = "";
	int bad = 0;
	while (!r->quit) {
		if (prompt) {
			printf("(dalic) ");
			fflush(stdout);
		}
		if (!fgets(line, sizeof line, f))
			break;
		if (echo) {
			printf("(dalic) %s", line);
			if (!strchr(line, '\n'))
				printf("\n");
		}
		bad += debug_run_line(r, line, last) != DALIC_OK;
		fflush(stdout);
	}
	if (prompt && !r->quit)
		printf("\n");
	return bad;
}

static int debug_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	const char *commands_file = NULL;
	dalic_cli_ckpt_opts_t ck = {.at = -1};
	for (int i = 1; i < argc; i++) {
		int used = dalic_cli_ckpt_parse(argc, argv, i, &ck);
		if (used < 0)
			return 2;
		if (used) {
			i += used - 1;
		} else if ((!strcmp(argv[i], "--commands") || !strcmp(argv[i], "-x")) &&
		           i + 1 < argc) {
			commands_file = argv[++i];
		} else {
			fprintf(stderr, "dalic debug: unknown option '%s' (see dalic help debug)\n",
			        argv[i]);
			return 2;
		}
	}
	if (ck.save) {
		fprintf(stderr, "dalic debug: --save-checkpoint is for dalic run; here `checkpoint "
		                "save FILE` writes one\n");
		return 2;
	}
	dalic_cli_ckpt_override(&ck, &o.override);
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(&o, &p);
	repl_t r = {0};
	dalic_cli_feed_t *feeds = NULL;
	if (!rc) {
		rc = dalic_debug_open(p, &r.s);
		if (!rc && (dalic_cli_feeds_open(o.feeds, o.num_feeds,
		                                 dalic_pipeline_params(p)->batch_size, &feeds) ||
		            dalic_cli_feeds_attach_debug(feeds, r.s))) {
			dalic_pipeline_destroy(p);
			dalic_debug_close(r.s);
			dalic_cli_feeds_close(feeds);
			return 1; /* printed */
		}
		dalic_pipeline_destroy(p);
		if (!rc && dalic_cli_ckpt_open_debug(&ck, r.s)) {
			dalic_debug_close(r.s);
			dalic_cli_feeds_close(feeds);
			return 1; /* printed */
		}
	}
	if (rc) {
		dalic_cli_error(rc);
		return 1;
	}
	struct sigaction sa = {.sa_handler = debug_on_sigint, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	bool tty = isatty(STDIN_FILENO);
	printf("dalic debug: %s, %d operators; type help for commands\n", o.path,
	       dalic_debug_num_ops(r.s));
	dalic_cli_debug_show_position(r.s);
	int bad = 0;
	if (commands_file) {
		FILE *f = fopen(commands_file, "r");
		if (!f) {
			fprintf(stderr, "dalic debug: cannot open %s\n", commands_file);
			dalic_debug_close(r.s);
			dalic_cli_feeds_close(feeds);
			return 2;
		}
		bad += debug_run_stream(&r, f, false, true);
		fclose(f);
	}
	if (!r.quit)
		bad += debug_run_stream(&r, stdin, tty, !tty);
	interrupt_target = NULL;
	signal(SIGINT, SIG_DFL);
	dalic_debug_close(r.s);
	dalic_cli_feeds_close(feeds);
	return bad && (!tty || commands_file) ? 1 : 0;
}

DALIC_COMMAND(debug) = {
    .name = "debug",
    .summary = "debug mode: step operators and iterations, break, inspect any node",
    .usage = "usage: dalic debug PIPELINE [--commands FILE] [--checkpoint FILE] [--at N]\n"
             "                  [pipeline flags]\n"
             "  Runs the pipeline eagerly, one operator at a time, on a gdb-like line\n"
             "  interface. Commands come from the terminal, from stdin when it is not a\n"
             "  terminal, or from FILE first (-x FILE). Type help inside for the commands:\n"
             "  step, next, iter, continue, break OP | break iter N, cond EXPR, delete,\n"
             "  print NODE[i][slice], info graph|node|stats|break|error|perf, save NODE[i]\n"
             "  FILE, restart, goto N, checkpoint save|load FILE, help, quit.\n",
    .pipeline_flags = true,
    .main = debug_main,
};
