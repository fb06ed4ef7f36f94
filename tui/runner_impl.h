/*
 * The runner's private state, shared by the thread and queue (runner.c), the full engine
 * (runner_full.c), the debug engine (runner_debug.c), and batch extraction (extract.c).
 * Everything below "runner thread only" is touched by the runner thread alone; the few
 * fields the UI reads are behind `lock` (queue, published model) or `stats_lock` (the
 * collector pointer, which a rebuild replaces).
 */
#ifndef DALIC_TUI_RUNNER_IMPL_H
#define DALIC_TUI_RUNNER_IMPL_H

#include "tui/runner.h"

#include "dalic_debug.h"
#include "dalic_stats.h"

#include <pthread.h>
#include <stdatomic.h>

#define TUI_QUEUE_MAX 64
#define TUI_RATE_RING 64
#define TUI_P99_RING 128

typedef struct tui_op_hist {
	int64_t runs_seen;
	int64_t ring[TUI_P99_RING];
	int n, head;
} tui_op_hist_t;

struct tui_runner {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* a command arrived */
	pthread_cond_t done; /* a command finished / the runner went idle */
	tui_cmd_t queue[TUI_QUEUE_MAX];
	int qhead, qcount;
	uint64_t posted_seq, done_seq;
	atomic_bool pending; /* qcount > 0, read without the lock while running */
	bool idle;           /* paused with an empty queue */
	tui_model_t *published;

	pthread_mutex_t stats_lock;
	dalic_stats_t *stats; /* collector of `pipe`; replaced under stats_lock */

	/* ---- runner thread only ---- */
	tui_options_t opts;
	dalic_pipeline_t *def;          /* as loaded, never built; NULL when loading failed */
	dalic_pipeline_params_t params; /* in effect: the definition's, then the user's changes */
	bool user_prefetch, user_bps, user_threads;
	bool trace; /* the collector records trace events (T, --trace) */
	tui_engine_t engine;
	bool running, quit;

	dalic_pipeline_t *pipe; /* full engine, built; NULL when none */
	bool pipe_failed;       /* an iteration failed: the pipeline is unusable */
	bool has_outputs;       /* the pipeline's outputs are shared (a run succeeded) */
	int64_t full_iteration; /* iterations received from the full engine */
	bool emulated;
	char executor[40];

	struct dalic_cli_feed *full_feeds, *debug_feeds; /* --feed readers of each engine */
	dalic_debug_t *dbg;  /* debug engine */
	tui_op_hist_t *hist; /* per debug operator, for p99 */
	int num_hist;

	tui_graph_t *full_graph; /* graph of each engine, NULL while it is closed */
	tui_graph_t *debug_graph;
	uint64_t finishing_seq; /* command being handled, published with the model */
	int64_t epochs;
	bool ended;
	int64_t samples;     /* since the last build */
	double run_seconds;  /* spent running continuously since the last build */
	double loop_t;       /* end of the previous running iteration */
	int64_t run_samples; /* samples produced while running continuously */
	double rate_t[TUI_RATE_RING];
	int64_t rate_n[TUI_RATE_RING];
	int rate_head, rate_count;
	double rate;

	char sel_op[256];
	int sel_output, sel_sample, sel_window;
	tui_batch_view_t *batch;
	bool batch_dirty;
	double last_extract, last_publish;

	tui_error_t error;
	char notice[256];
	bool has_compare;
	char change[160];
	tui_measure_t before;
	char tune_text[TUI_TUNE_TEXT]; /* the tune view, "" when none (runner_tune.c) */
	volatile int tune_cancel;      /* set when a command arrives during a tune */

	/* position of the engine in use (runner_ckpt.c): the last one read between
	 * iterations (the debug engine has none in the middle of one) */
	bool has_position;
	bool seek_noted; /* the message line says what --at did */
	int64_t epoch_idx;
	int num_readers;
	tui_reader_pos_t readers[TUI_MAX_READERS];
	char position_note[96];
	/* mark / since (runner_mark.c): the full engine's counters at the mark (a stats
	 * document's, stats/growth.h), or the debug session's own mark */
	struct dalic_growth *mark;
	tui_engine_t mark_engine;
	bool marked, since_shown;
	int64_t mark_iteration;
};

