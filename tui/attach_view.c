/*
 * `dalic tui --attach PATH`: the workbench on a live process that serves its stats snapshots
 * (dalic_stats_serve, DALIC_STATS_SOCKET; docs/profiling.md), read-only. It draws what a
 * snapshot carries — OPERATORS, QUEUES with the workers, TRENDS — under a banner saying it is
 * attached; the keys that step or change a pipeline say they are unavailable, since the
 * pipeline belongs to the other process. `m` marks the memory counters and `M` shows what grew
 * since the mark per operator (stats/growth.h). Headless with --keys/--dump like the ranks
 * view; `wait snapshot` in a script waits for the next snapshot.
 */
#include "tui/attach_view.h"

#include "cli/attach_client.h"
#include "dalic_stats.h"
#include "stats/growth.h"
#include "tui/attach_draw.h"
#include "tui/keys.h"
#include "tui/term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ATTACH_WAIT_MS 10000 /* the first snapshot, or `wait snapshot`: longer is an error */

/* Takes one line of the socket into v->env. 1: new snapshot; 0: none (or process ended);
 * -1: error (printed). */
static int attach_take_line(tui_attach_t *v, int wait_ms)
{
	if (v->ended)
		return 0;
	char *line = NULL;
	int got = dalic_attach_read_line(v->fd, &v->reader, wait_ms, &line);
	if (got == -2)
		return 0;
	if (got == 0) {
		v->ended = true;
		return 0;
	}
	if (got < 0)
		return -1;
	cJSON *env = cJSON_Parse(line);
	free(line);
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(env, "attach_version");
	if (!cJSON_IsNumber(ver) || ver->valueint != DALIC_STATS_ATTACH_VERSION ||
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(env, "stats"))) {
		cJSON_Delete(env);
		fprintf(stderr, "dalic tui: '%s' sent something that is not a dalic stats snapshot "
		                "(attach version %d)\n", v->path, DALIC_STATS_ATTACH_VERSION);
		return -1;
	}
	cJSON_Delete(v->env);
	v->env = env;
	return 1;
}

/* Every snapshot already sent; the newest stays. */
static int attach_drain(tui_attach_t *v)
{
	int rc;
	while ((rc = attach_take_line(v, 0)) > 0)
		;
	return rc < 0 ? -1 : 0;
}

/* The next snapshot, waiting for it. */
static int attach_wait_snapshot(tui_attach_t *v)
{
	if (attach_drain(v))
		return -1;
	int rc = attach_take_line(v, ATTACH_WAIT_MS);
	if (rc == 0 && !v->ended) {
		fprintf(stderr, "dalic tui: no snapshot from '%s' for %d s\n", v->path,
		        ATTACH_WAIT_MS / 1000);
		return -1;
	}
	return rc < 0 ? -1 : 0;
}

static void attach_mark(tui_attach_t *v)
{
	dalic_growth_free(&v->mark);
	v->marked = !dalic_growth_mark(cJSON_GetObjectItemCaseSensitive(v->env, "stats"), &v->mark);
	v->mark_seq = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v->env, "seq"));
	snprintf(v->msg, sizeof v->msg, v->marked ? "marked at snapshot %ld: M shows what grew since"
	                                          : "cannot mark: snapshot %ld has no operators",
	         v->mark_seq);
}

/* A key: false when it quits. */
static bool attach_key(tui_attach_t *v, int key)
{
	char name[8];
	v->msg[0] = 0;
	if (key == 'q' || key == TUI_KEY_ESC)
		return false;
	if (key == 'm') {
		attach_mark(v);
	} else if (key == 'M') {
		if (v->marked)
			v->since = !v->since;
		else
			snprintf(v->msg, sizeof v->msg, "no mark yet: m marks the memory counters");
	} else {
		snprintf(v->msg, sizeof v->msg,
		         "%s: unavailable, attached read-only (the pipeline runs in pid %ld)",
		         dalic_tui_key_name(key, name), v->pid);
	}
	return true;
}

static int attach_dump(tui_attach_t *v, const char *dir, int *dumps)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/screen-%03d.txt", dir, ++*dumps);
	FILE *f = fopen(path, "w");
	int rc = f ? dalic_tui_screen_dump(&v->screen, f) : -1;
	if (f && fclose(f))
		rc = -1;
	if (rc)
		fprintf(stderr, "dalic tui: cannot write %s: %s\n", path, strerror(errno));
	return rc ? 1 : 0;
}

/* Headless: one key, `dump` or `wait snapshot` per line of the script. */
static int attach_headless(tui_attach_t *v, const char *keys, const char *dump)
{
	FILE *f = strcmp(keys, "-") ? fopen(keys, "r") : stdin;
	if (!f || (mkdir(dump, 0777) && errno != EEXIST)) {
		fprintf(stderr, "dalic tui: cannot open %s / create %s\n", keys, dump);
		if (f && f != stdin)
			fclose(f);
		return 2;
	}
	char line[256];
	int dumps = 0, rc = 0;
	bool going = true;
	while (!rc && going && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (!strcmp(line, "wait snapshot")) {
			rc = attach_wait_snapshot(v) ? 1 : 0;
			continue;
		}
		if (attach_drain(v)) {
			rc = 1;
			break;
		}
		dalic_tui_attach_draw(v);
		if (!strcmp(line, "dump")) {
			rc = attach_dump(v, dump, &dumps);
			continue;
		}
		int key = dalic_tui_key_parse(line);
		if (key == TUI_KEY_NONE) {
			fprintf(stderr, "dalic tui: %s: '%s' is no key of the attached view\n", keys,
			        line);
			rc = 2;
		} else {
			going = attach_key(v, key);
		}
	}
	if (f != stdin)
		fclose(f);
	return rc;
}

static int attach_terminal(tui_attach_t *v)
{
	if (dalic_tui_term_start() < 0) {
		fprintf(stderr, "dalic tui: needs a terminal (headless: --keys FILE --dump DIR)\n");
		return 2;
	}
	int w, h, rc = 0;
	bool going = true;
	while (going && !rc && !dalic_tui_term_interrupted()) {
		dalic_tui_term_size(&w, &h);
		if ((w != v->screen.w || h != v->screen.h) && !dalic_tui_screen_resize(&v->screen, w, h))
			break;
		rc = attach_drain(v);
		dalic_tui_attach_draw(v);
		dalic_tui_term_present(&v->screen);
		int key = dalic_tui_term_key(TUI_FRAME_MS * 4);
		if (key != TUI_KEY_NONE && key != TUI_KEY_RESIZE)
			going = attach_key(v, key);
	}
	dalic_tui_term_stop();
	return rc ? 1 : 0;
}

int dalic_tui_attach_view(const char *path, const char *keys, const char *dump, int w, int h)
{
	tui_attach_t v = {.path = path, .fd = dalic_attach_connect(path)};
	if (v.fd < 0)
		return 1;
	int rc = 1;
	if (!dalic_tui_screen_resize(&v.screen, w, h)) {
		fprintf(stderr, "dalic tui: out of memory\n");
	} else if (attach_take_line(&v, ATTACH_WAIT_MS) <= 0) {
		if (!v.env)
			fprintf(stderr, "dalic tui: no snapshot from '%s'\n", path);
	} else {
		v.pid = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v.env, "pid"));
		rc = keys ? attach_headless(&v, keys, dump) : attach_terminal(&v);
	}
	dalic_growth_free(&v.mark);
	dalic_tui_screen_free(&v.screen);
	dalic_attach_reader_free(&v.reader);
	cJSON_Delete(v.env);
	close(v.fd);
	return rc;
}
