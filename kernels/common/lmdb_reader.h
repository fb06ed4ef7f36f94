/*
 * The part readers.caffe and readers.caffe2 share: DALI's LMDBLoader (the reader core with
 * no per-epoch shuffle and resets to the reader's own shard) over the databases of `path`,
 * and the record of each sample slot (its value borrowed from the database, its source
 * "<path> at key <key>").
 */
#ifndef DALIC_KERNELS_LMDB_READER_H
#define DALIC_KERNELS_LMDB_READER_H

#include "engine/kernel.h"
#include "kernels/common/lmdb_db.h"
#include "kernels/common/reader_core.h"

typedef struct lmdb_record {
	const uint8_t *value;
	size_t len;
} lmdb_record_t;

typedef struct dalic_lmdb_reader {
	dalic_rdcore_t core;
	lmdb_set_t set;
	bool opened;
	lmdb_record_t *recs; /* per sample slot */
} dalic_lmdb_reader_t;

/* The operator's state must start with r (the reader core's kernel functions rely on it). */
int dalic_lmdb_reader_init(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx);
int dalic_lmdb_reader_prepare(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx);
/* Picks the batch and fetches each slot's record; sources go to outputs[0..nout). */
int dalic_lmdb_reader_next(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                           int nout);
void dalic_lmdb_reader_fini(dalic_lmdb_reader_t *r);

#endif
