/*
 * The command table (commands.h) and its handlers. Handlers are short: they either change
 * UI state (focus, zoom, sort, help) or post a command to the runner and return at once —
 * nothing here waits for the pipeline. Parameter changes open a prompt on the message line;
 * submitting it posts the change, and the runner rebuilds and records "before" numbers.
 */
#include "tui/commands.h"

#include "tui/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned cmd_post(tui_app_t *app, tui_cmd_kind_t kind)
{
	dalic_tui_app_post(app, &(tui_cmd_t){.kind = kind});
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_help(tui_app_t *app, int key)
{
	app->help = !app->help;
	app->help_scroll = 0;
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_quit(tui_app_t *app, int key)
{
	return TUI_HANDLED | TUI_QUIT;
}

static unsigned cmd_step_op(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_STEP_OP);
}

static unsigned cmd_step_iter(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_STEP_ITER);
}

static unsigned cmd_run(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_TOGGLE_RUN);
}

static unsigned cmd_engine(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_ENGINE);
}

static unsigned cmd_pane(tui_app_t *app, int key)
{
	int step = key == TUI_KEY_BTAB ? TUI_PANES - 1 : 1;
	app->focus = (tui_pane_id_t)((app->focus + step) % TUI_PANES);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_select(tui_app_t *app, int key)
{
	const tui_pane_class_t *classes[TUI_PANES] = {&tui_pane_graph, &tui_pane_ops,
	                                              &tui_pane_queues, &tui_pane_batch};
	const tui_pane_class_t *pc = classes[app->focus];
	return pc->key ? pc->key(app, key) : 0;
}

static unsigned cmd_prev_next_op(tui_app_t *app, int key)
{
	const tui_graph_t *g = app->model ? app->model->graph : NULL;
	if (!g || !g->num_nodes)
		return TUI_HANDLED;
	int i = dalic_tui_app_selected_node(app), step = key == '[' ? -1 : 1;
	for (int k = 0; k < g->num_nodes; k++) {
		i = (i + step + g->num_nodes) % g->num_nodes;
		if (!g->nodes[i].internal)
			break;
	}
	dalic_tui_app_select_node(app, i);
	return TUI_HANDLED | TUI_REDRAW | TUI_SELECT;
}

static unsigned cmd_output(tui_app_t *app, int key)
{
	const tui_graph_t *g = app->model ? app->model->graph : NULL;
	int i = dalic_tui_app_selected_node(app);
	if (i < 0 || g->nodes[i].num_outputs < 2) {
		dalic_tui_app_message(app, false, "the selected operator has one output");
		return TUI_HANDLED | TUI_REDRAW;
	}
	app->sel_output = (app->sel_output + 1) % g->nodes[i].num_outputs;
	app->sel_sample = 0;
	return TUI_HANDLED | TUI_REDRAW | TUI_SELECT;
}

static unsigned cmd_sort(tui_app_t *app, int key)
{
	if (key == 'O') {
		app->sort_desc = !app->sort_desc;
	} else {
		app->sort = (app->sort + 1) % TUI_SORT_COUNT;
		/* times and memory read best largest first; names and order ascending */
		app->sort_desc = app->sort != TUI_SORT_ORDER && app->sort != TUI_SORT_NAME;
	}
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_zoom(tui_app_t *app, int key)
{
	app->zoom = !app->zoom;
	return TUI_HANDLED | TUI_REDRAW | TUI_SELECT; /* the batch window size changes */
}

/* ---- parameter prompts ---------------------------------------------------------------------- */
/* An empty answer leaves the parameter as it is. */
static unsigned cmd_unchanged(tui_app_t *app)
{
	dalic_tui_app_message(app, false, "unchanged");
	return TUI_HANDLED | TUI_REDRAW;
}

static bool cmd_parse_count(const char *s, long long *v, long long min)
{
	char *end;
	*v = strtoll(s, &end, 10);
	return *s && !*end && *v >= min;
}

static unsigned cmd_submit_prefetch(tui_app_t *app, const char *text)
{
	long long a, b;
	tui_cmd_t c = {.kind = TUI_CMD_SET_PREFETCH};
	if (!*text)
		return cmd_unchanged(app);
	if (cmd_parse_count(text, &a, 1)) {
		c.a = c.b = a;
	} else if (sscanf(text, "cpu=%lld,gpu=%lld", &a, &b) == 2 && a > 0 && b > 0) {
		c.a = a;
		c.b = b;
		c.flag = true;
	} else {
		dalic_tui_app_message(app, true,
		                      "prefetch_queue_depth: '%s' is not N or cpu=N,gpu=M", text);
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_post(app, &c);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_prefetch(tui_app_t *app, int key)
{
	const dalic_pipeline_params_t *p = &app->model->params;
	char now[32], label[96];
	if (p->separated_queues)
		snprintf(now, sizeof now, "cpu=%d,gpu=%d", p->prefetch_cpu, p->prefetch_gpu);
	else
		snprintf(now, sizeof now, "%d", p->prefetch_cpu);
	snprintf(label, sizeof label, "prefetch_queue_depth (N or cpu=N,gpu=M; now %s): ", now);
	dalic_tui_app_prompt(app, label, "", cmd_submit_prefetch);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_prefetch_step(tui_app_t *app, int key)
{
	const dalic_pipeline_params_t *p = &app->model->params;
	int d = key == '+' || key == '=' ? 1 : -1;
	tui_cmd_t c = {.kind = TUI_CMD_SET_PREFETCH,
	               .a = p->prefetch_cpu + d,
	               .b = p->prefetch_gpu + d,
	               .flag = p->separated_queues};
	if (c.a < 1 || c.b < 1) {
		dalic_tui_app_message(app, true, "prefetch_queue_depth cannot go below 1");
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_post(app, &c);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_submit_bps(tui_app_t *app, const char *text)
{
	long long v;
	if (!*text)
		return cmd_unchanged(app);
	if (!cmd_parse_count(text, &v, 0)) {
		dalic_tui_app_message(app, true, "bytes_per_sample: '%s' is not a byte count",
		                      text);
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_post(app, &(tui_cmd_t){.kind = TUI_CMD_SET_BPS, .a = v});
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_bps(tui_app_t *app, int key)
{
	char label[96];
	snprintf(label, sizeof label,
	         "bytes_per_sample (now %lld): ", (long long)app->model->params.bytes_per_sample);
	dalic_tui_app_prompt(app, label, "", cmd_submit_bps);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_submit_threads(tui_app_t *app, const char *text)
{
	long long v;
	if (!*text)
		return cmd_unchanged(app);
	if (!cmd_parse_count(text, &v, 1) || v > 1024) {
		dalic_tui_app_message(app, true, "num_threads: '%s' is not a count from 1 to 1024",
		                      text);
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_post(app, &(tui_cmd_t){.kind = TUI_CMD_SET_THREADS, .a = v});
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_threads(tui_app_t *app, int key)
{
	char label[96];
	snprintf(label, sizeof label, "num_threads (now %d): ", app->model->params.num_threads);
	dalic_tui_app_prompt(app, label, "", cmd_submit_threads);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_submit_tune(tui_app_t *app, const char *text)
{
	long long v = 0;
	if (*text && (!cmd_parse_count(text, &v, 1) || v > 3600)) {
		dalic_tui_app_message(app, true, "tune: '%s' is not a budget of 1 to 3600 seconds",
		                      text);
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_post(app, &(tui_cmd_t){.kind = TUI_CMD_TUNE, .a = v, .flag = true});
	return TUI_HANDLED | TUI_REDRAW;
}

/* U: run the tuner (asks for a budget), or hide its results to see the queues again. */
static unsigned cmd_tune(tui_app_t *app, int key)
{
	if (app->model->tune[0]) {
		dalic_tui_app_post(app, &(tui_cmd_t){.kind = TUI_CMD_TUNE});
		return TUI_HANDLED | TUI_REDRAW;
	}
	dalic_tui_app_prompt(app, "tune: budget in seconds (Enter: sized for the pipeline): ", "",
	                     cmd_submit_tune);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_rebuild(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_REBUILD);
}

static unsigned cmd_trace(tui_app_t *app, int key)
{
	return cmd_post(app, TUI_CMD_TRACE);
}

static unsigned cmd_submit_save(tui_app_t *app, const char *text)
{
	tui_cmd_t c = {.kind = TUI_CMD_SAVE};
	snprintf(c.text, sizeof c.text, "%s", *text ? text : "dalic-report");
	dalic_tui_app_post(app, &c);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_save(tui_app_t *app, int key)
{
	dalic_tui_app_prompt(app, "save report to directory (Enter: dalic-report): ", "",
	                     cmd_submit_save);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_submit_checkpoint(tui_app_t *app, const char *text)
{
	tui_cmd_t c = {.kind = TUI_CMD_CHECKPOINT};
	snprintf(c.text, sizeof c.text, "%s", *text ? text : "dalic.ckpt");
	dalic_tui_app_post(app, &c);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_checkpoint(tui_app_t *app, int key)
{
	dalic_tui_app_prompt(app, "save the checkpoint of this iteration to (Enter: dalic.ckpt): ",
	                     "", cmd_submit_checkpoint);
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned cmd_mark(tui_app_t *app, int key)
{
	return cmd_post(app, key == 'M' ? TUI_CMD_SINCE : TUI_CMD_MARK);
}

#define KEYS(...)                                                                                  \
	{                                                                                          \
		__VA_ARGS__                                                                        \
	}

const tui_command_t tui_commands[] = {
    {.name = "help",
     .section = "Start here",
     .keys = KEYS('?', TUI_KEY_F1, 'h'),
     .bar = "Help",
     .help = "this screen (any key closes it)",
     .run = cmd_help},
    {.name = "step-iter",
     .section = "Run",
     .keys = KEYS('n'),
     .bar = "Next it",
     .help = "run one iteration with the current engine",
     .run = cmd_step_iter},
    {.name = "step-op",
     .section = "Run",
     .keys = KEYS('s'),
     .bar = "Step op",
     .help = "run the next operator only (in the debug engine)",
     .run = cmd_step_op},
    {.name = "run",
     .section = "Run",
     .keys = KEYS(' ', 'r'),
     .bar = "Run/Pause",
     .help = "run continuously / pause",
     .run = cmd_run},
    {.name = "engine",
     .section = "Run",
     .keys = KEYS('e'),
     .bar = "Engine",
     .help = "switch engine: full (stages, queues) / debug (eager)",
     .run = cmd_engine},
    {.name = "pane",
     .section = "Look",
     .keys = KEYS(TUI_KEY_TAB, TUI_KEY_BTAB),
     .bar = "Pane",
     .help = "focus the next pane (Shift-Tab: previous)",
     .run = cmd_pane},
    {.name = "select",
     .section = "Look",
     .keys = KEYS(TUI_KEY_UP, TUI_KEY_DOWN, TUI_KEY_LEFT, TUI_KEY_RIGHT),
     .help = "move: operators in GRAPH and OPERATORS, samples in BATCH",
     .run = cmd_select},
    {.name = "scroll",
     .section = "Look",
     .keys = KEYS(TUI_KEY_PGUP, TUI_KEY_PGDN, TUI_KEY_HOME, TUI_KEY_END),
     .help = "scroll the focused pane",
     .run = cmd_select},
    {.name = "next-op",
     .section = "Look",
     .keys = KEYS(']', '['),
     .help = "select the next (]) or previous ([) operator, any pane",
     .run = cmd_prev_next_op},
    {.name = "output",
     .section = "Look",
     .keys = KEYS('v'),
     .help = "show the selected operator's next output in BATCH",
     .run = cmd_output},
    {.name = "sort",
     .section = "Look",
     .keys = KEYS('o', 'O'),
     .bar = "Sort",
     .help = "sort OPERATORS by the next column (O: reverse order)",
     .run = cmd_sort},
    {.name = "zoom",
     .section = "Look",
     .keys = KEYS('z'),
     .bar = "Zoom",
     .help = "enlarge the focused pane (all columns, big images) / back",
     .run = cmd_zoom},
    {.name = "prefetch",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('p'),
     .bar = "Prefetch",
     .help = "set prefetch_queue_depth: N, or cpu=N,gpu=M (separate)",
     .run = cmd_prefetch},
    {.name = "prefetch-more",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('+', '=', '-'),
     .help = "prefetch_queue_depth one deeper (+) or shallower (-)",
     .run = cmd_prefetch_step},
    {.name = "bytes-per-sample",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('b'),
     .help = "set bytes_per_sample (pipeline-wide buffer size hint)",
     .run = cmd_bps},
    {.name = "threads",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('t'),
     .help = "set num_threads (per-sample worker threads)",
     .run = cmd_threads},
    {.name = "tune",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('U'),
     .bar = "Tune",
     .help = "measure every setting against this one (paired trials, 95% intervals) and "
             "show the verdicts in QUEUES; again: back to the queues",
     .run = cmd_tune},
    {.name = "rebuild",
     .section = "Tune (rebuilds; before/after shown in QUEUES)",
     .keys = KEYS('R'),
     .bar = "Rebuild",
     .help = "reload the pipeline file and rebuild",
     .run = cmd_rebuild},
    {.name = "save",
     .section = "Other",
     .keys = KEYS('w'),
     .bar = "Save",
     .help = "save stats.json, report.txt, trace.json, graph.dot",
     .run = cmd_save},
    {.name = "checkpoint",
     .section = "Other",
     .keys = KEYS('c'),
     .help = "save a DALI checkpoint of the current iteration (needs enable_checkpointing; "
             "`dalic tui|run --checkpoint FILE` opens at it)",
     .run = cmd_checkpoint},
    {.name = "mark",
     .section = "Other",
     .keys = KEYS('m', 'M'),
     .help = "mark the memory counters (m); show what grew since, per operator (M)",
     .run = cmd_mark},
    {.name = "trace",
     .section = "Other",
     .keys = KEYS('T'),
     .help = "record a trace for w to save (rebuilds; on / off)",
     .run = cmd_trace},
    {.name = "quit",
     .section = "Other",
     .keys = KEYS('q', TUI_KEY_F10),
     .bar = "Quit",
     .help = "quit (the terminal is restored)",
     .run = cmd_quit},
};

const int tui_num_commands = sizeof tui_commands / sizeof tui_commands[0];

const tui_command_t *dalic_tui_command_by_key(int key)
{
	for (int i = 0; i < tui_num_commands; i++)
		for (int k = 0; k < TUI_COMMAND_KEYS && tui_commands[i].keys[k]; k++)
			if (tui_commands[i].keys[k] == key)
				return &tui_commands[i];
	return NULL;
}

const tui_command_t *dalic_tui_command_by_name(const char *name)
{
	for (int i = 0; i < tui_num_commands; i++)
		if (!strcmp(tui_commands[i].name, name))
			return &tui_commands[i];
	return NULL;
}
