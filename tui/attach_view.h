/* The workbench attached to a live process's stats socket, read-only (attach_view.c). */
#ifndef DALIC_TUI_ATTACH_VIEW_H
#define DALIC_TUI_ATTACH_VIEW_H

#include "tui/tui.h"

/* Shows the snapshots served on the Unix socket `path`; with keys (a script, "-": stdin) and
 * dump, headless at w x h, writing dump/screen-NNN.txt; else on the terminal. Returns the
 * exit status. */
int dalic_tui_attach_view(const char *path, const char *keys, const char *dump, int w, int h);

#endif
