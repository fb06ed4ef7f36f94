/*
 * normalize's CUDA kernel (kernels/cuda/normalize.cuh) on the CPU grid runner, compared byte
 * for byte with the CPU operator run through the public API: every stage of the batch
 * (partial sums, statistics, batch statistics, apply) run in order over host copies, for
 * computed, scalar and per-sample tensor statistics, per sample and over the batch, several
 * axis sets, int8 ... uint32 and float inputs and outputs, odd and empty shapes, epsilon,
 * ddof, negative scales. The statistics' scratch starts as NaN, so a value read before a
 * stage writes it shows.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/cuda_normalize.h"
#include "tests/testlib/oneop.h"

#include "kernels/common/reduce.h"
#include "kernels/cuda/normalize.cuh"

#include <math.h>

TestSuite(cuda_normalize, .timeout = 120);

static void cuda_norm_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_normalize_body(ix, (const dalic_cu_normalize_params_t *)p);
}

/* Runs every stage of the kernel over `in` into outputs like `cpu` prefilled with `canary`. */
static void cuda_norm_kernel(const tl_cu_norm_case_t *c, const tl_cu_batch_t *in,
                             const tl_cu_batch_t *tmean, const tl_cu_batch_t *tsd,
                             const dalic_batch_t *cpu, uint8_t canary, tl_cu_batch_t *out)
{
	tl_cu_batch_like(out, cpu, canary);
	dalic_cu_normalize_args_t a;
	tl_cu_norm_args(c, &a);
	dalic_cu_normalize_sample_t samples[TL_CU_MAX_SAMPLES];
	const void *ins[TL_CU_MAX_SAMPLES];
	void *outs[TL_CU_MAX_SAMPLES];
	const float *means[TL_CU_MAX_SAMPLES], *sds[TL_CU_MAX_SAMPLES];
	for (int i = 0; i < c->n; i++) {
		ins[i] = in->data[i];
		outs[i] = out->data[i];
		means[i] = tmean ? (const float *)tmean->data[i] : NULL;
		sds[i] = tsd ? (const float *)tsd->data[i] : NULL;
	}
	int64_t nfloats, nnodes;
	dalic_cu_normalize_prepare(&a, samples, c->n, c->shapes, ins, outs, means, sds, NULL, NULL,
	                           NULL, &nfloats, &nnodes);
	float *scratch = malloc(sizeof(float) * (size_t)(nfloats + 1));
	dalic_norm_node_t *nodes = calloc((size_t)nnodes + 1, sizeof *nodes);
	for (int64_t k = 0; k < nfloats; k++)
		scratch[k] = NAN;
	int64_t nf2, nn2;
	dalic_cu_normalize_prepare(&a, samples, c->n, c->shapes, ins, outs, means, sds, scratch,
	                           nodes, nodes, &nf2, &nn2);
	cr_expect_eq(nf2, nfloats);
	cr_expect_eq(nn2, nnodes);
	dalic_cu_normalize_params_t st[8];
	int ns = dalic_cu_normalize_stages(&a, samples, c->n, st);
	for (int k = 0; k < ns; k++) {
		dalic_cu_normalize_grid(&st[k], NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)st[k].nblocks + 1, sizeof *blocks);
		dalic_cu_launch_t l = dalic_cu_normalize_grid(&st[k], blocks, st[k].nblocks);
		int64_t calls = tl_cu_run_grid(l, cuda_norm_body, &st[k]);
		cr_expect_eq(calls, st[k].nblocks * DALIC_CU_BLOCK_THREADS);
		free(blocks);
	}
	free(nodes);
	free(scratch);
}

