/*
 * `--feed NAME=PATH`: external_source NAME reads its batches from files (cli/feed.c).
 * PATH is a .npy file (the first axis is the samples), a directory (one sample per file, in
 * name order: .npy files as arrays, any other file as its raw bytes, e.g. encoded images
 * for a decoder) or a text file listing such files, one per line (relative to the list's
 * directory; blank and `#` lines skipped). Samples are served in order, batch_size per
 * iteration, and cycle: after the last sample the first follows, mid-batch included — as
 * DALI's external_source with cycle="quiet" on a per-sample source. Batches are copied, so
 * no_copy does not apply; the data is the same whichever iteration asks again (debug mode's
 * restart replays it).
 */
#ifndef DALIC_CLI_FEED_H
#define DALIC_CLI_FEED_H

#include "dalic.h"
#include "dalic_debug.h"

typedef struct dalic_cli_feed dalic_cli_feed_t;

/* Opens every "NAME=PATH" of specs for batches of batch_size samples. Prints the error
 * (every function here, the batch callback included). */
int dalic_cli_feeds_open(const char *const *specs, int n, int batch_size,
                         dalic_cli_feed_t **out);
/* Makes the feeds the sources of p's / s's external sources (borrowed: they must outlive
 * the pipeline / session). Prints the error. */
int dalic_cli_feeds_attach(dalic_cli_feed_t *f, dalic_pipeline_t *p);
int dalic_cli_feeds_attach_debug(dalic_cli_feed_t *f, dalic_debug_t *s);
void dalic_cli_feeds_close(dalic_cli_feed_t *f);
/* The last feed error of this thread; quiet: keep errors for it without printing them
 * (the workbench shows them in its own way). */
const char *dalic_cli_feed_error(void);
void dalic_cli_feeds_quiet(bool quiet);

#endif
