/* State and panes of the attached view (tui/attach_view.c, tui/attach_draw.c). */
#ifndef DALIC_TUI_ATTACH_DRAW_H
#define DALIC_TUI_ATTACH_DRAW_H

#include "cli/attach_client.h"
#include "stats/growth.h"
#include "tui/screen.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

typedef struct tui_attach {
	const char *path;
	int fd;
	dalic_attach_reader_t reader;
	cJSON *env; /* the newest snapshot: {"attach_version", "pid", "seq", "stats"} */
	long pid;
	bool ended; /* the process closed the socket: the last snapshot stays */
	dalic_growth_t mark;
	bool marked, since; /* since: the SINCE MARK pane replaces OPERATORS */
	long mark_seq;
	char msg[200]; /* the status line's answer to the last key */
	tui_screen_t screen;
} tui_attach_t;

void dalic_tui_attach_draw(tui_attach_t *v);

#endif
