/*
 * Batches for the grid-runner tests (tests/unit/test_cuda_<op>.c): samples of different
 * shapes filled with reproducible pseudo-random values, fed to a pipeline through the public
 * API, and a byte-for-byte comparison of a kernel's output with the CPU operator's that
 * names the sample and the first differing element.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_BATCH_H
#define DALIC_TESTS_TESTLIB_CUDA_BATCH_H

#include "tests/testlib.h"
#include "tests/testlib/cuda_grid.h"

#define TL_CU_MAX_SAMPLES 16

typedef struct tl_cu_batch {
	int n, ndim;
	dalic_dtype_t dtype;
	int64_t shape[TL_CU_MAX_SAMPLES][DALIC_MAX_NDIM];
	size_t bytes[TL_CU_MAX_SAMPLES];
	uint8_t *data[TL_CU_MAX_SAMPLES]; /* owned: tl_cu_batch_free */
} tl_cu_batch_t;

/* n samples of `dtype` with shapes[i * ndim ...]; integers take random bits, floating types
 * values in [-lo_hi, lo_hi] with fractions (seeded by `seed`). */
void tl_cu_batch_random(tl_cu_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                        const int64_t *shapes, double lo_hi, uint32_t seed);
/* n samples of `dtype` and the shapes given, zero-filled (outputs of the kernel). */
void tl_cu_batch_alloc(tl_cu_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                       const int64_t *shapes);
/* The same shapes and dtype as the CPU output `cpu`, every byte `canary`. */
void tl_cu_batch_like(tl_cu_batch_t *b, const dalic_batch_t *cpu, uint8_t canary);
void tl_cu_batch_free(tl_cu_batch_t *b);
/* Feeds b to external source `name`. */
void tl_cu_batch_feed(dalic_pipeline_t *p, const char *name, const tl_cu_batch_t *b,
                      const char *layout);
/* Feeds one int32 scalar per sample. */
void tl_cu_feed_ints(dalic_pipeline_t *p, const char *name, int n, const int32_t *v);
/* Every sample of `gpu` equals the CPU output byte for byte (shapes too); `what` names the
 * case in failures. Returns the number of differing samples. */
int tl_cu_expect_equal(const dalic_batch_t *cpu, const tl_cu_batch_t *gpu, const char *what);

#endif
