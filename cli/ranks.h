/*
 * One pipeline per rank (issue 19): the rank and world size the launcher put in the
 * environment (torchrun, Open MPI, MPICH/PMI, SLURM), the reader sharding they imply, and the
 * per-rank statistics files that `dalic stats-merge` and `--ranks` combine (docs/scale-out.md).
 */
#ifndef DALIC_CLI_RANKS_H
#define DALIC_CLI_RANKS_H

#include "dalic.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_cli_rank {
	int rank, world;
	int local_rank;        /* -1 when the launcher does not say */
	const char *launcher;  /* "torchrun", "Open MPI", "MPICH/PMI", "SLURM"; NULL: none */
} dalic_cli_rank_t;

/* The rank from the environment; rank 0 of 1 (launcher NULL) when no launcher set any.
 * A malformed value, a rank outside the world, or two launchers that disagree: prints the
 * error naming the variables and returns DALIC_EINVAL. */
int dalic_cli_rank_from_env(dalic_cli_rank_t *out);

/* The sharding flags (--shard-from-env, --shard-id N, --num-shards N). */
typedef struct dalic_cli_shard_opts {
	bool from_env;
	int shard_id, num_shards; /* -1: not given */
	bool active;              /* resolved: set id/num in the readers */
	int id, num;
} dalic_cli_shard_opts_t;

/* Consumes argv[*i] (and its value) when it is a sharding flag; *matched tells. Prints the
 * error and returns DALIC_EINVAL for a bad value. */
int dalic_cli_shard_parse(int argc, char **argv, int *i, dalic_cli_shard_opts_t *s,
                          bool *matched);
/* After parsing: the shard the flags ask for, from the environment's rank/world, then
 * --shard-id/--num-shards. Prints the error and returns DALIC_EINVAL. */
int dalic_cli_shard_resolve(dalic_cli_shard_opts_t *s);
/* Sets shard_id and num_shards of every reader of the loaded, unbuilt pipeline to the
 * resolved shard; nothing when no flag was given. A failure is the library's last error. */
int dalic_cli_shard_apply(const dalic_cli_shard_opts_t *s, dalic_pipeline_t *p);

/* DALIC_TEST_DELAY_RANK=R DALIC_TEST_DELAY_US=U: rank R sleeps U microseconds per sample
 * consumed (a straggler for the tests and demos); nothing in other ranks. */
void dalic_cli_rank_test_delay(int64_t samples);

/* ---- per-rank statistics (rank_stats.c) ------------------------------------------------ */
#include "dalic_stats.h"

#include <cjson/cJSON.h>

/* What a rank's statistics document says besides the collector's numbers. */
typedef struct dalic_cli_rank_run {
	const char *path;      /* PIPELINE */
	long warmup;           /* warm-up iterations left out */
	int64_t start_unix_ns; /* wall clock when the collector started (trace alignment) */
	cJSON *coverage;       /* dalic_cli_rank_coverage's array (consumed) */
} dalic_cli_rank_run_t;

/* `dalic stats --json`'s document: the library's plus where the pipeline came from. */
cJSON *dalic_cli_stats_doc(const dalic_stats_snapshot_t *snap, const char *path, long warmup);
/* The readers' shards (reader metadata) of a built pipeline, before it is destroyed. */
cJSON *dalic_cli_rank_coverage(dalic_pipeline_t *p);
/* A rank's document: dalic_cli_stats_doc plus `rank` (rank, world, launcher, host, pid,
 * start_unix_ns) and `epoch_coverage` (each reader's shard and the samples it read).
 * Prints the error and returns NULL. */
cJSON *dalic_cli_rank_doc(const dalic_stats_snapshot_t *snap, const dalic_cli_rank_t *r,
                          dalic_cli_rank_run_t *run);
/* Writes DIR/stats-rank-N.json (and DIR/trace-rank-N.json when `s` recorded a trace).
 * Creates DIR. Prints the error. */
int dalic_cli_rank_save(const char *dir, const cJSON *doc, int rank, dalic_stats_t *s);
/* ---- --ranks under MPI (ranks_mpi.c) ------------------------------------------------------ */
/* A command run as one rank: fills *doc with the rank's document (dalic_cli_rank_doc) or
 * leaves it NULL when it failed; returns the exit status. */
typedef int (*dalic_cli_rank_body_fn)(int argc, char **argv, const dalic_cli_rank_t *rank,
                                      cJSON **doc);
/* MPI_Init, `body` as this rank, the documents gathered to rank 0, which prints the merged
 * view (text, or JSON with `json`); MPI_Finalize. Without MPI built in: the error, 2. */
int dalic_cli_ranks_run(int argc, char **argv, dalic_cli_rank_body_fn body, bool json);

/* The wall clock now, in nanoseconds since the epoch. */
int64_t dalic_cli_unix_ns(void);

#endif
