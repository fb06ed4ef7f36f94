/*
 * Batches (DALI's TensorList): N samples of one dtype, ndim, layout and memory kind, each
 * with its own shape. Storage is contiguous (one buffer, samples back to back) or per sample
 * (one buffer each). Contiguous storage either places each sample at a 64-byte boundary
 * (MakeContiguous, gpu and mixed outputs) or is packed: samples exactly back to back, as
 * DALI 2.4 stores a CPU operator's batch. One buffer per batch means the grow/shrink rule
 * sees the batch's total, which varies little between iterations even when each sample's size
 * varies a lot (random crops, files): per-sample buffers would be reallocated every iteration.
 * A sample may also borrow another batch's data (pass-through operators such as conditional
 * split/merge and reshape); borrowed samples are never freed here. A batch whose every sample
 * borrows one contiguous batch (MakeContiguous passing its input through) records it in
 * `shares`, so statistics can report the memory it stands for.
 *
 * Invariants: shapes and pointers arrays hold `cap_samples` entries; after dalic_batch_alloc
 * every sample i in [0, num_samples) has ptrs[i] pointing at sample_bytes(i) valid bytes.
 * Resizing follows the buffer growth rules, so a fixed-shape pipeline stops allocating after
 * its first iterations.
 */
#ifndef DALIC_ENGINE_BATCH_H
#define DALIC_ENGINE_BATCH_H

#include "dalic.h"
#include "engine/memory.h"

struct dalic_batch {
	dalic_dtype_t dtype;
	int ndim;
	char layout[DALIC_MAX_NDIM + 1];
	dalic_mem_kind_t mem;
	bool gpu;        /* the data node's device tag ("gpu" even when emulated) */
	bool contiguous; /* storage mode */
	bool packed;     /* contiguous without the 64-byte sample alignment */
	int num_samples, cap_samples;
	int64_t *shapes;     /* cap_samples * DALIC_MAX_NDIM */
	void **ptrs;         /* sample data */
	bool *borrowed;      /* sample i points into another batch */
	const char **sources; /* borrowed strings (reader file names), may be NULL entries */
	dalic_buffer_t whole;    /* contiguous storage */
	dalic_buffer_t *samples; /* per-sample storage, cap_samples entries */
	dalic_mem_counter_t *owner;
	size_t hint_bytes_per_sample; /* bytes_per_sample_hint, 0 = none */
	const dalic_batch_t *shares;  /* every sample borrows this batch (set by share_all) */
};

void dalic_batch_init(dalic_batch_t *b, dalic_mem_kind_t mem, bool contiguous,
		      dalic_mem_counter_t *owner);
void dalic_batch_free(dalic_batch_t *b);
/* Sets sample count, dtype and ndim (keeps layout unless ndim changes). Shapes are zeroed. */
int dalic_batch_set_meta(dalic_batch_t *b, int num_samples, dalic_dtype_t dtype, int ndim);
void dalic_batch_set_layout(dalic_batch_t *b, const char *layout);
static inline int64_t *dalic_batch_shape_mut(dalic_batch_t *b, int i)
{
	return b->shapes + (size_t)i * DALIC_MAX_NDIM;
}
void dalic_batch_set_shape(dalic_batch_t *b, int i, const int64_t *dims);
/* Same shape for every sample. */
void dalic_batch_set_uniform_shape(dalic_batch_t *b, const int64_t *dims);
/* Elements of sample i (INT64_MAX for a shape dalic_batch_alloc would refuse). */
int64_t dalic_batch_sample_elems(const dalic_batch_t *b, int i);
/* "[2, 3]" (brackets "[]") or "(2, 3)" (brackets "()") into buf, for messages. */
void dalic_batch_format_shape(const int64_t *dims, int ndim, const char *brackets, char *buf,
                              size_t n);
size_t dalic_batch_nbytes(const dalic_batch_t *b);    /* bytes of all samples */
size_t dalic_batch_capacity(const dalic_batch_t *b);  /* bytes allocated */
size_t dalic_batch_max_sample_bytes(const dalic_batch_t *b);
bool dalic_batch_uniform_shape(const dalic_batch_t *b);
/* Allocates storage for the shapes set (skipping borrowed samples). Every sample's shape is
 * checked first (extents >= 0, bytes representable, numpy's rule: dalic_ck_shape_bytes) and
 * the storage is charged against the memory budget; a failure names the sample, its file and
 * shape (the executor adds the operator). */
int dalic_batch_alloc(dalic_batch_t *b);
/* Presizes storage for `bytes_per_sample` bytes of `max_samples` samples (DALI's hint). */
int dalic_batch_reserve(dalic_batch_t *b, size_t bytes_per_sample, int max_samples);
static inline void *dalic_batch_mut(dalic_batch_t *b, int i)
{
	return b->ptrs[i];
}
/* True when src's samples lie back to back in one buffer (a packed batch, or samples borrowed
 * from one in order) of memory of b's kind: b may then pass them on with
 * dalic_batch_share_all instead of copying. */
bool dalic_batch_can_share_all(const dalic_batch_t *b, const dalic_batch_t *src);
/* b takes src's meta and every sample borrows src's (b's own storage is released, as DALI's
 * ShareData does); b->shares = src until the next set_meta. */
int dalic_batch_share_all(dalic_batch_t *b, const dalic_batch_t *src);
/* Sample i of b borrows sample j of src (data pointer and shape; dtype must match). */
void dalic_batch_share_sample(dalic_batch_t *b, int i, const dalic_batch_t *src, int j);
/* Deep copy of src's samples into b's own storage (b keeps its memory kind and mode). */
int dalic_batch_copy(dalic_batch_t *b, const dalic_batch_t *src);
/* Copies dtype/ndim/layout/shapes (not data) from src; then call dalic_batch_alloc. */
int dalic_batch_copy_meta(dalic_batch_t *b, const dalic_batch_t *src);

#endif
