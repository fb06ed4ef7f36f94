/*
 * Key names (keys.h). Names are matched case-sensitively except for the bracketed special
 * names, which accept any case so "<tab>" in a key script works too.
 */
#include "tui/keys.h"

#include "tui/screen.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
	int key;
	const char *name, *label;
} special[] = {
    {TUI_KEY_UP, "<Up>", "\xe2\x86\x91"},
    {TUI_KEY_DOWN, "<Down>", "\xe2\x86\x93"},
    {TUI_KEY_LEFT, "<Left>", "\xe2\x86\x90"},
    {TUI_KEY_RIGHT, "<Right>", "\xe2\x86\x92"},
    {TUI_KEY_TAB, "<Tab>", "Tab"},
    {TUI_KEY_BTAB, "<S-Tab>", "S-Tab"},
    {TUI_KEY_ENTER, "<Enter>", "Enter"},
    {TUI_KEY_ESC, "<Esc>", "Esc"},
    {TUI_KEY_BACKSPACE, "<Backspace>", "BkSp"},
    {TUI_KEY_PGUP, "<PgUp>", "PgUp"},
    {TUI_KEY_PGDN, "<PgDn>", "PgDn"},
    {TUI_KEY_HOME, "<Home>", "Home"},
    {TUI_KEY_END, "<End>", "End"},
    {TUI_KEY_RESIZE, "<Resize>", "Resize"},
    {' ', "<Space>", "Spc"},
};

int dalic_tui_key_parse(const char *name)
{
	if (!name || !*name)
		return TUI_KEY_NONE;
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		if (!strcasecmp(name, special[i].name))
			return special[i].key;
	int n;
	if ((sscanf(name, "<F%d>", &n) == 1 || sscanf(name, "<f%d>", &n) == 1) && n >= 1 && n <= 10)
		return TUI_KEY_F(n);
	uint32_t cp;
	int used = dalic_tui_utf8_decode(name, &cp);
	if (!name[used] && cp >= 0x20)
		return (int)cp;
	return TUI_KEY_NONE;
}

const char *dalic_tui_key_name(int key, char buf[8])
{
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		if (special[i].key == key)
			return special[i].name;
	if (key >= TUI_KEY_F1 && key <= TUI_KEY_F10) {
		snprintf(buf, 8, "<F%d>", key - TUI_KEY_F1 + 1);
		return buf;
	}
	if (key > 0 && key < TUI_KEY_SPECIAL) {
		buf[dalic_tui_utf8_encode((uint32_t)key, buf)] = 0;
		return buf;
	}
	return "?";
}

const char *dalic_tui_key_label(int key, char buf[8])
{
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		if (special[i].key == key)
			return special[i].label;
	if (key >= TUI_KEY_F1 && key <= TUI_KEY_F10) {
		snprintf(buf, 8, "F%d", key - TUI_KEY_F1 + 1);
		return buf;
	}
	return dalic_tui_key_name(key, buf);
}
