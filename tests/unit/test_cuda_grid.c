/*
 * The CPU grid runner and the block map (tests/testlib/cuda_grid.h, kernels/cuda/cu_defs.h):
 * every (block, thread) of 3-D launches runs exactly once with the right gridDim/blockDim;
 * phases separate like __syncthreads (a shared-memory block sum that reads other threads'
 * phase-0 writes in phase 1); the block map covers each sample's items once, in order.
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_grid.h"

TestSuite(cuda_grid, .timeout = 30);

typedef struct cuda_grid_seen {
	int count[3 * 2 * 5][4 * 3 * 2];
	bool dims_ok;
} cuda_grid_seen_t;

static void cuda_grid_mark(const dalic_cu_idx_t *ix, const void *params)
{
	cuda_grid_seen_t *s = (cuda_grid_seen_t *)params; /* the test's own scratch */
	unsigned b = (ix->block.z * ix->grid_dim.y + ix->block.y) * ix->grid_dim.x + ix->block.x;
	unsigned t =
	    (ix->thread.z * ix->block_dim.y + ix->thread.y) * ix->block_dim.x + ix->thread.x;
	s->dims_ok &= ix->grid_dim.x == 3 && ix->grid_dim.y == 2 && ix->grid_dim.z == 5 &&
	              ix->block_dim.x == 4 && ix->block_dim.y == 3 && ix->block_dim.z == 2;
	s->count[b][t]++;
}

Test(cuda_grid, every_index_once)
{
	static cuda_grid_seen_t s;
	s.dims_ok = true;
	dalic_cu_launch_t l = {dalic_cu_dim3(3, 2, 5), dalic_cu_dim3(4, 3, 2), 0};
	cr_expect_eq(tl_cu_run_grid(l, cuda_grid_mark, &s), 30 * 24);
	cr_expect(s.dims_ok);
	for (int b = 0; b < 30; b++)
		for (int t = 0; t < 24; t++)
			cr_expect_eq(s.count[b][t], 1, "block %d thread %d", b, t);
}

/* Phase 0: each thread stores its value in shared memory; phase 1: thread 0 sums them. A
 * runner that interleaved phases would have thread 0 (run last) sum too early. */
typedef struct cuda_grid_sum {
	const int *in;
	int *out;
} cuda_grid_sum_t;

static void cuda_grid_sum_phase(const dalic_cu_idx_t *ix, int phase, void *shared,
                                const void *params)
{
	const cuda_grid_sum_t *p = (const cuda_grid_sum_t *)params;
	int *sh = (int *)shared;
	unsigned base = ix->block.x * ix->block_dim.x;
	if (phase == 0) {
		sh[ix->thread.x] = p->in[base + ix->thread.x];
	} else if (ix->thread.x == 0) {
		int sum = 0;
		for (unsigned k = 0; k < ix->block_dim.x; k++)
			sum += sh[k];
		p->out[ix->block.x] = sum;
	}
}

Test(cuda_grid, phases_are_sync_points)
{
	int in[7 * 16], out[7], want[7] = {0};
	for (int k = 0; k < 7 * 16; k++) {
		in[k] = k * k % 23 - 11;
		want[k / 16] += in[k];
	}
	cuda_grid_sum_t p = {in, out};
	dalic_cu_launch_t l = {dalic_cu_dim3(7, 1, 1), dalic_cu_dim3(16, 1, 1), 16 * sizeof(int)};
	cr_expect_eq(tl_cu_run_grid_phased(l, 2, cuda_grid_sum_phase, &p), 7 * 16 * 2);
	for (int b = 0; b < 7; b++)
		cr_expect_eq(out[b], want[b], "block %d", b);
}

Test(cuda_grid, block_map_covers_each_sample)
{
	const int64_t items[] = {10, 0, 4, 1};
	/* chunks of 4: sample 0 -> [0,4) [4,8) [8,10); sample 2 -> [0,4); sample 3 -> [0,1) */
	int64_t n = 0;
	for (int i = 0; i < 4; i++)
		n = dalic_cu_block_map_add(NULL, 0, n, i, items[i], 4);
	cr_assert_eq(n, 5);
	dalic_cu_block_t b[5];
	n = 0;
	for (int i = 0; i < 4; i++)
		n = dalic_cu_block_map_add(b, 5, n, i, items[i], 4);
	const int64_t want[5][3] = {{0, 0, 4}, {0, 4, 8}, {0, 8, 10}, {2, 0, 4}, {3, 0, 1}};
	for (int k = 0; k < 5; k++) {
		cr_expect_eq(b[k].sample, want[k][0], "block %d", k);
		cr_expect_eq(b[k].start, want[k][1], "block %d", k);
		cr_expect_eq(b[k].end, want[k][2], "block %d", k);
	}
}
