/*
 * Entry points of the workbench, called by `dalic tui` (cli/cmd_tui.c): the interactive
 * curses loop, and the headless driver that runs a key script against an in-memory screen
 * and writes text dumps for tests. Both start the runner thread on the pipeline and draw the
 * same widgets at the same refresh rate.
 */
#ifndef DALIC_TUI_TUI_H
#define DALIC_TUI_TUI_H

#include "dalic.h"

/* Frame interval: 20 screen updates a second while anything changes. */
#define TUI_FRAME_MS 50

typedef struct tui_options {
	const char *path;     /* PIPELINE: script (.py), serialized (.pb) or @sample; borrowed */
	const char *pipeline; /* which pipeline of a script, or NULL */
	bool debug;           /* start in the debug engine */
	dalic_pipeline_override_t override; /* parameters given on the command line */
	const char *keys;  /* headless: key script path ("-" = stdin) */
	const char *dump;  /* headless: directory for screen-NNN.txt */
	int width, height; /* headless screen size, default 100 x 30 */
	bool run;          /* start running at once */
	bool trace;        /* record trace events from the start */
	const char *const *feeds; /* --feed NAME=PATH (cli/feed.h); borrowed */
	int num_feeds;
	const char *checkpoint; /* --checkpoint FILE: open at a DALI checkpoint; borrowed */
	long at;                /* --at N: open at iteration N (-1: not given) */
} tui_options_t;

/* Interactive workbench; returns the process exit status. */
int dalic_tui_run_terminal(const tui_options_t *o);
/* Headless: runs the key script, writes dumps, prints a summary line (frames per second,
 * iterations, samples per second) on stdout. Returns the exit status (2: bad script). */
int dalic_tui_run_headless(const tui_options_t *o);

#endif
