/*
 * dalic's Philox4x32-10 (kernels/common/philox.h) against NVIDIA's: libcurand's host generator
 * (curandCreateGeneratorHost, CURAND_RNG_PSEUDO_PHILOX4_32_10), which runs on the CPU, so the
 * check needs the CUDA toolkit but no GPU. Built only where the Makefile finds CUDA.
 *
 * The host generator's layout, found by searching its outputs in dalic's streams and pinned
 * here: with seed S and offset O (default ordering), output N = O + i is word N mod 4 of the
 * block at key = S, counter high word (the sequence, ctr_hi) = (N / 4) mod 2^16 and counter
 * low word (ctr_lo) = N / 2^18 — it lays 65536 sequences side by side, four outputs each, as
 * 65536 device threads with curand_init(S, thread, ...) would. So an offset reaches any key,
 * any ctr_hi below 2^16 and ctr_lo below 2^46 (both 32-bit words of ctr_lo's low part and the
 * high word up to 2^14); the words are dalic's / DALI's: x = ctr_lo low, y = ctr_lo high,
 * z = ctr_hi low, w = ctr_hi high, key low and high.
 */
#include "tests/testlib.h"

#ifdef DALIC_HAVE_CUDA
#include "kernels/common/philox.h"

#include <curand.h>
#include <stdlib.h>

TestSuite(curand_philox, .timeout = 60);

#define CURAND_PHILOX_SEQS 65536u

/* The host generator's first n outputs for seed `key` and offset `offset`. */
static uint32_t *curand_philox_host(uint64_t key, uint64_t offset, size_t n)
{
	curandGenerator_t g;
	cr_assert_eq(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10),
	             CURAND_STATUS_SUCCESS);
	cr_assert_eq(curandSetPseudoRandomGeneratorSeed(g, key), CURAND_STATUS_SUCCESS);
	cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
	uint32_t *out = malloc(n * sizeof *out);
	cr_assert_not_null(out);
	cr_assert_eq(curandGenerate(g, out, n), CURAND_STATUS_SUCCESS);
	curandDestroyGenerator(g);
	return out;
}

/* Output N of the host generator as dalic computes it (the layout above). */
static uint32_t curand_philox_dalic(uint64_t key, uint64_t N)
{
	dalic_philox_t p;
	dalic_philox_init(&p, key, (N / 4) % CURAND_PHILOX_SEQS, N / (4 * CURAND_PHILOX_SEQS),
	                  (int)(N % 4));
	return dalic_philox_next(&p);
}

/* The offset at which the host generator starts with the block (key, ctr_hi, ctr_lo) at word
 * `phase` (ctr_hi < 2^16, ctr_lo < 2^46). */
static uint64_t curand_philox_offset(uint64_t ctr_hi, uint64_t ctr_lo, int phase)
{
	return ctr_lo * 4 * CURAND_PHILOX_SEQS + ctr_hi * 4 + (uint64_t)phase;
}

static void curand_philox_expect(uint64_t key, uint64_t offset, size_t n)
{
	uint32_t *ref = curand_philox_host(key, offset, n);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t mine = curand_philox_dalic(key, offset + i);
		if (mine != ref[i] && bad++ < 4)
			cr_expect_eq(mine, ref[i],
			             "key %016llx, output %llu: dalic %08x, curand %08x",
			             (unsigned long long)key, (unsigned long long)(offset + i), mine,
			             ref[i]);
	}
	cr_expect_eq(bad, 0, "key %016llx offset %llu: %zu of %zu outputs differ",
	             (unsigned long long)key, (unsigned long long)offset, bad, n);
	free(ref);
}

Test(curand_philox, raw_outputs_for_seeds_and_offsets)
{
	static const uint64_t keys[] = {0, 1234, 0x693530C3, 0xCAFEBABEFEEDCAFEull,
	                                0xFFFFFFFFFFFFFFFFull};
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		curand_philox_expect(keys[k], 0, 4096);
		curand_philox_expect(keys[k], 5, 1027); /* mid-block start, odd count */
		/* the high word of ctr_lo, and a start just before ctr_lo's carry */
		curand_philox_expect(keys[k], curand_philox_offset(65530, 0x100000007ull, 3), 301);
		curand_philox_expect(keys[k], curand_philox_offset(7, 0x3FFFFFFFFFFFull, 1), 64);
	}
}

/* A whole pass over the 65536 sequences and into the next ctr_lo: 2^18 + 1000 outputs. */
Test(curand_philox, every_sequence_word_of_a_pass)
{
	curand_philox_expect(0x0123456789ABCDEFull, 0, 4 * CURAND_PHILOX_SEQS + 1000);
}

/* The same numbers through dalic's stepping: the sample generator of sample i (ctr_hi += i *
 * 65537) of a master some iterations on (ctr_hi = batch sizes so far) and element p of it
 * (p * 257 outputs on), as the random kernels start them, read from the host generator at the
 * offset of their (ctr_hi, ctr_lo, phase). Only ctr_hi below 2^16 is reachable there: sample 0
 * of each master. */
Test(curand_philox, sample_and_element_streams)
{
	const uint64_t key = 0x34BE6725;
	static const uint64_t iters[] = {0, 5, 60000};
	for (size_t k = 0; k < 3; k++) {
		dalic_philox_t master;
		dalic_philox_init(&master, key, iters[k], 0, 0);
		dalic_philox_t s = dalic_rng_for_sample(&master, 0);
		for (int64_t p = 0; p < 5000; p += 333) {
			dalic_philox_t e = dalic_rng_for_element(&s, p);
			const int left = 4 - e.phase; /* the rest of the element's block */
			uint64_t off = curand_philox_offset(e.ctr[1], e.ctr[0], e.phase);
			uint32_t *ref = curand_philox_host(key, off, (size_t)left);
			for (int w = 0; w < left; w++)
				cr_expect_eq(dalic_philox_next(&e), ref[w],
				             "master ctr_hi %llu element %lld draw %d",
				             (unsigned long long)iters[k], (long long)p, w);
			free(ref);
		}
	}
}
#endif
