/*
 * Headless driver (tui.h): the workbench without a terminal, for tests and benchmarks.
 * A key script has one entry per line:
 *
 *   q  s  <Tab>  <Down>  <Space>  <F1>    a key (one character, or a <Name>)
 *   step-op  run  help ...               a command by its table name
 *   type cpu=2,gpu=3                     each character as a key (prompts)
 *   wait 200ms | wait 2s                 keep drawing frames for that long
 *   wait iteration N                     ... until N iterations are done (60 s at most)
 *   wait idle                            ... until the runner is paused with nothing queued
 *   resize 80x24                         change the screen size
 *   dump                                 write DIR/screen-NNN.txt (001, 002, ...)
 *   # comment, blank lines               ignored
 *
 * After each key the driver waits until the runner has finished the command it posted, so a
 * dump after `n` always shows the stepped iteration. Frames are drawn every TUI_FRAME_MS
 * while waiting, exactly as in the terminal, so frame rate and overhead measured here are the
 * interactive ones. The summary line printed at the end is for benchmarks.
 */
#include "tui/tui.h"

#include "tui/app.h"
#include "tui/keys.h"
#include "tui/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define SETTLE_MS 60000

typedef struct driver {
	tui_app_t app;
	const tui_options_t *o;
	int dumps;
	double start, draw_total, draw_max;
	double last_frame;
} driver_t;

static void headless_frame(driver_t *d)
{
	double t0 = dalic_tui_now();
	dalic_tui_app_refresh(&d->app);
	dalic_tui_app_draw(&d->app);
	double dt = dalic_tui_now() - t0;
	d->draw_total += dt;
	if (dt > d->draw_max)
		d->draw_max = dt;
	d->last_frame = t0;
}

/* Waits for everything posted so far; drawing may post a new selection, so repeat. */
static void headless_settle(driver_t *d)
{
	for (int round = 0; round < 4; round++) {
		uint64_t seq = dalic_tui_app_last_seq();
		if (seq && !dalic_tui_runner_wait(d->app.runner, seq, SETTLE_MS))
			fprintf(stderr, "dalic tui: the runner did not finish a command in %d s\n",
			        SETTLE_MS / 1000);
		headless_frame(d);
		if (dalic_tui_app_last_seq() == seq)
			return;
	}
}

/* Draws frames on schedule until `until` returns true or `seconds` pass. */
static bool headless_pump(driver_t *d, double seconds, bool (*until)(driver_t *, long), long arg)
{
	double end = dalic_tui_now() + seconds;
	for (;;) {
		double t = dalic_tui_now();
		if (t - d->last_frame >= TUI_FRAME_MS / 1000.0)
			headless_frame(d);
		if (until && until(d, arg))
			return true;
		if (t >= end)
			return !until;
		double next = d->last_frame + TUI_FRAME_MS / 1000.0 - dalic_tui_now();
		if (until && next > 0.005)
			next = 0.005;
		if (next > 0)
			nanosleep(&(struct timespec){0, (long)(next * 1e9)}, NULL);
	}
}

static bool headless_iterations_done(driver_t *d, long n)
{
	tui_model_t *m = dalic_tui_runner_model(d->app.runner);
	/* also done when nothing will change any more: an error, the end, or paused and idle */
	bool done = m->iterations_done >= n || m->error.set || m->ended ||
	            (!m->running && dalic_tui_runner_wait_idle(d->app.runner, 0));
	dalic_tui_model_unref(m);
	return done;
}

static int headless_dump(driver_t *d)
{
	headless_settle(d);
	char path[1024];
	snprintf(path, sizeof path, "%s/screen-%03d.txt", d->o->dump, ++d->dumps);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "dalic tui: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = dalic_tui_screen_dump(&d->app.screen, f);
	return fclose(f) || rc ? -1 : 0;
}

static bool headless_parse_duration(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || v < 0)
		return false;
	if (!strcmp(end, "ms"))
		*out = v / 1000;
	else if (!strcmp(end, "s") || !*end)
		*out = v;
	else
		return false;
	return true;
}

