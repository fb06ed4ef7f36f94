/*
 * The shared test library: every helper used by more than one test file lives here or in
 * tests/testlib/ and carries the prefix `tl_`; helpers local to one test file carry that
 * file's suite name (`ops_arith_feed`). Every call in a test checks its status:
 *
 *     ASSERT_OK(dalic_pipeline_run(p));                       stops the test on failure
 *     EXPECT_OK(dalic_op_set_int(op, "dtype", 9), "mode %s", m->name);   goes on
 *     ASSERT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
 *     EXPECT_ERROR_HAS("'probability'");                      in dalic_last_error()
 *     EXPECT_HAS(out, "iterations: 3");                       in any text
 *
 * A failure prints the call's text, the status returned and the one expected, and
 * dalic_last_error(), then the optional printf-style context. The public functions that
 * return a status are redeclared below with warn_unused_result, so a test that ignores one
 * does not build with WERROR=1.
 *
 * Helpers here use the public API only (dalic.h, dalic_debug.h, dalic_stats.h); those that
 * need engine internals or other tools are in tests/testlib/ (exec.h, image.h, proto.h,
 * script.h, tui.h, schema_check.h).
 */
#ifndef DALIC_TESTS_TESTLIB_H
#define DALIC_TESTS_TESTLIB_H

#include <criterion/criterion.h>

#include "dalic.h"
#include "dalic_debug.h"
#include "dalic_stats.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- status checks ------------------------------------------------------------------------ */

