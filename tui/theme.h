/*
 * The workbench's styles, by meaning: every pane asks for "the style of a gpu operator" or
 * "an error", never for a colour, so a monochrome terminal (and the headless text dump) loses
 * only colour and keeps the attributes and glyphs that carry the same information.
 * Stage colours follow the DOT export: cpu blue, mixed cyan, gpu green.
 */
#ifndef DALIC_TUI_THEME_H
#define DALIC_TUI_THEME_H

#include "tui/screen.h"

typedef enum {
	TUI_S_NORMAL,
	TUI_S_DIM,
	TUI_S_BORDER,
	TUI_S_BORDER_FOCUS,
	TUI_S_HEADER,   /* table header */
	TUI_S_SELECTED, /* selected row / node */
	TUI_S_STAGE_CPU,
	TUI_S_STAGE_MIXED,
	TUI_S_STAGE_GPU,
	TUI_S_EXECUTING, /* the operator running now / next to run */
	TUI_S_ERROR,
	TUI_S_WARN,
	TUI_S_ALERT, /* the loud DEVICES EMULATED mark */
	TUI_S_GOOD,
	TUI_S_STATUS, /* status line background */
	TUI_S_KEY,    /* key in the key bar */
	TUI_S_KEYLABEL,
	TUI_S_EDGE,
	TUI_S_BAR, /* queue fill bars and sparklines */
	TUI_S_COUNT
} tui_style_id_t;

tui_style_t dalic_tui_style(tui_style_id_t id);
/* The style of an operator box / row of stage 0 cpu, 1 mixed, 2 gpu. */
tui_style_t dalic_tui_stage_style(int stage);

#endif
