/*
 * DALI 2.4's checkpoint (dali_proto.Checkpoint, ../shared/reference/dali-checkpoint.md §2): one
 * entry per graph node {operator_name, operator_state}, then {pipeline_data, iterator_data}.
 * The state bytes mean what the operator kind says:
 *   stateless  empty
 *   random     "Philox_<key>_<ctr_hi>:<ctr_lo>_<phase>" (59 ASCII characters, no wrapper)
 *   reader     ReaderStateSnapshot{loader_state{rng (decimal minstd_rand0 state at the start
 *              of the epoch), current_epoch, age (samples returned since that start)}}
 * The reader and writer here are byte-exact with DALI: every field is written, in field
 * order, empty ones included; pipeline_data is Python's json.dumps of {"iter", "epoch_idx"}.
 * Parsing never trusts the bytes: each problem is an error naming the file, the entry (index
 * and operator name) and the byte offset.
 */
#ifndef DALIC_ENGINE_CHECKPOINT_H
#define DALIC_ENGINE_CHECKPOINT_H

#include "engine/rng.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	DALIC_CKPT_STATELESS,
	DALIC_CKPT_RNG,
	DALIC_CKPT_READER,
} dalic_ckpt_kind_t;

/* A reader's loader snapshot (DALI: int32 fields; rng in [1, 2^31 - 2]). */
typedef struct dalic_ckpt_reader {
	uint32_t rng;
	int32_t epoch;
	int32_t age;
} dalic_ckpt_reader_t;

typedef struct dalic_ckpt_entry {
	char *name;
	dalic_ckpt_kind_t kind;
	dalic_philox_t rng;         /* DALIC_CKPT_RNG */
	dalic_ckpt_reader_t reader; /* DALIC_CKPT_READER */
} dalic_ckpt_entry_t;

typedef struct dalic_ckpt {
	dalic_ckpt_entry_t *entries;
	int num_entries, cap;
	bool has_external;     /* external_ctx_cpt present */
	int64_t iter;          /* pipeline_data: outputs consumed */
	int64_t epoch_idx;     /* pipeline_data: Python's epoch counter */
	char *iterator_data;   /* the framework iterator's JSON, NUL-terminated ("" if none) */
} dalic_ckpt_t;

/* An empty checkpoint (iter 0, epoch_idx 0, no iterator data). Free with dalic_ckpt_free. */
dalic_ckpt_t *dalic_ckpt_new(void);
void dalic_ckpt_free(dalic_ckpt_t *c);
/* Appends an entry (name copied). */
int dalic_ckpt_add(dalic_ckpt_t *c, const char *name, dalic_ckpt_kind_t kind,
		   const dalic_philox_t *rng, const dalic_ckpt_reader_t *reader);
/* The entry named `name`, or NULL. */
const dalic_ckpt_entry_t *dalic_ckpt_find(const dalic_ckpt_t *c, const char *name);
int dalic_ckpt_set_iterator_data(dalic_ckpt_t *c, const char *json);

/* Parses checkpoint bytes; `what` (a file name) starts every error message. Errors:
 * DALIC_EPARSE for bytes that are not a DALI 2.4 checkpoint (truncated, garbled, an older
 * DALI's layout, a bad state string, duplicate names, bad pipeline_data JSON). */
int dalic_ckpt_parse(const uint8_t *buf, size_t len, const char *what, dalic_ckpt_t **out);
/* Reads and parses a file (DALIC_EIO when it cannot be read). */
int dalic_ckpt_load_file(const char *path, dalic_ckpt_t **out);
/* DALI's bytes. *buf is new: free(). */
int dalic_ckpt_serialize(const dalic_ckpt_t *c, uint8_t **buf, size_t *len);

/* "stateless" / "random" / "reader". */
const char *dalic_ckpt_kind_name(dalic_ckpt_kind_t k);

#endif
