/*
 * `mark` / `since mark` for memory (GStreamer's leaks-tracer checkpoints, issue 26): a mark
 * keeps each operator's memory counters from one stats document (`dalic stats --json`, or an
 * attach snapshot's "stats"), summed over its outputs — bytes live, buffer growth events,
 * allocations and their bytes —; `since` is another document's counters minus the mark's.
 * Working on the JSON lets a client read a live process it only sees through the socket.
 */
#ifndef DALIC_STATS_GROWTH_H
#define DALIC_STATS_GROWTH_H

#include <cjson/cJSON.h>
#include <stdint.h>

typedef struct dalic_growth_row {
	char *name; /* operator instance name */
	int64_t bytes_live, growth_events, allocations, allocated_bytes;
} dalic_growth_row_t;

typedef struct dalic_growth {
	int64_t iterations; /* of the document (since: the iterations run since the mark) */
	int num_rows;
	dalic_growth_row_t *rows; /* in the document's operator order */
} dalic_growth_t;

/* The counters of `stats` (a stats document). 0, or DALIC_EPARSE when it is not one /
 * DALIC_ENOMEM; *out is then empty. */
int dalic_growth_mark(const cJSON *stats, dalic_growth_t *out);
/* now's counters minus mark's, per operator of now (an operator the mark lacks counts from 0;
 * bytes live may shrink: negative). */
int dalic_growth_since(const dalic_growth_t *mark, const cJSON *now, dalic_growth_t *out);
void dalic_growth_free(dalic_growth_t *g);

#endif
