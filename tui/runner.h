/*
 * The runner thread: the one thread that drives the pipeline API (dalic.h says a pipeline is
 * driven by one thread) and the debug session. The UI thread talks to it in two ways only:
 * it posts commands (a small queue; each gets a sequence number it can wait for), and it
 * reads what the runner publishes — a tui_model_t — plus stats snapshots, which
 * dalic_stats_snapshot() allows from any thread. Loading, building, rebuilding, stepping and
 * running at full speed all happen here, so a slow operator or a bad script never freezes
 * the screen.
 */
#ifndef DALIC_TUI_RUNNER_H
#define DALIC_TUI_RUNNER_H

#include "tui/model.h"
#include "tui/tui.h"

typedef enum {
	TUI_CMD_STEP_OP,    /* debug engine: run one operator */
	TUI_CMD_STEP_ITER,  /* one iteration, either engine */
	TUI_CMD_TOGGLE_RUN, /* run continuously / pause */
	TUI_CMD_PAUSE,
	TUI_CMD_ENGINE,       /* switch full <-> debug */
	TUI_CMD_SELECT,       /* text: operator, a: output, b: sample, c: window of samples */
	TUI_CMD_SET_PREFETCH, /* a: cpu depth, b: gpu depth, flag: separated */
	TUI_CMD_SET_BPS,      /* a: bytes_per_sample */
	TUI_CMD_SET_THREADS,  /* a: num_threads */
	TUI_CMD_REBUILD,      /* reload the pipeline file and rebuild */
	TUI_CMD_SAVE,  /* text: directory for stats.json, report.txt, trace.json, graph.dot */
	TUI_CMD_TRACE, /* record trace events, or stop (rebuilds) */
	TUI_CMD_TUNE,  /* flag: run the tuner (a: budget seconds, 0 auto); else hide its view */
	TUI_CMD_CHECKPOINT, /* text: file for the checkpoint of the current iteration */
	TUI_CMD_MARK,       /* keep the memory counters */
	TUI_CMD_SINCE,      /* show / hide what grew since the mark */
	TUI_CMD_QUIT,
} tui_cmd_kind_t;

typedef struct tui_cmd {
	tui_cmd_kind_t kind;
	int64_t a, b, c;
	bool flag;
	char text[256];
} tui_cmd_t;

typedef struct tui_runner tui_runner_t;

/* Seconds on dalic's monotonic clock (dalic_clock_ns), for the UI's frame timing. */
double dalic_tui_now(void);

/* Starts the thread, which loads and builds the pipeline of `opts` (copied; opts->path is
 * borrowed and must outlive the runner) in the full engine, or the debug engine when
 * opts->debug; opts->trace: the stats collector records trace events from the start.
 * New: free with dalic_tui_runner_stop. */
int dalic_tui_runner_start(const tui_options_t *opts, tui_runner_t **out);
/* Stops the pipeline, joins the thread, frees everything. */
void dalic_tui_runner_stop(tui_runner_t *r);

/* Queues a command; returns its sequence number (0 if the queue is full). Never blocks on
 * the pipeline. */
uint64_t dalic_tui_runner_post(tui_runner_t *r, const tui_cmd_t *cmd);
/* Waits until command `seq` is done (true) or timeout_ms passes (false). */
bool dalic_tui_runner_wait(tui_runner_t *r, uint64_t seq, int timeout_ms);
/* Waits until the runner is paused with nothing queued (true) or the timeout passes. */
bool dalic_tui_runner_wait_idle(tui_runner_t *r, int timeout_ms);

/* The latest published model (never NULL). New reference: dalic_tui_model_unref. */
tui_model_t *dalic_tui_runner_model(tui_runner_t *r);
/* A stats snapshot of the full engine, or NULL when no full pipeline exists.
 * New: dalic_stats_snapshot_free. */
dalic_stats_snapshot_t *dalic_tui_runner_snapshot(tui_runner_t *r);

#endif
