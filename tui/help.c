/*
 * The help screen: a short guide to the panes, then every command of the command table,
 * grouped by section, with all its keys and its script name — generated, so a command added
 * to the table is documented here automatically.
 */
#include "tui/app.h"

#include "tui/commands.h"
#include "tui/keys.h"
#include "tui/theme.h"

#include <stdio.h>
#include <string.h>

static const char *const guide[] = {
    "",
    "What you are looking at",
    "GRAPH      the pipeline's operators; box colour and bottom label give the stage",
    "           (cpu / mixed / gpu). Double border: selected. \xe2\x96\xb6 executing, "
    "\xe2\x9c\x96 failed.",
    "OPERATORS  per operator: mean / p99 time, share of the work, real and reserved",
    "           memory, suggested bytes_per_sample_hint, allocations. Last line: slowest.",
    "QUEUES     prefetch queue fill now and over time, who waits for whom, the verdict;",
    "           after a change (p + - b t) the numbers before and after, side by side.",
    "BATCH      the selected operator's output this iteration: images or values, with",
    "           shape, min / max / mean and the source file of the selected sample.",
    "",
    "First steps: n runs one iteration, Space keeps running; Tab moves between panes and",
    "the arrows select an operator (GRAPH, OPERATORS) or a sample (BATCH).",
    NULL,
};

typedef struct line {
	char text[256];
	tui_style_id_t style;
} line_t;

/* Builds the help lines: the commands by section first (what help is opened for), then the
 * guide to the panes. Returns how many (at most max). */
static int help_lines(line_t *out, int max)
{
	int n = 0;
	const char *section = NULL;
	for (int i = 0; i < tui_num_commands && n + 1 < max; i++) {
		const tui_command_t *c = &tui_commands[i];
		if (!section || strcmp(section, c->section)) {
			section = c->section;
			snprintf(out[n].text, sizeof out[n].text, "%s", section);
			out[n++].style = TUI_S_WARN;
		}
		char keys[64] = "";
		for (int k = 0; k < TUI_COMMAND_KEYS && c->keys[k]; k++) {
			char b[8];
			size_t len = strlen(keys);
			snprintf(keys + len, sizeof keys - len, "%s%s", k ? " " : "",
			         dalic_tui_key_label(c->keys[k], b));
		}
		/* pad by columns, not bytes: arrows are three bytes each */
		int pad = 18 - dalic_tui_text_width(keys);
		snprintf(out[n].text, sizeof out[n].text, "  %s%*s %-17s %s", keys,
		         pad > 0 ? pad : 0, "", c->name, c->help);
		out[n++].style = TUI_S_NORMAL;
	}
	for (int i = 0; guide[i] && n < max; i++, n++) {
		snprintf(out[n].text, sizeof out[n].text, "%s", guide[i]);
		out[n].style = i == 0 ? TUI_S_WARN : TUI_S_NORMAL;
	}
	return n;
}

int dalic_tui_help_lines(void)
{
	line_t lines[128];
	return help_lines(lines, 128);
}

void dalic_tui_draw_help(tui_app_t *app, tui_canvas_t c)
{
	line_t lines[128];
	int n = help_lines(lines, 128);
	dalic_tui_frame(c, "HELP", dalic_tui_style(TUI_S_BORDER_FOCUS), true);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	if (app->help_scroll > n - in.r.h)
		app->help_scroll = n - in.r.h > 0 ? n - in.r.h : 0;
	for (int y = 0; y < in.r.h && y + app->help_scroll < n; y++) {
		const line_t *l = &lines[y + app->help_scroll];
		dalic_tui_print(in, 0, y, dalic_tui_style(l->style), l->text, -1);
	}
}
