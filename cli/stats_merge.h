/*
 * Merging the ranks' statistics documents (cli/rank_stats.c) into the cluster view of issue
 * 19: a per-rank table, imbalance and stragglers, epoch coverage across the shards, and one
 * Chrome trace with a process track per rank. Used by `dalic stats-merge DIR` and by
 * `--ranks` under MPI (the documents gathered to rank 0).
 */
#ifndef DALIC_CLI_STATS_MERGE_H
#define DALIC_CLI_STATS_MERGE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* A rank is a straggler when its samples/s is below (1 - tolerance) times the median rank's;
 * the ranks are imbalanced when fastest / slowest exceeds 1 / (1 - tolerance). */
#define DALIC_MERGE_TOLERANCE 0.2

/* The ranks' documents, sorted by rank. */
typedef struct dalic_merge_set {
	cJSON **docs;
	int num;
} dalic_merge_set_t;

/* Reads every stats-rank-N.json of dir. Prints the error (a file that is not a rank's
 * document, two files of one rank, none at all). */
int dalic_merge_load_dir(const char *dir, dalic_merge_set_t *set);
/* Takes the documents (JSON texts, one per rank); same checks as the directory. */
int dalic_merge_add_text(dalic_merge_set_t *set, const char *text, const char *what);
/* Sorts by rank and checks the ranks are distinct. Prints the error. */
int dalic_merge_finish(dalic_merge_set_t *set);
void dalic_merge_free(dalic_merge_set_t *set);

/* The merged document (docs/scale-out.md): ranks[], totals, imbalance, stragglers,
 * operators[] (time per rank), coverage[] (shards per reader). NULL when out of memory. */
cJSON *dalic_merge_analyze(const dalic_merge_set_t *set, double tolerance);
/* The merged document as `key: value` sections and tables. */
void dalic_merge_print(const cJSON *merged, FILE *f);
/* One Chrome trace of the ranks' trace-rank-N.json files in dir, each rank a process (pid
 * rank + 1), aligned on the ranks' wall clocks. Prints the error. */
int dalic_merge_trace(const char *dir, const dalic_merge_set_t *set, const char *out);

#endif
