/* Internals shared by checkpoint_trace.c and checkpoint_run.c (see checkpoint_trace.h). */
#ifndef DALIC_ENGINE_CHECKPOINT_RUN_H
#define DALIC_ENGINE_CHECKPOINT_RUN_H

#include "engine/checkpoint_trace.h"

#include <pthread.h>

typedef struct dalic_ckpt_rec {
	int64_t iteration;
	dalic_philox_t rng;
	dalic_ckpt_reader_t reader;
} dalic_ckpt_rec_t;

struct dalic_ckpt_trace {
	dalic_ckpt_kind_t kind;
	pthread_mutex_t mu;
	dalic_ckpt_rec_t initial; /* before the first recorded iteration */
	dalic_ckpt_rec_t *ring;
	int cap, head, count;
	bool evicted; /* initial is older than the oldest kept record */
};

/* The state the node has now into rec. */
int dalic_ckpt_trace_capture(dalic_op_ctx_t *ctx, dalic_ckpt_kind_t kind, dalic_ckpt_rec_t *rec);
/* The newest state recorded after an iteration <= `iteration`, else the initial one. */
int dalic_ckpt_trace_state_at(dalic_ckpt_trace_t *t, int64_t iteration, dalic_ckpt_rec_t *out);
/* Forgets the records; `initial` becomes the state before the next iteration. */
void dalic_ckpt_trace_reset(dalic_ckpt_trace_t *t, const dalic_ckpt_rec_t *initial);

/* The pipeline's checkpoint bookkeeping (checkpoint_run.c). */
struct dalic_pipeline;
/* After the executor is created: traces for every node when enable_checkpointing (DALI's
 * refusals checked), then the restore of a checkpoint given with set_checkpoint. */
int dalic_ckpt_run_build(struct dalic_pipeline *p);
/* The caller took the outputs of executor iteration `iteration`. */
void dalic_ckpt_run_consumed(dalic_ckpt_run_t *r, int64_t iteration);
/* reset() after the end of data: Python's epoch_idx moves on. */
void dalic_ckpt_run_epoch_end(dalic_ckpt_run_t *r);
void dalic_ckpt_run_free(dalic_ckpt_run_t *r);
/* A seek moved every operator n iterations on: the position follows, the states now are the
 * initial ones. */
struct dalic_exec;
void dalic_ckpt_run_skipped(dalic_ckpt_run_t *r, struct dalic_exec *e, int64_t n);

#endif
