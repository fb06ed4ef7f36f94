/*
 * Style table (theme.h). Colour numbers are the curses/ANSI palette: 0 black, 1 red, 2 green,
 * 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white; -1 is the terminal's default.
 */
#include "tui/theme.h"

static const tui_style_t styles[TUI_S_COUNT] = {
    [TUI_S_NORMAL] = {-1, -1, 0},
    [TUI_S_DIM] = {-1, -1, TUI_DIM},
    [TUI_S_BORDER] = {-1, -1, 0},
    [TUI_S_BORDER_FOCUS] = {6, -1, TUI_BOLD},
    [TUI_S_HEADER] = {0, 6, 0},
    [TUI_S_SELECTED] = {0, 7, TUI_REVERSE},
    [TUI_S_STAGE_CPU] = {4, -1, TUI_BOLD},
    [TUI_S_STAGE_MIXED] = {6, -1, TUI_BOLD},
    [TUI_S_STAGE_GPU] = {2, -1, TUI_BOLD},
    [TUI_S_EXECUTING] = {3, -1, TUI_BOLD},
    [TUI_S_ERROR] = {1, -1, TUI_BOLD},
    [TUI_S_WARN] = {3, -1, TUI_BOLD},
    [TUI_S_ALERT] = {7, 1, TUI_BOLD},
    [TUI_S_GOOD] = {2, -1, 0},
    [TUI_S_STATUS] = {0, 6, 0},
    [TUI_S_KEY] = {-1, -1, TUI_BOLD},
    [TUI_S_KEYLABEL] = {0, 6, 0},
    [TUI_S_EDGE] = {-1, -1, 0},
    [TUI_S_BAR] = {2, -1, 0},
};

tui_style_t dalic_tui_style(tui_style_id_t id)
{
	return (unsigned)id < TUI_S_COUNT ? styles[id] : styles[TUI_S_NORMAL];
}

tui_style_t dalic_tui_stage_style(int stage)
{
	static const tui_style_id_t by_stage[] = {TUI_S_STAGE_CPU, TUI_S_STAGE_MIXED,
	                                          TUI_S_STAGE_GPU};
	return dalic_tui_style(stage >= 0 && stage < 3 ? by_stage[stage] : TUI_S_NORMAL);
}
