/*
 * The curses backend: puts a finished cell grid on the terminal, reads keys, and guarantees
 * the terminal is restored on every way out — normal exit (atexit), SIGINT / SIGTERM / SIGHUP
 * (a flag the main loop polls, so the pipeline is shut down cleanly; a second signal exits at
 * once), and crashes (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL: endwin, a message, then the
 * signal is re-raised with its default action so the exit status and core dump stay true).
 * While the screen is up, stderr goes to /dev/null so stray library messages cannot scribble
 * over it; it is put back before anything is printed on the way out.
 */
#ifndef DALIC_TUI_TERM_H
#define DALIC_TUI_TERM_H

#include "tui/screen.h"

/* Initializes curses on the controlling terminal. Returns the palette size to use (0, 8, 16
 * or 256), or -1 when stdin/stdout is not a terminal. */
int dalic_tui_term_start(void);
/* Restores the terminal. Safe to call more than once. */
void dalic_tui_term_stop(void);
void dalic_tui_term_size(int *w, int *h);
/* Draws the grid (curses sends only what changed). */
void dalic_tui_term_present(const tui_screen_t *s);
/* Next key, waiting at most timeout_ms (0: poll); TUI_KEY_NONE if none. */
int dalic_tui_term_key(int timeout_ms);
/* The SIGINT, SIGTERM or SIGHUP that arrived, or 0. */
int dalic_tui_term_interrupted(void);

#endif
