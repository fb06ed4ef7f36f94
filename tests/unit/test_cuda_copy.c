/*
 * The copy kernel (kernels/cuda/copy.cuh) on the CPU grid runner: copy's output and a
 * MakeContiguous-style gather (every sample into one buffer, back to back, as the transfer
 * nodes do) compared byte for byte with the CPU copy operator, over a batch of odd sizes and
 * an empty sample.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/copy.cuh"

TestSuite(cuda_copy, .timeout = 30);

static void cuda_copy_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_copy_body(ix, (const dalic_cu_copy_params_t *)p);
}

static void cuda_copy_run(dalic_cu_copy_sample_t *samples, int n)
{
	dalic_cu_copy_params_t p = {samples, NULL, n, 0};
	dalic_cu_copy_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	int64_t calls =
	    tl_cu_run_grid(dalic_cu_copy_grid(&p, blocks, p.nblocks), cuda_copy_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
}

Test(cuda_copy, copy_and_gather_match_the_cpu)
{
	const int64_t shapes[] = {1, 3, 0, 5, 37, 41, 129, 64, 17, 2049};
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, DALIC_INT16, 2, 5, shapes, 0, 11);
	tl_oneop_t t = tl_oneop("copy", 5, 1, NULL);
	tl_cu_batch_feed(t.p, "in", &in, "AB");
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	dalic_cu_copy_sample_t s[5];
	for (int c = 0; c < 2; c++) {
		tl_cu_batch_like(&out, cpu, c ? 0xff : 0);
		for (int i = 0; i < 5; i++)
			s[i] =
			    (dalic_cu_copy_sample_t){in.data[i], out.data[i], (int64_t)in.bytes[i]};
		cuda_copy_run(s, 5);
		tl_cu_expect_equal(cpu, &out, "copy");
		tl_cu_batch_free(&out);
	}
	/* the gather: one destination buffer, samples back to back */
	size_t total = 0;
	for (int i = 0; i < 5; i++)
		total += in.bytes[i];
	uint8_t *all = malloc(total + 1), *q = all;
	tl_cu_fill(all, total + 1, 0x5a);
	for (int i = 0; i < 5; i++) {
		s[i] = (dalic_cu_copy_sample_t){in.data[i], q, (int64_t)in.bytes[i]};
		q += in.bytes[i];
	}
	cuda_copy_run(s, 5);
	q = all;
	for (int i = 0; i < 5; i++) {
		cr_expect_arr_eq(q, dalic_batch_data(cpu, i), in.bytes[i], "gathered sample %d", i);
		q += in.bytes[i];
	}
	cr_expect_eq(all[total], 0x5a, "the gather wrote past its end");
	free(all);
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}