/* One script line. Returns 0, 1 to stop (quit), or -1 for a bad line. */
static int headless_step(driver_t *d, char *line, int lineno)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	char *s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || (*s == '#' && s[1] != 0))
		return 0;
	unsigned flags = 0;
	double secs;
	long count;
	int w, h;
	if (!strcmp(s, "dump"))
		return headless_dump(d) ? -1 : 0;
	if (!strncmp(s, "wait ", 5)) {
		const char *arg = s + 5;
		if (!strcmp(arg, "idle")) {
			dalic_tui_runner_wait_idle(d->app.runner, SETTLE_MS);
			headless_frame(d);
		} else if (sscanf(arg, "iteration %ld", &count) == 1) {
			if (!headless_pump(d, SETTLE_MS / 1000.0, headless_iterations_done, count))
				fprintf(stderr, "dalic tui: line %d: still waiting after %d s\n",
				        lineno, SETTLE_MS / 1000);
		} else if (headless_parse_duration(arg, &secs)) {
			headless_pump(d, secs, NULL, 0);
		} else {
			fprintf(stderr, "dalic tui: line %d: wait what? '%s'\n", lineno, arg);
			return -1;
		}
		return 0;
	}
	if (sscanf(s, "resize %dx%d", &w, &h) == 2 && w > 0 && h > 0) {
		dalic_tui_screen_resize(&d->app.screen, w, h);
		dalic_tui_app_key(&d->app, TUI_KEY_RESIZE);
		headless_settle(d);
		return 0;
	}
	if (!strncmp(s, "type ", 5)) {
		for (const char *p = s + 5; *p && !(flags & TUI_QUIT);) {
			uint32_t cp;
			p += dalic_tui_utf8_decode(p, &cp);
			flags |= dalic_tui_app_key(&d->app, (int)cp);
		}
	} else {
		int key = dalic_tui_key_parse(s);
		if (key != TUI_KEY_NONE)
			flags = dalic_tui_app_key(&d->app, key);
		else if (!(flags = dalic_tui_app_command(&d->app, s))) {
			fprintf(stderr, "dalic tui: line %d: no key or command '%s'\n", lineno, s);
			return -1;
		}
	}
	if (flags & TUI_QUIT)
		return 1;
	headless_settle(d);
	return 0;
}

int dalic_tui_run_headless(const tui_options_t *o)
{
	FILE *script = !strcmp(o->keys, "-") ? stdin : fopen(o->keys, "r");
	if (!script) {
		fprintf(stderr, "dalic tui: cannot read %s: %s\n", o->keys, strerror(errno));
		return 2;
	}
	if (mkdir(o->dump, 0777) && errno != EEXIST) {
		fprintf(stderr, "dalic tui: cannot create %s: %s\n", o->dump, strerror(errno));
		if (script != stdin)
			fclose(script);
		return 2;
	}
	tui_runner_t *runner;
	if (dalic_tui_runner_start(o, &runner)) {
		if (script != stdin)
			fclose(script);
		return 1;
	}
	driver_t d = {.o = o};
	if (dalic_tui_app_init(&d.app, runner, o->width, o->height, 0, true)) {
		dalic_tui_runner_stop(runner);
		if (script != stdin)
			fclose(script);
		return 1;
	}
	d.start = dalic_tui_now();
	/* the first model: the pipeline loaded (or failed to) */
	dalic_tui_runner_wait_idle(runner, SETTLE_MS);
	headless_settle(&d);
	if (o->run) {
		dalic_tui_app_command(&d.app, "run");
		headless_settle(&d);
	}
	char *line = NULL; /* lines of any length: a long one must not become two */
	size_t cap = 0;
	int lineno = 0, rc = 0;
	while (getline(&line, &cap, script) >= 0) {
		int r = headless_step(&d, line, ++lineno);
		if (r < 0)
			rc = 2;
		if (r)
			break;
	}
	if (ferror(script)) {
		fprintf(stderr, "dalic tui: reading %s: %s\n", o->keys, strerror(errno));
		rc = 2;
	}
	free(line);
	if (script != stdin)
		fclose(script);
	double secs = dalic_tui_now() - d.start;
	tui_model_t *m = dalic_tui_runner_model(runner);
	printf("frames %llu in %.2f s (%.1f per second), draw mean %.2f ms max %.2f ms, "
	       "iterations %lld, samples_per_second %.1f (running %.2f s)\n",
	       (unsigned long long)d.app.frames, secs, secs > 0 ? (double)d.app.frames / secs : 0,
	       d.app.frames ? d.draw_total * 1e3 / (double)d.app.frames : 0, d.draw_max * 1e3,
	       (long long)m->iterations_done,
	       m->run_seconds > 0 ? (double)m->run_samples / m->run_seconds : 0, m->run_seconds);
	dalic_tui_model_unref(m);
	dalic_tui_runner_stop(runner);
	dalic_tui_app_free(&d.app);
	return rc;
}