/* The message of a failed status check (thread-local buffer, valid until the next call). */
const char *tl_status_text(int got, int want, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The context argument is optional: an empty format string stands for "none". */
#pragma GCC diagnostic ignored "-Wformat-zero-length"

#define TL_CHECK_STATUS(fail, call, want, ...)                                                     \
	do {                                                                                       \
		int tl_got_ = (call), tl_want_ = (want);                                           \
		if (tl_got_ != tl_want_)                                                           \
			fail("%s", tl_status_text(tl_got_, tl_want_, #call, "" __VA_ARGS__));      \
	} while (0)

#define ASSERT_OK(call, ...) TL_CHECK_STATUS(cr_assert_fail, call, DALIC_OK, __VA_ARGS__)
#define EXPECT_OK(call, ...) TL_CHECK_STATUS(cr_expect_fail, call, DALIC_OK, __VA_ARGS__)
#define ASSERT_STATUS(call, want, ...) TL_CHECK_STATUS(cr_assert_fail, call, want, __VA_ARGS__)
#define EXPECT_STATUS(call, want, ...) TL_CHECK_STATUS(cr_expect_fail, call, want, __VA_ARGS__)
/* `text` contains `needle` (starts with it when `prefix`); the failure shows the whole text. */
bool tl_text_has(const char *text, const char *needle, bool prefix);
const char *tl_has_text(const char *what, const char *text, const char *needle, bool prefix,
                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define TL_HAS(fail, text, needle, prefix, ...)                                                    \
	do {                                                                                       \
		const char *tl_text_ = (text), *tl_needle_ = (needle);                             \
		if (!tl_text_has(tl_text_, tl_needle_, prefix))                                    \
			fail("%s",                                                                 \
			     tl_has_text(#text, tl_text_, tl_needle_, prefix, "" __VA_ARGS__));    \
	} while (0)
#define ASSERT_HAS(text, needle, ...) TL_HAS(cr_assert_fail, text, needle, false, __VA_ARGS__)
#define EXPECT_HAS(text, needle, ...) TL_HAS(cr_expect_fail, text, needle, false, __VA_ARGS__)
#define EXPECT_STARTS(text, prefix, ...) TL_HAS(cr_expect_fail, text, prefix, true, __VA_ARGS__)
#define ASSERT_ERROR_HAS(needle, ...) ASSERT_HAS(dalic_last_error(), needle, __VA_ARGS__)
#define EXPECT_ERROR_HAS(needle, ...) EXPECT_HAS(dalic_last_error(), needle, __VA_ARGS__)
#define EXPECT_DEBUG_ERROR_HAS(s, needle, ...)                                                     \
	EXPECT_HAS(dalic_debug_last_error(s), needle, __VA_ARGS__)
/* A debug-session call: the message adds the session's own last error. */
#define ASSERT_DEBUG_OK(s, call) ASSERT_OK(call, "session: %s", dalic_debug_last_error(s))

/* Every public function that returns a status must have its status looked at. */
/* clang-format off */
#define TL_STATUS_FUNCTIONS(X)                                                                     \
	X(dalic_pipeline_create) X(dalic_pipeline_add_op) X(dalic_op_set_name)                     \
	X(dalic_op_add_input) X(dalic_op_set_arg_input) X(dalic_op_set_int)                        \
	X(dalic_op_set_float) X(dalic_op_set_bool) X(dalic_op_set_string) X(dalic_op_set_ints)     \
	X(dalic_op_set_floats) X(dalic_op_set_strings) X(dalic_pipeline_add_output)                \
	X(dalic_pipeline_set_output_desc) X(dalic_pipeline_build) X(dalic_pipeline_feed_input)     \
	X(dalic_pipeline_set_source) X(dalic_feed_batch) X(dalic_pipeline_run)                     \
	X(dalic_pipeline_feed_input_sources) X(dalic_feed_batch_sources)                          \
	X(dalic_debug_feed_input_sources)                                                         \
	X(dalic_pipeline_schedule_run) X(dalic_pipeline_share_outputs)                             \
	X(dalic_pipeline_release_outputs) X(dalic_pipeline_outputs) X(dalic_pipeline_reset)        \
	X(dalic_pipeline_reader_meta) X(dalic_debug_open)                                          \
	X(dalic_pipeline_warning) X(dalic_pipeline_make_scan)                                      \
	X(dalic_debug_feed_input) X(dalic_debug_set_source) X(dalic_debug_step)                    \
	X(dalic_debug_next) X(dalic_debug_continue) X(dalic_debug_goto) X(dalic_debug_restart)     \
	X(dalic_debug_break_op) X(dalic_debug_break_iter) X(dalic_debug_break_cond)                \
	X(dalic_debug_delete) X(dalic_debug_break_get) X(dalic_debug_op_info)                      \
	X(dalic_debug_stats) X(dalic_debug_format_sample) X(dalic_debug_format_batch)              \
	X(dalic_debug_preview) X(dalic_debug_save_image) X(dalic_debug_measure)                    \
	X(dalic_debug_mark) X(dalic_debug_since) X(dalic_debug_checkpoint)                         \
	X(dalic_stats_create) X(dalic_stats_snapshot) X(dalic_stats_write_json)                    \
	X(dalic_stats_write_report) X(dalic_stats_write_trace) X(dalic_stats_save_trace)          \
	X(dalic_check_module)
/* clang-format on */
#define TL_MUST_CHECK(fn) __typeof__(fn) fn __attribute__((warn_unused_result));
TL_STATUS_FUNCTIONS(TL_MUST_CHECK)
#undef TL_MUST_CHECK

/* ---- pipelines through the public API ------------------------------------------------------ */

/* A CPU-only, simple-mode (no prefetch) pipeline with seed 42, so each run consumes exactly
 * one fed batch. Free with dalic_pipeline_destroy. */
dalic_pipeline_t *tl_pipeline(int batch_size);
/* Operator `name` on the cpu. Borrowed (owned by the pipeline). */
dalic_op_t *tl_op(dalic_pipeline_t *p, const char *name);
/* An external_source named `name`; its output data node is also `name`. */
dalic_op_t *tl_source(dalic_pipeline_t *p, const char *name);
/* Data node `node` as the next positional input of `op`. */
void tl_input(dalic_op_t *op, const char *node);
/* Output 0 of `op` as the next pipeline output. */
void tl_output(dalic_pipeline_t *p, dalic_op_t *op);
/* One batch for external_source `name` (see dalic_pipeline_feed_input). */
void tl_feed(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype, int ndim, int batch,
             const int64_t *shapes, const void *data, const char *layout);
/* One iteration; returns output `i`. Borrowed until the next run. */
const dalic_batch_t *tl_run(dalic_pipeline_t *p, int i);
/* One iteration expecting status `expected`; returns dalic_last_error(). */
const char *tl_run_fails(dalic_pipeline_t *p, int expected);

/* ---- executor modes -------------------------------------------------------------------------- */

typedef struct tl_mode {
	const char *name;
	bool pipelined, async, separated;
	int cpu, gpu; /* queue depths */
} tl_mode_t;

/* simple, pipelined, async, separated (cpu 3 / gpu 2): docs/executor.md's four modes. */
#define TL_NUM_MODES 4
extern const tl_mode_t tl_modes[TL_NUM_MODES];
#define TL_FOR_EACH_MODE(m) for (const tl_mode_t *m = tl_modes; m < tl_modes + TL_NUM_MODES; m++)

/* Parameters for mode m: batch, threads, the mode's queue depths, seed 42, device 0. */
dalic_pipeline_params_t tl_mode_params(const tl_mode_t *m, int batch, int threads);

/* ---- reading batches ---------------------------------------------------------------------------
 */

/* IEEE half to float, for FLOAT16 outputs without engine headers. */
float tl_half(uint16_t h);
/* Element k of sample i as a double, whatever the batch's numeric dtype. */
double tl_at(const dalic_batch_t *b, int i, int64_t k);
/* Asserts sample i has shape `dims` (ndim values). */
void tl_expect_shape(const dalic_batch_t *b, int i, int ndim, const int64_t *dims);
/* Asserts the n elements of sample i equal `want` exactly. */
void tl_expect_values(const dalic_batch_t *b, int i, int n, const double *want);
/* Asserts the n elements of sample i are within `tol` of `want` (NaN equals NaN). */
void tl_expect_near(const dalic_batch_t *b, int i, int n, const double *want, double tol);
/* Byte-for-byte equality of two batches: count, dtype, ndim, layout, shapes, data. */
void tl_expect_same_batch(const dalic_batch_t *a, const dalic_batch_t *b, const char *what);

/* A deep copy of a batch (dtype, layout, shapes, bytes), to compare with later batches. */
typedef struct tl_snapshot {
	int n, ndim;
	dalic_dtype_t dtype;
	char layout[16];
	int64_t *shapes;      /* n * ndim */
	size_t *bytes;        /* n */
	unsigned char **data; /* n */
} tl_snapshot_t;

void tl_snap(tl_snapshot_t *snap, const dalic_batch_t *b);
/* Same sample count, sample sizes and bytes. */
bool tl_snap_equal(const tl_snapshot_t *snap, const dalic_batch_t *b);
/* Byte-for-byte equality as tl_expect_same_batch. */
void tl_expect_same_snap(const tl_snapshot_t *snap, const dalic_batch_t *b, const char *what);
void tl_snap_free(tl_snapshot_t *snap);

/* ---- files and the dalic command ------------------------------------------------------------ */

/* One temporary directory per test process: made on the first call, removed by
 * tl_tmpdir_remove (a suite's .fini). */
const char *tl_tmpdir(void);
void tl_tmpdir_remove(void);
/* tl_tmpdir()/name, in one of 8 rotating buffers. */
const char *tl_tmp_path(const char *name);
/* Removes a directory tree (or a file); missing paths are fine. */
void tl_rmtree(const char *path);
/* Whole file; new buffer with a NUL after the n bytes (free()). Asserts it can be read. */
void *tl_read_file(const char *path, size_t *n);
/* Whole file, or NULL when it cannot be opened. */
void *tl_try_read_file(const char *path, size_t *n);
void tl_write_file(const char *path, const void *data, size_t n);
void tl_write_text(const char *path, const char *text);
void tl_copy_file(const char *from, const char *to);
/* `text` in a new temporary file "/tmp/dalic_<tag>_XXXXXX<suffix>"; returns its path in a
 * static buffer (valid until the next call). */
const char *tl_write_temp(const char *tag, const char *suffix, const char *text);

/* A finished command: its exit status (-1 when it did not exit) and its output. */
typedef struct tl_cmd {
	int status;
	char *out;
} tl_cmd_t;

/* Runs `$DALIC_BIN <args>` with stdout and stderr captured (a later `2>/dev/null` in args
 * drops stderr), stdin from `input` (NULL: empty). Skips the test when DALIC_BIN is not set
 * (it is set by `make test`). */
tl_cmd_t tl_dalic(const char *input, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tl_cmd_free(tl_cmd_t *c);

/* ---- debug sessions
 * ------------------------------------------------------------------------------ */

/* A session on p's definition. Free with dalic_debug_close. */
dalic_debug_t *tl_debug_open(dalic_pipeline_t *p);
/* A batch of float samples of shape [1]: sample i gets values[i]. */
void tl_debug_feed_floats(dalic_debug_t *s, const char *name, int batch, const float *values);
dalic_debug_status_t tl_debug_status(const dalic_debug_t *s);
/* Instance name of the operator at execution position i. */
const char *tl_debug_op_name(const dalic_debug_t *s, int i);

/* print() replay output collected into one growing string (a dalic_debug_print_fn). */
typedef struct tl_capture {
	char *text;
	size_t n;
} tl_capture_t;
void tl_capture_fn(void *user, const char *text);

/* ---- statistics
 * ------------------------------------------------------------------------------------ */

/* A CPU-only pipeline in mode m: 2 threads, seed 7, memory statistics when asked. */
dalic_pipeline_t *tl_stats_pipeline(const tl_mode_t *m, int batch, bool mem_stats);
/* Operator `op` on the cpu with `input` (may be NULL) as its first input. */
dalic_op_t *tl_stats_op(dalic_pipeline_t *p, const char *op, const char *input);
dalic_stats_t *tl_stats_attach(dalic_pipeline_t *p, bool trace);
/* n iterations with dalic_pipeline_run. */
void tl_stats_run(dalic_pipeline_t *p, int n);
/* Waits (up to 10 s) until the iterations scheduled by `runs` run() calls have finished what
 * they can: the async executors keep prefetched iterations in flight after the last run(). */
void tl_stats_wait_idle(dalic_stats_t *s, const tl_mode_t *m, int runs);
/* Destroys the pipeline (every iteration in flight finishes), then snapshots. */
dalic_stats_snapshot_t *tl_stats_finish(dalic_stats_t *s, dalic_pipeline_t *p);
const dalic_stats_operator_t *tl_stats_find(const dalic_stats_snapshot_t *snap, const char *name);
/* The first internal operator whose name starts with `prefix`. */
const dalic_stats_operator_t *tl_stats_find_prefix(const dalic_stats_snapshot_t *snap,
                                                   const char *prefix);

/* Sleeps `ms` milliseconds. */
void tl_sleep_ms(int ms);

#endif
