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
#include "tests/testlib/oneop.h"

#include "kernels/cuda/normalize.cuh"

#include <math.h>

TestSuite(cuda_normalize, .timeout = 120);

enum { CN_CALC, CN_SCALAR, CN_TENSOR };

typedef struct cuda_norm_case {
	const char *what;
	dalic_dtype_t in, out;
	int ndim, n;
	const int64_t *shapes;
	const char *layout;
	const int64_t *axes; /* -1 ends; NULL: none given */
	const char *axis_names;
	bool batch;
	int mean, stddev; /* CN_CALC / CN_SCALAR / CN_TENSOR */
	float mean_value, stddev_value, epsilon, scale, shift;
	int ddof;
} cuda_norm_case_t;

static void cuda_norm_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_normalize_body(ix, (const dalic_cu_normalize_params_t *)p);
}

/* The reduced axes as the operator resolves them: axes, axis_names, else the extent-1 dims of
 * the tensor parameters (param_shapes), else all. */
static uint64_t cuda_norm_mask(const cuda_norm_case_t *c, const int64_t *param_shapes)
{
	uint64_t m = 0;
	if (c->axes) {
		for (int k = 0; c->axes[k] >= 0; k++)
			m |= 1ull << c->axes[k];
	} else if (c->axis_names) {
		for (const char *a = c->axis_names; *a; a++)
			m |= 1ull << (strchr(c->layout, *a) - c->layout);
	} else if (c->mean == CN_TENSOR || c->stddev == CN_TENSOR) {
		for (int d = 0; d < c->ndim; d++) {
			bool one = true;
			for (int i = 0; i < c->n; i++)
				one &= param_shapes[i * c->ndim + d] == 1;
			m |= (uint64_t)one << d;
		}
	} else {
		m = (1ull << c->ndim) - 1;
	}
	return m;
}

