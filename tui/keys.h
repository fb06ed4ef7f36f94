/*
 * Keys as the workbench sees them: a printable key is its Unicode code point; special keys
 * are values above the Unicode range. The same names ("<Tab>", "<Down>", "<F1>") are used by
 * key scripts, the help screen and the key bar, so there is one spelling of every key.
 */
#ifndef DALIC_TUI_KEYS_H
#define DALIC_TUI_KEYS_H

#include <stdbool.h>

enum {
	TUI_KEY_NONE = 0,
	TUI_KEY_SPECIAL = 0x110000,
	TUI_KEY_UP,
	TUI_KEY_DOWN,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_TAB,
	TUI_KEY_BTAB,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_BACKSPACE,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_RESIZE,
	TUI_KEY_F1,
	TUI_KEY_F10 = TUI_KEY_F1 + 9,
};

#define TUI_KEY_F(n) (TUI_KEY_F1 + (n)-1)

/* "<Tab>", "<F1>", "<Space>", "q" ... -> key; TUI_KEY_NONE if the text names no key. */
int dalic_tui_key_parse(const char *name);
/* Name of a key for help and scripts: "q", "<Tab>", "<Space>". Static or in buf (>= 8). */
const char *dalic_tui_key_name(int key, char buf[8]);
/* Short label for the key bar: "Tab", "Spc", "F1", "q". */
const char *dalic_tui_key_label(int key, char buf[8]);

#endif
