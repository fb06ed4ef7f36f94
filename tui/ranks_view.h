/* The ranks view of the workbench: a merged statistics directory, read-only (ranks_view.c). */
#ifndef DALIC_TUI_RANKS_VIEW_H
#define DALIC_TUI_RANKS_VIEW_H

#include "tui/tui.h"

/* Shows the stats-rank-N.json of dir; with keys (a script, "-": stdin) and dump, headless at
 * w x h, writing dump/screen-NNN.txt; else on the terminal. Returns the exit status. */
int dalic_tui_ranks_view(const char *dir, const char *keys, const char *dump, int w, int h);

#endif