/* Runs every stage of the kernel over `in` into outputs like `cpu` prefilled with `canary`. */
static void cuda_norm_kernel(const cuda_norm_case_t *c, const dalic_cu_normalize_args_t *a,
                             const tl_cu_batch_t *in, const tl_cu_batch_t *tmean,
                             const tl_cu_batch_t *tsd, const dalic_batch_t *cpu, uint8_t canary,
                             tl_cu_batch_t *out)
{
	tl_cu_batch_like(out, cpu, canary);
	dalic_cu_normalize_sample_t samples[TL_CU_MAX_SAMPLES];
	const void *ins[TL_CU_MAX_SAMPLES];
	void *outs[TL_CU_MAX_SAMPLES];
	const float *means[TL_CU_MAX_SAMPLES], *sds[TL_CU_MAX_SAMPLES];
	int64_t shapes[TL_CU_MAX_SAMPLES * DALIC_MAX_NDIM];
	for (int i = 0; i < c->n; i++) {
		ins[i] = in->data[i];
		outs[i] = out->data[i];
		means[i] = tmean ? (const float *)tmean->data[i] : NULL;
		sds[i] = tsd ? (const float *)tsd->data[i] : NULL;
		for (int d = 0; d < c->ndim; d++)
			shapes[i * c->ndim + d] = in->shape[i][d];
	}
	int64_t nfloats, nnodes;
	dalic_cu_normalize_prepare(a, samples, c->n, shapes, ins, outs, means, sds, NULL, NULL,
	                           NULL, &nfloats, &nnodes);
	float *scratch = malloc(sizeof(float) * (size_t)(nfloats + 1));
	dalic_norm_node_t *nodes = calloc((size_t)nnodes + 1, sizeof *nodes);
	for (int64_t k = 0; k < nfloats; k++)
		scratch[k] = NAN;
	int64_t nf2, nn2;
	dalic_cu_normalize_prepare(a, samples, c->n, shapes, ins, outs, means, sds, scratch, nodes,
	                           nodes, &nf2, &nn2);
	cr_expect_eq(nf2, nfloats);
	cr_expect_eq(nn2, nnodes);
	dalic_cu_normalize_params_t st[8];
	int ns = dalic_cu_normalize_stages(a, samples, c->n, st);
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

/* Per-sample parameter tensors: the sample's shape with the reduced extents 1; stddev
 * positive but for parameter 1, which is 0 (where it exists). */
static void cuda_norm_params(const cuda_norm_case_t *c, const tl_cu_batch_t *in, uint64_t mask,
                             bool sd, tl_cu_batch_t *p, int64_t *pshapes)
{
	for (int i = 0; i < c->n; i++)
		for (int d = 0; d < c->ndim; d++)
			pshapes[i * c->ndim + d] = mask >> d & 1 ? 1 : in->shape[i][d];
	tl_cu_batch_random(p, DALIC_FLOAT, c->ndim, c->n, pshapes, sd ? 40 : 100,
	                   sd ? 99u : 77u);
	if (!sd)
		return;
	for (int i = 0; i < c->n; i++) {
		float *v = (float *)p->data[i];
		for (size_t k = 0; k < p->bytes[i] / sizeof(float); k++)
			v[k] = k == 1 ? 0.0f : fabsf(v[k]) + 0.25f;
	}
}

static void cuda_norm_case(const cuda_norm_case_t *c)
{
	tl_cu_batch_t in, out, tmean, tsd;
	tl_cu_batch_random(&in, c->in, c->ndim, c->n, c->shapes, 300, 11u + (uint32_t)c->n);
	/* the tensors' shapes follow the axes given (or all axes but the last) */
	cuda_norm_case_t shaped = *c;
	int64_t pshapes[TL_CU_MAX_SAMPLES * DALIC_MAX_NDIM];
	if (!c->axes && !c->axis_names) {
		int64_t ax[DALIC_MAX_NDIM];
		for (int d = 0; d < c->ndim - 1; d++)
			ax[d] = d;
		ax[c->ndim - 1] = -1;
		shaped.axes = ax;
		uint64_t m = cuda_norm_mask(&shaped, NULL);
		if (c->mean == CN_TENSOR)
			cuda_norm_params(c, &in, m, false, &tmean, pshapes);
		if (c->stddev == CN_TENSOR)
			cuda_norm_params(c, &in, m, true, &tsd, pshapes);
	} else {
		uint64_t m = cuda_norm_mask(c, NULL);
		if (c->mean == CN_TENSOR)
			cuda_norm_params(c, &in, m, false, &tmean, pshapes);
		if (c->stddev == CN_TENSOR)
			cuda_norm_params(c, &in, m, true, &tsd, pshapes);
	}
	uint64_t mask = cuda_norm_mask(c, pshapes);

	const char *argin[3] = {NULL, NULL, NULL};
	int na = 0;
	if (c->mean == CN_TENSOR)
		argin[na++] = "mean";
	if (c->stddev == CN_TENSOR)
		argin[na++] = "stddev";
	tl_oneop_t t = tl_oneop("normalize", c->n, 1, na ? argin : NULL);
	if (c->axes) {
		int64_t ax[DALIC_MAX_NDIM];
		int k = 0;
		for (; c->axes[k] >= 0; k++)
			ax[k] = c->axes[k];
		ASSERT_OK(dalic_op_set_ints(t.op, "axes", k, ax));
	}
	if (c->axis_names)
		ASSERT_OK(dalic_op_set_string(t.op, "axis_names", c->axis_names));
	if (c->mean == CN_SCALAR)
		ASSERT_OK(dalic_op_set_float(t.op, "mean", c->mean_value));
	if (c->stddev == CN_SCALAR)
		ASSERT_OK(dalic_op_set_float(t.op, "stddev", c->stddev_value));
	ASSERT_OK(dalic_op_set_bool(t.op, "batch", c->batch));
	ASSERT_OK(dalic_op_set_float(t.op, "epsilon", c->epsilon));
	ASSERT_OK(dalic_op_set_float(t.op, "scale", c->scale));
	ASSERT_OK(dalic_op_set_float(t.op, "shift", c->shift));
	ASSERT_OK(dalic_op_set_int(t.op, "ddof", c->ddof));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", c->out));
	tl_cu_batch_feed(t.p, "in", &in, c->layout[0] ? c->layout : NULL);
	if (c->mean == CN_TENSOR)
		tl_cu_batch_feed(t.p, "mean", &tmean, NULL);
	if (c->stddev == CN_TENSOR)
		tl_cu_batch_feed(t.p, "stddev", &tsd, NULL);
	const dalic_batch_t *cpu = tl_run(t.p, 0);

	dalic_cu_normalize_args_t a;
	memset(&a, 0, sizeof a);
	a.in_type = c->in;
	a.out_type = c->out;
	a.ndim = c->ndim;
	a.mask = mask;
	a.batch = c->batch;
	a.tensor_mean = c->mean == CN_TENSOR;
	a.tensor_stddev = c->stddev == CN_TENSOR;
	a.calc_mean = c->mean == CN_CALC;
	a.calc_stddev = c->stddev == CN_CALC;
	a.mean = c->mean_value;
	a.stddev = c->stddev_value;
	a.scale = c->scale;
	a.shift = c->shift;
	a.epsilon = c->epsilon;
	a.ddof = c->ddof;
	for (int k = 0; k < 2; k++) {
		cuda_norm_kernel(c, &a, &in, c->mean == CN_TENSOR ? &tmean : NULL,
		                 c->stddev == CN_TENSOR ? &tsd : NULL, cpu, k ? 0xff : 0x00, &out);
		tl_cu_expect_equal(cpu, &out, c->what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
	if (c->mean == CN_TENSOR)
		tl_cu_batch_free(&tmean);
	if (c->stddev == CN_TENSOR)
		tl_cu_batch_free(&tsd);
}

/* HWC images of odd sizes, several blocks and chunks per sample, an empty one. */
static const int64_t cn_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 1, 64, 64, 4};
static const int64_t cn_hwc3[] = {7, 13, 3, 33, 65, 3, 1, 1, 3, 120, 97, 3, 0, 4, 3};
static const int64_t cn_all[] = {0, 1, 2, -1}, cn_hw[] = {0, 1, -1}, cn_c[] = {2, -1},
                     cn_w[] = {1, -1}, cn_hc[] = {0, 2, -1};

static cuda_norm_case_t cn_base(const char *what, dalic_dtype_t in, dalic_dtype_t out, int n,
                                const int64_t *shapes)
{
	cuda_norm_case_t c;
	memset(&c, 0, sizeof c);
	c.what = what;
	c.in = in;
	c.out = out;
	c.ndim = 3;
	c.n = n;
	c.shapes = shapes;
	c.layout = "HWC";
	c.scale = 1;
	return c;
}

Test(cuda_normalize, computed_per_sample_over_all_axes)
{
	cuda_norm_case_t c = cn_base("u8 all axes", DALIC_UINT8, DALIC_FLOAT, 6, cn_hwc);
	cuda_norm_case(&c);
	c = cn_base("float all axes, eps ddof", DALIC_FLOAT, DALIC_FLOAT, 6, cn_hwc);
	c.epsilon = 0.5f;
	c.ddof = 1;
	c.scale = -3.5f;
	c.shift = 1.25f;
	cuda_norm_case(&c);
}

Test(cuda_normalize, computed_per_channel_and_per_axis)
{
	cuda_norm_case_t c = cn_base("u8 HW -> per channel", DALIC_UINT8, DALIC_FLOAT, 5, cn_hwc3);
	c.axes = cn_hw;
	cuda_norm_case(&c);
	c = cn_base("float C", DALIC_FLOAT, DALIC_FLOAT, 5, cn_hwc3);
	c.axes = cn_c;
	cuda_norm_case(&c);
	c = cn_base("i16 W -> u8, scale 64 shift 128", DALIC_INT16, DALIC_UINT8, 5, cn_hwc3);
	c.axes = cn_w;
	c.scale = 64;
	c.shift = 128;
	cuda_norm_case(&c);
	c = cn_base("u16 HC by name -> i16", DALIC_UINT16, DALIC_INT16, 5, cn_hwc3);
	c.axis_names = "HC";
	c.scale = 1000;
	cuda_norm_case(&c);
	c = cn_base("i32 HC, eps", DALIC_INT32, DALIC_FLOAT, 5, cn_hwc3);
	c.axes = cn_hc;
	c.epsilon = 1;
	cuda_norm_case(&c);
}

Test(cuda_normalize, batch_statistics)
{
	/* non-reduced extents agree across the batch; the reduced ones differ */
	static const int64_t hw_c[] = {7, 13, 3, 33, 65, 3, 1, 1, 3, 120, 97, 3, 5, 3, 3, 2, 9, 3, 4, 4, 3};
	cuda_norm_case_t c = cn_base("batch u8 HW", DALIC_UINT8, DALIC_FLOAT, 7, hw_c);
	c.axes = cn_hw;
	c.batch = true;
	cuda_norm_case(&c);
	c = cn_base("batch float all, ddof eps", DALIC_FLOAT, DALIC_FLOAT, 6, cn_hwc);
	c.batch = true;
	c.epsilon = 0.25f;
	c.ddof = 2;
	c.scale = 2;
	cuda_norm_case(&c);
	static const int64_t same_w[] = {4, 33, 2, 9, 33, 2, 1, 33, 2, 17, 33, 2, 3, 33, 2};
	c = cn_base("batch i8 HC -> i8", DALIC_INT8, DALIC_INT8, 5, same_w);
	c.axes = cn_hc;
	c.batch = true;
	c.scale = 30;
	cuda_norm_case(&c);
	c = cn_base("batch u32 HW, given stddev", DALIC_UINT32, DALIC_FLOAT, 7, hw_c);
	c.axes = cn_hw;
	c.batch = true;
	c.stddev = CN_SCALAR;
	c.stddev_value = 1e6f;
	cuda_norm_case(&c);
	c = cn_base("batch float HW, given mean", DALIC_FLOAT, DALIC_UINT16, 7, hw_c);
	c.axes = cn_hw;
	c.batch = true;
	c.mean = CN_SCALAR;
	c.mean_value = -20;
	c.shift = 3000;
	c.scale = 10;
	cuda_norm_case(&c);
}

Test(cuda_normalize, given_scalars)
{
	cuda_norm_case_t c = cn_base("u8 given -> i16", DALIC_UINT8, DALIC_INT16, 6, cn_hwc);
	c.axes = NULL;
	c.mean = c.stddev = CN_SCALAR;
	c.mean_value = 127.5f;
	c.stddev_value = 0.3f;
	cuda_norm_case(&c);
	c = cn_base("float given, eps -> u8", DALIC_FLOAT, DALIC_UINT8, 6, cn_hwc);
	c.mean = c.stddev = CN_SCALAR;
	c.mean_value = -3;
	c.stddev_value = 2;
	c.epsilon = 0.75f;
	c.shift = 128;
	c.scale = 16;
	cuda_norm_case(&c);
	c = cn_base("u8 given mean, computed stddev", DALIC_UINT8, DALIC_FLOAT, 6, cn_hwc);
	c.axes = cn_all;
	c.mean = CN_SCALAR;
	c.mean_value = 100;
	cuda_norm_case(&c);
	c = cn_base("i16 computed mean, zero stddev", DALIC_INT16, DALIC_FLOAT, 6, cn_hwc);
	c.axes = cn_hw;
	c.stddev = CN_SCALAR;
	c.stddev_value = 0;
	cuda_norm_case(&c);
}

Test(cuda_normalize, per_sample_tensors)
{
	cuda_norm_case_t c = cn_base("u8 tensor mean+stddev per channel", DALIC_UINT8, DALIC_FLOAT,
	                             5, cn_hwc3);
	c.mean = c.stddev = CN_TENSOR;
	cuda_norm_case(&c);
	c = cn_base("float tensor mean, computed stddev, W", DALIC_FLOAT, DALIC_FLOAT, 5, cn_hwc3);
	c.axes = cn_w;
	c.mean = CN_TENSOR;
	cuda_norm_case(&c);
	c = cn_base("u8 computed mean, tensor stddev, eps", DALIC_UINT8, DALIC_INT16, 5, cn_hwc3);
	c.axes = cn_hc;
	c.stddev = CN_TENSOR;
	c.epsilon = 0.01f;
	c.scale = 100;
	cuda_norm_case(&c);
}

Test(cuda_normalize, long_rows_and_deep_trees)
{
	/* reductions long enough for several levels of chunks, 1-D and 4-D */
	static const int64_t v1[] = {70001, 1, 4097, 0};
	cuda_norm_case_t c = cn_base("float 1-D long", DALIC_FLOAT, DALIC_FLOAT, 4, v1);
	c.ndim = 1;
	c.layout = "";
	cuda_norm_case(&c);
	static const int64_t v4[] = {3, 40, 50, 2, 2, 7, 129, 3, 1, 1, 1, 1};
	static const int64_t ax13[] = {1, 3, -1}, ax02[] = {0, 2, -1};
	c = cn_base("u8 4-D axes 1,3", DALIC_UINT8, DALIC_FLOAT, 3, v4);
	c.ndim = 4;
	c.layout = "FHWC";
	c.axes = ax13;
	cuda_norm_case(&c);
	c = cn_base("i16 4-D axes 0,2 eps ddof", DALIC_INT16, DALIC_FLOAT, 3, v4);
	c.ndim = 4;
	c.layout = "FHWC";
	c.axes = ax02;
	c.epsilon = 2;
	c.ddof = 1;
	cuda_norm_case(&c);
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
					float got = dalic_norm_fold(v[k], k, n, eps[e], 0.37f, mul[m]);
					cr_expect(!memcmp(&got, &want[k], sizeof got),
					          "n %d eps %g mul %g: element %d: %a, SSE %a", n,
					          eps[e], mul[m], k, got, want[k]);
				}
			}
}
#endif
