/*
 * Shared helpers of the workbench tests: they run the real binary ($DALIC_BIN, set by `make
 * test`; skipped without it) in headless mode — `dalic tui PIPELINE --keys FILE --dump DIR` —
 * and read the text screen dumps it writes (DIR/screen-NNN.txt), exactly what a person would
 * see minus colour. Every run gets its own temporary directory.
 *
 *     tl_tui_t r = tl_tui_run("@arith", "n\ndump\n", NULL);
 *     tl_tui_expect_has(&r, 1, "it 1");
 *     tl_tui_free(&r);
 */
#ifndef DALIC_TESTS_TESTLIB_TUI_H
#define DALIC_TESTS_TESTLIB_TUI_H

#include "tests/testlib.h"

#define TL_TUI_MAX_DUMPS 32

typedef struct tl_tui {
	char dir[64]; /* temporary directory of this run */
	int status;   /* exit status of dalic tui */
	char *out;    /* its stdout and stderr */
	int num_dumps;
	char *dumps[TL_TUI_MAX_DUMPS]; /* dumps[i]: screen-(i+1).txt */
} tl_tui_t;

/* Runs `dalic tui PIPELINE --keys <keys> --dump <dir> ARGS` and loads the dumps. */
tl_tui_t tl_tui_run(const char *pipeline, const char *keys, const char *args);
void tl_tui_free(tl_tui_t *r);
/* Dump number `n` (1-based), asserting it was written. */
const char *tl_tui_dump(const tl_tui_t *r, int n);

#define tl_tui_expect_has(r, n, needle)                                                            \
	cr_expect(strstr(tl_tui_dump(r, n), needle), "dump %d lacks \"%s\":\n%s", n, needle,       \
	          tl_tui_dump(r, n))
#define tl_tui_expect_lacks(r, n, needle)                                                          \
	cr_expect(!strstr(tl_tui_dump(r, n), needle), "dump %d has \"%s\":\n%s", n, needle,        \
	          tl_tui_dump(r, n))

/* Line `row` (0-based) of a dump, copied into buf. */
const char *tl_tui_line(const char *dump, int row, char *buf, size_t n);
/* Columns (code points) of the widest line and the number of lines of a dump. */
void tl_tui_dump_size(const char *dump, int *w, int *h);

#endif