static void cuda_norm_case(const tl_cu_norm_case_t *c)
{
	tl_cu_batch_t in, out, tmean, tsd;
	int64_t ps[TL_CU_MAX_SAMPLES * DALIC_MAX_NDIM];
	tl_cu_norm_param_shapes(c, ps);
	tl_cu_batch_random(&in, c->in, c->ndim, c->n, c->shapes, TL_CU_NORM_IN_RANGE,
	                   tl_cu_norm_seed(c, 0));
	bool tm = c->mean == TL_CU_NORM_TENSOR, ts = c->stddev == TL_CU_NORM_TENSOR;
	if (tm)
		tl_cu_batch_random(&tmean, DALIC_FLOAT, c->ndim, c->n, ps, TL_CU_NORM_MEAN_RANGE,
		                   tl_cu_norm_seed(c, 1));
	if (ts) {
		tl_cu_batch_random(&tsd, DALIC_FLOAT, c->ndim, c->n, ps, TL_CU_NORM_SD_RANGE,
		                   tl_cu_norm_seed(c, 2));
		for (int i = 0; i < c->n; i++)
			tl_cu_norm_fix_stddev((float *)tsd.data[i], tsd.bytes[i] / sizeof(float));
	}
	const char *argin[3] = {NULL, NULL, NULL};
	int na = 0;
	if (tm)
		argin[na++] = "mean";
	if (ts)
		argin[na++] = "stddev";
	tl_oneop_t t = tl_oneop("normalize", c->n, 1, na ? argin : NULL);
	ASSERT_OK(tl_cu_norm_set_args(t.op, c));
	tl_cu_batch_feed(t.p, "in", &in, c->layout);
	if (tm)
		tl_cu_batch_feed(t.p, "mean", &tmean, NULL);
	if (ts)
		tl_cu_batch_feed(t.p, "stddev", &tsd, NULL);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	for (int k = 0; k < 2; k++) {
		cuda_norm_kernel(c, &in, tm ? &tmean : NULL, ts ? &tsd : NULL, cpu, k ? 0xff : 0x00,
		                 &out);
		tl_cu_expect_equal(cpu, &out, c->what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
	if (tm)
		tl_cu_batch_free(&tmean);
	if (ts)
		tl_cu_batch_free(&tsd);
}

/* Every case of tests/testlib/cuda_normalize.h in `group`. */
static void cuda_norm_group(const char *group)
{
	int ran = 0;
	for (int k = 0; k < TL_CU_NORM_NCASES; k++)
		if (!strcmp(tl_cu_norm_cases[k].group, group)) {
			cuda_norm_case(&tl_cu_norm_cases[k]);
			ran++;
		}
	cr_expect_gt(ran, 0, "no case in group %s", group);
}

/* Computed statistics per sample over every axis: uint8 and float, epsilon, ddof, negative
 * scale, shift. */
Test(cuda_normalize, computed_per_sample_over_all_axes)
{
	cuda_norm_group("all_axes");
}

/* Per channel (HW), per pixel (C), per column (W), HC by name; int16 to uint8, uint16 to
 * int16, int32 with epsilon. */
Test(cuda_normalize, computed_per_channel_and_per_axis)
{
	cuda_norm_group("per_axis");
}

/* batch=True: the per-sample sums added pairwise across the batch; a given mean or stddev. */
Test(cuda_normalize, batch_statistics)
{
	cuda_norm_group("batch");
}

/* Scalar mean and stddev (with and without epsilon), one scalar and one computed, a zero
 * deviation. */
Test(cuda_normalize, given_scalars)
{
	cuda_norm_group("given");
}

/* Per-sample mean / stddev tensors (extent 1 on the reduced axes), with a zero deviation;
 * axes implied by the tensors' shapes or given. */
Test(cuda_normalize, per_sample_tensors)
{
	cuda_norm_group("tensors");
}

/* Reductions long enough for many chunks (1-D of 70001), 4-D with axes apart. */
Test(cuda_normalize, long_rows_and_deep_trees)
{
	cuda_norm_group("long");
}

static uint32_t cuda_norm_rand(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* The walk (chunks listed, each walked, the top read back) gives reduce.c's sums bit for bit,
 * for random shapes of 1 to 5 dims (extents 0 to 70, many 1s), random masks, chunk limits of
 * 33 to 512, sums and variances of float and uint8 inputs. */
Test(cuda_normalize, tree_walk_is_reduce_c_order)
{
	uint32_t seed = 17;
	for (int trial = 0; trial < 300; trial++) {
		int64_t shape[5] = {0};
		int nd = 1 + (int)(cuda_norm_rand(&seed) % 5);
		int64_t vol = 1;
		for (int d = 0; d < nd; d++) {
			uint32_t r = cuda_norm_rand(&seed) % 10;
			shape[d] = r < 3   ? 1
			           : r < 4 ? (int64_t)(cuda_norm_rand(&seed) % 3)
			                   : 1 + cuda_norm_rand(&seed) % 70;
			if (vol * shape[d] > 300000)
				shape[d] = 1;
			vol *= shape[d];
		}
		uint64_t mask = 1 + cuda_norm_rand(&seed) % ((1u << nd) - 1);
		int type = trial % 3 ? DALIC_FLOAT : DALIC_UINT8, kind = trial % 2;
		int64_t chunk =
		    trial % 4 == 0 ? DALIC_CU_NORM_CHUNK : 33 + cuda_norm_rand(&seed) % 200;
		void *data = malloc((size_t)(vol ? vol : 1) * 4);
		tl_cu_random_fill(data, type, (size_t)vol, 1e4, &seed);
		dalic_norm_tree_t t;
		dalic_norm_tree_make(&t, shape, nd, mask);
		float *mean = malloc(sizeof(float) * (size_t)(t.nout + 1));
		float *want = malloc(sizeof(float) * (size_t)(t.nout + 1));
		tl_cu_random_fill(mean, DALIC_FLOAT, (size_t)t.nout, 100, &seed);
		dalic_reduce_run(kind ? DALIC_REDUCE_VARIANCE : DALIC_REDUCE_SUM, type, data, shape,
		                 nd, mask, DALIC_FLOAT, want, mean);
		dalic_norm_node_t root = dalic_norm_tree_root(&t);
		int64_t nc = 0;
		bool cut = dalic_norm_node_count(&t, &root) > chunk;
		if (cut)
			dalic_norm_tree_eval(&t, root, kind, type, NULL, 0, 0, chunk, NULL, NULL,
			                     &nc);
		dalic_norm_node_t *nodes = calloc((size_t)nc + 1, sizeof *nodes);
		float *parts = malloc(sizeof(float) * (size_t)(nc + 1));
		int64_t nc2 = 0;
		if (cut)
			dalic_norm_tree_eval(&t, root, kind, type, NULL, 0, 0, chunk, NULL, nodes,
			                     &nc2);
		cr_expect_eq(nc2, nc);
		for (int64_t k = 0; k < t.nout; k++) {
			int64_t base = dalic_norm_tree_base(&t, k), next = 0;
			for (int64_t j = 0; j < nc; j++) {
				int64_t n2 = 0;
				parts[j] = dalic_norm_tree_eval(&t, nodes[j], kind, type, data,
				                                base, mean[k], -1, NULL, NULL, &n2);
			}
			float got = dalic_norm_tree_eval(&t, root, kind, type, data, base, mean[k],
			                                 cut ? chunk : -1, parts, NULL, &next);
			cr_expect_eq(next, nc);
			if (memcmp(&got, &want[k], sizeof got)) {
				cr_expect(0,
				          "trial %d: %dD shape %lld %lld %lld %lld %lld mask %llx, "
				          "output %lld: %a, reduce.c %a",
				          trial, nd, (long long)shape[0], (long long)shape[1],
				          (long long)shape[2], (long long)shape[3],
				          (long long)shape[4], (unsigned long long)mask,
				          (long long)k, got, want[k]);
				break;
			}
		}
		free(parts);
		free(nodes);
		free(want);
		free(mean);
		free(data);
	}
}

#ifdef __SSE__
#include <xmmintrin.h>

/* DALI's ScaleRSqrtKeepZero as its CPU kernel writes it (and normalize.c did before the
 * arithmetic moved to normalize_px.h): four values at a time with SSE, the tail scalar. */
static void cuda_norm_sse_fold(float *data, int64_t n, float eps, float rdiv, float mul)
{
	int64_t i = 0;
	const __m128 r4 = _mm_set1_ps(rdiv), m4 = _mm_set1_ps(mul * 0.5f), three = _mm_set1_ps(3);
	const __m128 e4 = _mm_set1_ps(eps), zero = _mm_setzero_ps();
	for (; i + 4 <= n; i += 4) {
		__m128 x = _mm_mul_ps(_mm_loadu_ps(data + i), r4), y;
		if (eps) {
			x = _mm_add_ps(x, e4);
			y = _mm_rsqrt_ps(x);
		} else {
			y = _mm_and_ps(_mm_rsqrt_ps(x), _mm_cmpneq_ps(x, zero));
		}
		y = _mm_mul_ps(y, _mm_sub_ps(three, _mm_mul_ps(x, _mm_mul_ps(y, y))));
		_mm_storeu_ps(data + i, _mm_mul_ps(y, m4));
	}
	for (; i < n; i++) {
		volatile float x = eps ? data[i] * rdiv + eps : data[i] * rdiv;
		float y = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
		volatile float h = x * 0.5f * y;
		volatile float r = y * (1.5f - h * y);
		data[i] = eps || x != 0 ? r * mul : 0;
	}
}

/* The shared fold, element by element, gives the SSE loop's bytes for every position of
 * arrays of 0 to 11 values, zeros and negative scales included. */
Test(cuda_normalize, fold_matches_the_sse_loop)
{
	uint32_t seed = 5;
	const float eps[] = {0, 0.5f, 1e-6f}, mul[] = {1, -2.5f, 64};
	for (int n = 0; n < 12; n++)
		for (int e = 0; e < 3; e++)
			for (int m = 0; m < 3; m++) {
				float v[12], want[12];
				tl_cu_random_fill(v, DALIC_FLOAT, 12, 1000, &seed);
				for (int k = 0; k < 12; k++)
					v[k] = k % 5 == 2 ? 0.0f : fabsf(v[k]);
				memcpy(want, v, sizeof v);
				cuda_norm_sse_fold(want, n, eps[e], 0.37f, mul[m]);
				for (int k = 0; k < n; k++) {
					float got =
					    dalic_norm_fold(v[k], k, n, eps[e], 0.37f, mul[m]);
					cr_expect(!memcmp(&got, &want[k], sizeof got),
					          "n %d eps %g mul %g: element %d: %a, SSE %a", n,
					          eps[e], mul[m], k, got, want[k]);
				}
			}
}
#endif
