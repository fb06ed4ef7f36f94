/*
 * The interactive loop (tui.h): draw a frame from the newest model and snapshot, wait for a
 * key until the next frame is due, dispatch it, repeat — 20 frames a second whatever the
 * pipeline does (it runs on the runner thread), and one at once after a key whose handler
 * returns TUI_REDRAW.
 * Every way out goes through dalic_tui_term_stop() (and term.c's handlers cover the rest).
 */
#include "tui/tui.h"

#include "tui/app.h"
#include "tui/keys.h"
#include "tui/runner.h"
#include "tui/term.h"

#include <stdio.h>
#include <time.h>

int dalic_tui_run_terminal(const tui_options_t *o)
{
	int colors = dalic_tui_term_start();
	if (colors < 0) {
		fprintf(stderr, "dalic tui: needs a terminal (headless: --keys FILE --dump DIR)\n");
		return 2;
	}
	tui_runner_t *runner;
	if (dalic_tui_runner_start(o, &runner)) {
		dalic_tui_term_stop();
		fprintf(stderr, "dalic tui: out of memory\n");
		return 1;
	}
	int w, h;
	dalic_tui_term_size(&w, &h);
	tui_app_t app;
	if (dalic_tui_app_init(&app, runner, w, h, colors, false)) {
		dalic_tui_runner_stop(runner);
		dalic_tui_term_stop();
		fprintf(stderr, "dalic tui: out of memory\n");
		return 1;
	}
	if (o->run)
		dalic_tui_app_command(&app, "run");
	/* A frame every TUI_FRAME_MS, and at once when a key's handler asks for a redraw. */
	bool quit = false, redraw = true;
	double next_frame = 0;
	while (!quit && !dalic_tui_term_interrupted()) {
		double now = dalic_tui_now();
		if (redraw || now >= next_frame) {
			dalic_tui_app_refresh(&app);
			dalic_tui_app_draw(&app);
			dalic_tui_term_present(&app.screen);
			next_frame = now + TUI_FRAME_MS / 1000.0;
			redraw = false;
		}
		int wait_ms = (int)((next_frame - dalic_tui_now()) * 1000);
		int key = dalic_tui_term_key(wait_ms > 0 ? wait_ms : 0);
		if (key == TUI_KEY_NONE)
			continue;
		if (key == TUI_KEY_RESIZE) {
			dalic_tui_term_size(&w, &h);
			dalic_tui_screen_resize(&app.screen, w, h);
		}
		unsigned flags = dalic_tui_app_key(&app, key);
		quit = flags & TUI_QUIT;
		redraw = flags & TUI_REDRAW;
	}
	int sig = dalic_tui_term_interrupted();
	dalic_tui_term_stop();
	dalic_tui_runner_stop(runner);
	dalic_tui_app_free(&app);
	return sig ? 128 + sig : 0; /* a shell's convention for "ended by this signal" */
}
