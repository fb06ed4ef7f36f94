/*
 * transpose's CUDA kernel (kernels/cuda/transpose.cuh) on the CPU grid runner against the CPU
 * transpose run through the public API: HWC -> CHW uint8, 4-D permutations of float and
 * float64, the default (reversed) permutation and extent-1 dims, batches of odd shapes with an
 * empty sample; byte for byte.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/transpose.cuh"

TestSuite(cuda_transpose, .timeout = 60);

static void cuda_transpose_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_transpose_body(ix, (const dalic_cu_transpose_params_t *)p);
}

/* perm NULL: the operator's default, the dims reversed. */
static void cuda_transpose_case(const char *what, dalic_dtype_t dtype, int ndim, int n,
                                const int64_t *shapes, const int64_t *perm)
{
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, dtype, ndim, n, shapes, 1000, 5u + (uint32_t)ndim);
	tl_oneop_t t = tl_oneop("transpose", n, 1, NULL);
	if (perm)
		ASSERT_OK(dalic_op_set_ints(t.op, "perm", ndim, perm));
	tl_cu_batch_feed(t.p, "in", &in, NULL);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	int p[DALIC_MAX_NDIM];
	for (int d = 0; d < ndim; d++)
		p[d] = perm ? (int)perm[d] : ndim - 1 - d;
	for (int c = 0; c < 2; c++) {
		tl_cu_batch_like(&out, cpu, c ? 0xff : 0);
		dalic_cu_transpose_sample_t s[TL_CU_MAX_SAMPLES];
		for (int i = 0; i < n; i++) {
			s[i].in = in.data[i];
			s[i].out = out.data[i];
			dalic_transpose_plan_make(&s[i].plan, ndim, in.shape[i], p);
		}
		dalic_cu_transpose_params_t prm = {s, NULL, n, 0, (int64_t)dalic_dtype_size(dtype)};
		dalic_cu_transpose_grid(&prm, NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
		tl_cu_run_grid(dalic_cu_transpose_grid(&prm, blocks, prm.nblocks),
		               cuda_transpose_body, &prm);
		free(blocks);
		tl_cu_expect_equal(cpu, &out, what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

Test(cuda_transpose, hwc_to_chw_u8)
{
	const int64_t shapes[] = {31, 47, 3, 1, 1, 3, 0, 4, 3, 65, 33, 4};
	const int64_t perm[] = {2, 0, 1};
	cuda_transpose_case("HWC->CHW u8", DALIC_UINT8, 3, 4, shapes, perm);
}

Test(cuda_transpose, four_dims_and_extent_one)
{
	const int64_t shapes[] = {2, 3, 17, 5, 1, 9, 1, 7, 4, 1, 33, 2};
	const int64_t perm[] = {3, 1, 0, 2};
	cuda_transpose_case("4-D float", DALIC_FLOAT, 4, 3, shapes, perm);
	cuda_transpose_case("4-D f64 reversed", DALIC_FLOAT64, 4, 3, shapes, NULL);
	const int64_t perm2[] = {0, 2, 1, 3};
	cuda_transpose_case("4-D i16 middle swap", DALIC_INT16, 4, 3, shapes, perm2);
}
