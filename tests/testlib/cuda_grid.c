/*
 * The CPU grid runner (cuda_grid.h). Blocks run in the order b * 7919 mod nblocks walked from
 * a multiplier coprime with the count (a scramble, not a shuffle: reproducible), threads from
 * the last to the first; a phased body sees each block's threads finish a phase before the
 * next phase starts, which is what __syncthreads guarantees and nothing more.
 */
#include "tests/testlib/cuda_grid.h"

#include "dalic.h"

#include <stdlib.h>
#include <string.h>

static uint64_t tl_cu_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A step coprime with n, so k * step mod n visits every block once. */
static uint64_t tl_cu_step(uint64_t n)
{
	uint64_t step = 7919;
	while (n > 1 && tl_cu_gcd(step, n) != 1)
		step++;
	return step;
}

static dalic_cu_dim3_t tl_cu_unflatten(uint64_t k, dalic_cu_dim3_t d)
{
	dalic_cu_dim3_t r;
	r.x = (unsigned)(k % d.x);
	r.y = (unsigned)(k / d.x % d.y);
	r.z = (unsigned)(k / d.x / d.y);
	return r;
}

static int64_t tl_cu_run(dalic_cu_launch_t l, int phases, tl_cu_body_fn body, tl_cu_phase_fn phased,
                         const void *params)
{
	const uint64_t nblocks = (uint64_t)l.grid.x * l.grid.y * l.grid.z;
	const uint64_t nthreads = (uint64_t)l.block.x * l.block.y * l.block.z;
	const uint64_t step = tl_cu_step(nblocks);
	void *shared = phased ? malloc(l.shared_bytes ? l.shared_bytes : 1) : NULL;
	int64_t calls = 0;
	dalic_cu_idx_t ix;
	ix.block_dim = l.block;
	ix.grid_dim = l.grid;
	for (uint64_t k = 0; k < nblocks; k++) {
		ix.block = tl_cu_unflatten(k * step % nblocks, l.grid);
		if (phased)
			memset(shared, 0, l.shared_bytes);
		for (int ph = 0; ph < phases; ph++) {
			for (uint64_t t = nthreads; t-- > 0;) {
				ix.thread = tl_cu_unflatten(t, l.block);
				if (phased)
					phased(&ix, ph, shared, params);
				else
					body(&ix, params);
				calls++;
			}
		}
	}
	free(shared);
	return calls;
}

int64_t tl_cu_run_grid(dalic_cu_launch_t launch, tl_cu_body_fn body, const void *params)
{
	return tl_cu_run(launch, 1, body, NULL, params);
}

int64_t tl_cu_run_grid_phased(dalic_cu_launch_t launch, int phases, tl_cu_phase_fn body,
                              const void *params)
{
	return tl_cu_run(launch, phases, NULL, body, params);
}

void tl_cu_fill(void *p, size_t n, uint8_t canary)
{
	memset(p, canary, n);
}

static uint32_t tl_cu_rand(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s ^ (*s >> 15);
}

/* Round-to-nearest-even float to IEEE half, for the finite values the tests make. */
static uint16_t tl_cu_half_of(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xff, m = x & 0x7fffffu;
	int he = (int)e - 127 + 15;
	if (e == 0 || he <= 0)
		return (uint16_t)sign;
	if (he >= 31)
		return (uint16_t)(sign | 0x7c00u);
	uint32_t h = sign | ((uint32_t)he << 10) | (m >> 13), rest = m & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
		h++;
	return (uint16_t)h;
}

void tl_cu_random_fill(void *data, int dtype, size_t count, double lo_hi, uint32_t *seed)
{
	size_t es = dalic_dtype_size((dalic_dtype_t)dtype);
	for (size_t k = 0; k < count; k++) {
		double v = ((double)tl_cu_rand(seed) / 4294967296.0 * 2 - 1) * lo_hi;
		uint8_t *p = (uint8_t *)data + k * es;
		if (dtype == DALIC_FLOAT) {
			float f = (float)v;
			memcpy(p, &f, 4);
		} else if (dtype == DALIC_FLOAT64) {
			memcpy(p, &v, 8);
		} else if (dtype == DALIC_FLOAT16) {
			uint16_t h = tl_cu_half_of((float)v);
			memcpy(p, &h, 2);
		} else if (dtype == DALIC_BOOL) {
			*p = (uint8_t)(tl_cu_rand(seed) & 1);
		} else {
			for (size_t j = 0; j < es; j++)
				p[j] = (uint8_t)(tl_cu_rand(seed) >> 7);
		}
	}
}
