/*
 * cast's CUDA kernel (kernels/cuda/cast.cuh) on the CPU grid runner against the CPU cast run
 * through the public API, for every pair of the 12 numeric dtypes: random bits for integer
 * sources (so every saturation bound is hit), values in [-1000, 1000] with fractions for
 * floating ones plus the edge cases of ConvertSat (NaN, infinities, halves that round away
 * from zero, values beyond every integer range). Byte for byte.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/cuda/cast.cuh"

TestSuite(cuda_cast, .timeout = 120);

static const dalic_dtype_t cuda_cast_types[] = {
    DALIC_UINT8, DALIC_UINT16, DALIC_UINT32,  DALIC_UINT64, DALIC_INT8,    DALIC_INT16,
    DALIC_INT32, DALIC_INT64,  DALIC_FLOAT16, DALIC_FLOAT,  DALIC_FLOAT64, DALIC_BOOL};

static void cuda_cast_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_cast_body(ix, (const dalic_cu_cast_params_t *)p);
}

/* The edge cases of ConvertSat, written over the start of sample 0 of a floating input. */
static void cuda_cast_edges(tl_cu_batch_t *in)
{
	static const double edges[] = {NAN,   INFINITY, -INFINITY, 0.5,    -0.5,  1.5,  2.5,
	                               -2.5,  127.5,    -128.5,    255.49, 255.5, 1e20, -1e20,
	                               65519, 65520,    2049,      -0.0,   3e9,   -3e9, 1e-8};
	int n = (int)(sizeof edges / sizeof edges[0]);
	for (int k = 0; k < n && (size_t)k < in->bytes[0] / dalic_dtype_size(in->dtype); k++) {
		if (in->dtype == DALIC_FLOAT64) {
			memcpy(in->data[0] + 8 * k, &edges[k], 8);
		} else if (in->dtype == DALIC_FLOAT) {
			float f = (float)edges[k];
			memcpy(in->data[0] + 4 * k, &f, 4);
		} else if (in->dtype == DALIC_FLOAT16) {
			uint16_t h = dalic_half_from_f32((float)edges[k]);
			memcpy(in->data[0] + 2 * k, &h, 2);
		}
	}
}

static void cuda_cast_pair(dalic_dtype_t from, dalic_dtype_t to)
{
	const int64_t shapes[] = {7, 5, 1, 1, 0, 3, 45, 61};
	char what[64];
	snprintf(what, sizeof what, "%s -> %s", dalic_dtype_name(from), dalic_dtype_name(to));
	tl_cu_batch_t in, out;
	tl_cu_batch_random(&in, from, 2, 4, shapes, 1000, 3u + (uint32_t)from * 17u);
	cuda_cast_edges(&in);
	tl_oneop_t t = tl_oneop("cast", 4, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", to));
	tl_cu_batch_feed(t.p, "in", &in, "HW");
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	for (int c = 0; c < 2; c++) {
		tl_cu_batch_like(&out, cpu, c ? 0xff : 0);
		dalic_cu_cast_sample_t s[4];
		for (int i = 0; i < 4; i++) {
			s[i].in = in.data[i];
			s[i].out = out.data[i];
			s[i].elems = (int64_t)(in.bytes[i] / dalic_dtype_size(from));
		}
		dalic_cu_cast_params_t p = {s, NULL, 4, 0, (int)from, (int)to};
		dalic_cu_cast_grid(&p, NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
		tl_cu_run_grid(dalic_cu_cast_grid(&p, blocks, p.nblocks), cuda_cast_body, &p);
		free(blocks);
		tl_cu_expect_equal(cpu, &out, what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

Test(cuda_cast, every_pair_of_dtypes)
{
	for (size_t a = 0; a < 12; a++)
		for (size_t b = 0; b < 12; b++)
			cuda_cast_pair(cuda_cast_types[a], cuda_cast_types[b]);
}
