/*
 * ncursesw backend and terminal restoration (term.h). Colours are allocated as pairs on
 * demand with alloc_pair (ncurses >= 6.1), so chafa's 256-colour thumbnails and the theme
 * share one pool without a fixed table.
 */
#include "tui/term.h"

#include "tui/keys.h"

#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t active;      /* curses is up */
static volatile sig_atomic_t interrupted; /* SIGINT / SIGTERM / SIGHUP seen: its number */
static int saved_stderr = -1;
static int colors;

static const int crash_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Terminal back to normal; used from signal handlers too, so it touches only what it must. */
static void term_restore(void)
{
	if (active) {
		active = 0;
		endwin();
	}
	if (saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
}

static void term_write_err(const char *s)
{
	ssize_t n = write(STDERR_FILENO, s, strlen(s));
	(void)n;
}

static void term_on_crash(int sig)
{
	term_restore();
	term_write_err("dalic tui: crashed (");
	term_write_err(sig == SIGSEGV   ? "SIGSEGV"
	               : sig == SIGABRT ? "SIGABRT"
	               : sig == SIGBUS  ? "SIGBUS"
	               : sig == SIGFPE  ? "SIGFPE"
	                                : "SIGILL");
	term_write_err("); the terminal was restored\n");
	signal(sig, SIG_DFL);
	raise(sig);
}

static void term_on_quit(int sig)
{
	if (interrupted) { /* second signal: the clean path is stuck, leave now */
		term_restore();
		_exit(128 + sig);
	}
	interrupted = sig;
}

static void term_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = term_on_crash;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
		sigaction(crash_signals[i], &sa, NULL);
	sa.sa_handler = term_on_quit;
	sa.sa_flags = 0;
	for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
		sigaction(quit_signals[i], &sa, NULL);
}

static void term_uninstall(void)
{
	for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
		signal(crash_signals[i], SIG_DFL);
	for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
		signal(quit_signals[i], SIG_DFL);
}

int dalic_tui_term_start(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -1;
	static bool registered;
	if (!registered) {
		atexit(term_restore);
		registered = true;
	}
	term_install();
	if (!initscr()) {
		term_uninstall();
		return -1;
	}
	active = 1;
	cbreak(); /* not raw(): Ctrl-C stays a signal and takes the clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	colors = 0;
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		colors = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : COLORS >= 8 ? 8 : 0;
	}
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		saved_stderr = dup(STDERR_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	return colors;
}

void dalic_tui_term_stop(void)
{
	term_restore();
	term_uninstall();
}

int dalic_tui_term_interrupted(void)
{
	return interrupted;
}

void dalic_tui_term_size(int *w, int *h)
{
	int y, x;
	getmaxyx(stdscr, y, x);
	*w = x;
	*h = y;
}

static int term_pair_for(tui_style_t st)
{
	if (!colors || (st.fg < 0 && st.bg < 0))
		return 0;
	int fg = st.fg < colors ? st.fg : -1, bg = st.bg < colors ? st.bg : -1;
	int pair = alloc_pair(fg, bg);
	return pair < 0 ? 0 : pair;
}

void dalic_tui_term_present(const tui_screen_t *s)
{
	int w, h;
	dalic_tui_term_size(&w, &h);
	for (int y = 0; y < s->h && y < h; y++)
		for (int x = 0; x < s->w && x < w; x++) {
			const tui_cell_t *c = &s->cells[y * s->w + x];
			attr_t a = 0;
			if (c->st.attr & TUI_BOLD)
				a |= A_BOLD;
			if (c->st.attr & TUI_REVERSE)
				a |= A_REVERSE;
			if (c->st.attr & TUI_UNDERLINE)
				a |= A_UNDERLINE;
			if (c->st.attr & TUI_DIM)
				a |= A_DIM;
			/* without colour, what has a background (status line, headers) is reversed
			 */
			if (!colors && c->st.bg >= 0)
				a |= A_REVERSE;
			int pair = term_pair_for(c->st);
			wchar_t wc[2] = {(wchar_t)c->ch, 0};
			cchar_t cc;
			setcchar(&cc, wc, a, 0, &pair);
			mvadd_wch(y, x, &cc);
		}
	refresh();
}

int dalic_tui_term_key(int timeout_ms)
{
	timeout(timeout_ms);
	wint_t wc;
	int r = get_wch(&wc);
	if (r == ERR)
		return TUI_KEY_NONE;
	if (r == KEY_CODE_YES) {
		switch (wc) {
		case KEY_UP:
			return TUI_KEY_UP;
		case KEY_DOWN:
			return TUI_KEY_DOWN;
		case KEY_LEFT:
			return TUI_KEY_LEFT;
		case KEY_RIGHT:
			return TUI_KEY_RIGHT;
		case KEY_BTAB:
			return TUI_KEY_BTAB;
		case KEY_ENTER:
			return TUI_KEY_ENTER;
		case KEY_BACKSPACE:
			return TUI_KEY_BACKSPACE;
		case KEY_PPAGE:
			return TUI_KEY_PGUP;
		case KEY_NPAGE:
			return TUI_KEY_PGDN;
		case KEY_HOME:
			return TUI_KEY_HOME;
		case KEY_END:
			return TUI_KEY_END;
		case KEY_RESIZE:
			return TUI_KEY_RESIZE;
		default:
			if (wc >= KEY_F(1) && wc <= KEY_F(10))
				return TUI_KEY_F(wc - KEY_F0);
			return TUI_KEY_NONE;
		}
	}
	switch (wc) {
	case '\t':
		return TUI_KEY_TAB;
	case '\n':
	case '\r':
		return TUI_KEY_ENTER;
	case 27:
		return TUI_KEY_ESC;
	case 8:
	case 127:
		return TUI_KEY_BACKSPACE;
	default:
		return wc >= 0x20 ? (int)wc : TUI_KEY_NONE;
	}
}