/* runner.c */
void dalic_tui_runner_publish(tui_runner_t *r);
tui_model_t *dalic_tui_runner_make_model(tui_runner_t *r);
void dalic_tui_runner_note(tui_runner_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void dalic_tui_runner_fail(tui_runner_t *r, const char *message);
/* Adds samples produced while running at time t (dalic_tui_now) to the throughput window. */
void dalic_tui_runner_count(tui_runner_t *r, int samples, double t);
void dalic_tui_runner_rate_reset(tui_runner_t *r);

/* runner_full.c: the full engine */
int dalic_tui_full_open(tui_runner_t *r);
void dalic_tui_full_close(tui_runner_t *r);
/* One iteration; *samples (may be NULL) gets the samples it produced. */
int dalic_tui_full_iterate(tui_runner_t *r, int *samples);
void dalic_tui_full_extract(tui_runner_t *r);
int dalic_tui_full_save(tui_runner_t *r, const char *dir);
/* A new, unbuilt pipeline: the loaded definition with the parameters in effect. */
int dalic_tui_runner_instantiate(tui_runner_t *r, dalic_pipeline_t **out);

/* runner_ckpt.c: --checkpoint / --at for a new full pipeline (before and after its build) and
 * a new debug session; the checkpoint key; the position for the model */
int dalic_tui_ckpt_restore_full(tui_runner_t *r, dalic_pipeline_t *p);
int dalic_tui_ckpt_seek_full(tui_runner_t *r, dalic_pipeline_t *p);
int dalic_tui_ckpt_open_debug(tui_runner_t *r, dalic_debug_t *s);
void dalic_tui_ckpt_save(tui_runner_t *r, const char *path);
void dalic_tui_ckpt_position(tui_runner_t *r);
void dalic_tui_ckpt_fill(const tui_runner_t *r, tui_model_t *m);

/* runner_mark.c: m / M */
void dalic_tui_mark(tui_runner_t *r);
void dalic_tui_mark_toggle_since(tui_runner_t *r);
void dalic_tui_mark_fill(tui_runner_t *r, tui_model_t *m);
void dalic_tui_mark_forget(tui_runner_t *r);

/* runner_tune.c: the tune view; budget_s 0 = sized for the pipeline */
void dalic_tui_tune_run(tui_runner_t *r, double budget_s);

/* runner_debug.c: the debug engine */
int dalic_tui_debug_open(tui_runner_t *r);
void dalic_tui_debug_close(tui_runner_t *r);
/* One operator or one iteration; *samples (may be NULL) gets the samples of an iteration
 * that completed. */
int dalic_tui_debug_run(tui_runner_t *r, bool one_op, int *samples);
void dalic_tui_debug_extract(tui_runner_t *r);
void dalic_tui_debug_fill(tui_runner_t *r, tui_model_t *m);

/* extract.c: a window of samples of a batch, copied for the UI */
tui_batch_view_t *dalic_tui_extract(const dalic_batch_t *b, int sample, int window);
/* Whether sample i looks like a picture (an image layout, or H x W x {1, 3, 4}). */
bool dalic_tui_image_like(const dalic_batch_t *b, int i);
/* extract_boxes.c: boxes of another output drawn over the shown output's thumbnails, or the
 * first picture output drawn under the shown boxes (pipeline output `shown`, the pane's
 * window of samples), with a note. */
void dalic_tui_overlay_boxes(tui_batch_view_t *v, dalic_pipeline_t *p, int shown, int window);
/* Sample s->index's boxes (N x 4 floats of `boxes`) outlined on s's thumbnail of `img`. */
void dalic_tui_draw_boxes(tui_sample_view_t *s, const dalic_batch_t *boxes,
                          const dalic_batch_t *img);
/* Parses "operator 'X' (...), iteration N, sample S, file 'F': ..." into err. */
void dalic_tui_parse_error(const char *message, tui_error_t *err);
/* extract_signal.c: an RGB8 picture of a signal sample (waveform, spectrogram heat map, strip
 * of video frames), or NULL when the sample is none of these. New memory: free(). */
unsigned char *dalic_tui_extract_signal(const dalic_batch_t *b, int i, int *tw, int *th);

#endif
