/*
 * The command table: the single list of everything a user can do in the workbench. Each
 * entry gives the command's script name, its keys, its key-bar label (if it has one), its
 * help text and its handler — the key dispatcher, the key bar, the help screen and the
 * headless key scripts all read this table, so they cannot disagree (tig's request table).
 */
#ifndef DALIC_TUI_COMMANDS_H
#define DALIC_TUI_COMMANDS_H

#include "tui/app.h"

#define TUI_COMMAND_KEYS 4

typedef struct tui_command {
	const char *name;           /* for key scripts: "step-op" */
	const char *section;        /* help screen heading */
	int keys[TUI_COMMAND_KEYS]; /* first one is shown in the key bar; 0-terminated */
	const char *bar;            /* key-bar label, NULL: help screen only */
	const char *help;
	unsigned (*run)(tui_app_t *app, int key);
} tui_command_t;

extern const tui_command_t tui_commands[];
extern const int tui_num_commands;

const tui_command_t *dalic_tui_command_by_key(int key);
const tui_command_t *dalic_tui_command_by_name(const char *name);

#endif
