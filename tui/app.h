/*
 * The workbench's UI state and its widgets. The UI thread owns a tui_app_t: the latest model
 * and stats snapshot (drawn, never modified), the selection, focus, sort order, prompt and
 * caches. Panes are small const "classes" (htop's Panel idea): a name, a draw function that
 * fills a canvas from the app, and an optional key handler for the keys that mean something
 * only in that pane (arrows, Enter). Handlers return TUI_* flags rather than acting on the
 * terminal, so the same code runs under curses and in headless tests.
 */
#ifndef DALIC_TUI_APP_H
#define DALIC_TUI_APP_H

#include "tui/graph_layout.h"
#include "tui/model.h"
#include "tui/runner.h"
#include "tui/screen.h"

enum {
	TUI_HANDLED = 1, /* the key meant something */
	TUI_REDRAW = 2,  /* draw a new frame now */
	TUI_QUIT = 4,
	TUI_SELECT = 8, /* the selection changed: tell the runner what to extract */
};

typedef enum {
	TUI_PANE_GRAPH,
	TUI_PANE_OPS,
	TUI_PANE_QUEUES,
	TUI_PANE_BATCH,
	TUI_PANES
} tui_pane_id_t;

typedef struct tui_app tui_app_t;

typedef struct tui_pane_class {
	const char *title;
	void (*draw)(tui_app_t *app, tui_canvas_t inner);
	unsigned (*key)(tui_app_t *app, int key); /* NULL: no pane-local keys */
} tui_pane_class_t;

extern const tui_pane_class_t tui_pane_graph, tui_pane_ops, tui_pane_queues, tui_pane_batch;

/* Prompts: a one-line editor on the message line; Enter hands the text to `submit`. */
typedef struct tui_prompt {
	bool active;
	char label[96];
	char text[128];
	int len;
	unsigned (*submit)(tui_app_t *app, const char *text);
} tui_prompt_t;

/* Operators table columns (pane_ops.c); the sort order is one of them. */
enum {
	TUI_SORT_ORDER,
	TUI_SORT_MEAN,
	TUI_SORT_P99,
	TUI_SORT_SHARE,
	TUI_SORT_REAL,
	TUI_SORT_RESERVED,
	TUI_SORT_HINT,
	TUI_SORT_ALLOCS,
	TUI_SORT_NAME,
	TUI_SORT_COUNT
};

typedef struct tui_thumb_cache tui_thumb_cache_t;

struct tui_app {
	tui_runner_t *runner;
	tui_model_t *model;            /* latest published, drawn this frame */
	dalic_stats_snapshot_t *stats; /* latest full-engine snapshot, or NULL */
	tui_screen_t screen;
	int colors; /* 0 (monochrome / headless), 8, 16 or 256 */
	bool headless;

	tui_rect_t panes[TUI_PANES]; /* last layout; w == 0: not shown */
	tui_pane_id_t focus;
	bool zoom; /* the focused pane takes the whole body */
	bool help;
	int help_scroll;
	tui_prompt_t prompt;
	char message[256]; /* shown on the message line until the next key */
	bool message_is_error;

	/* selection, by name so it survives rebuilds and engine switches */
	char sel_op[256];
	int sel_output, sel_sample;
	int batch_window; /* samples the batch pane can show */

	int sort, sort_desc; /* operators table */
	int ops_scroll, ops_hscroll;
	int graph_x, graph_y;     /* graph viewport origin in layout cells */
	char graph_followed[256]; /* selection the viewport last scrolled to */
	tui_glayout_t *layout;
	int layout_w, layout_h; /* pane size it was chosen for */
	tui_thumb_cache_t *thumbs;

	char seen_error[1024]; /* last pipeline error the selection jumped to */
	uint64_t frames;
	int64_t prev_runs_total; /* for "executing" marks in the full engine */
	int64_t *prev_runs;
	bool *active; /* per graph node: ran since the previous frame */
	int num_active;
};

/* app.c */
int dalic_tui_app_init(tui_app_t *app, tui_runner_t *runner, int w, int h, int colors,
                       bool headless);
void dalic_tui_app_free(tui_app_t *app);
/* Takes the newest model and stats snapshot (call before drawing). */
void dalic_tui_app_refresh(tui_app_t *app);
/* Lays out and draws one frame into app->screen. */
void dalic_tui_app_draw(tui_app_t *app);
/* Dispatches a key through help, prompt, command table and focused pane. Returns flags. */
unsigned dalic_tui_app_key(tui_app_t *app, int key);
/* Dispatches a command by its table name ("step-op"); TUI_HANDLED if it exists. */
unsigned dalic_tui_app_command(tui_app_t *app, const char *name);
/* Posts the selection to the runner. Returns its sequence number. */
uint64_t dalic_tui_app_post_select(tui_app_t *app);
/* Posts a command and remembers its number (dalic_tui_app_last_seq) for headless waits. */
uint64_t dalic_tui_app_post(tui_app_t *app, const tui_cmd_t *cmd);
uint64_t dalic_tui_app_last_seq(void);
void dalic_tui_app_message(tui_app_t *app, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dalic_tui_app_prompt(tui_app_t *app, const char *label, const char *initial,
                          unsigned (*submit)(tui_app_t *, const char *));
/* Selects graph node index i (by name). */
void dalic_tui_app_select_node(tui_app_t *app, int i);
/* Index of the selected operator in the model's graph, or -1. */
int dalic_tui_app_selected_node(const tui_app_t *app);

/* status.c: status line, message line, key bar */
void dalic_tui_draw_status(tui_app_t *app, tui_canvas_t row);
void dalic_tui_draw_message(tui_app_t *app, tui_canvas_t row);
void dalic_tui_draw_keybar(tui_app_t *app, tui_canvas_t row);
/* help.c */
void dalic_tui_draw_help(tui_app_t *app, tui_canvas_t c);
int dalic_tui_help_lines(void);

#endif
