/*
 * normalize's dispatch entry (kernels/common/gpu_normalize.c) on the host-grid backend: the
 * executor's device path (in every executor mode) with the kernel's stages on the grid
 * runner, compared byte for byte with the emulated path (the CPU operator) over three
 * iterations of changing odd shapes (an empty sample, a 1x1 one, one long enough to be cut
 * into chunks): computed statistics per sample and with batch=True, axes by index and by
 * name, scalar and per-sample tensor statistics (argument inputs), epsilon, ddof, integer
 * inputs and outputs.
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/gpu_compare.h"

#include <math.h>

TestSuite(gpu_backend_stats, .timeout = 120);

/* HWC shapes per iteration; batch cases need equal kept extents (C = 3 everywhere). */
static const int64_t gbs_norm_shapes[TL_GPU_ITERS][TL_GPU_N * 3] = {
    {7, 13, 3, 17, 300, 3, 0, 5, 3, 1, 1, 3},
    {64, 65, 3, 1, 1, 3, 9, 2, 3, 33, 31, 3},
    {5, 5, 3, 2, 250, 3, 7, 7, 3, 0, 0, 3},
};

typedef struct gbs_norm {
	const char *what;
	dalic_dtype_t in, out;
	const int64_t *axes; /* -1 ends; NULL: not given */
	const char *axis_names;
	bool batch;
	bool tensor_mean, tensor_stddev; /* per-sample 1x1xC argument inputs */
	bool scalar_mean, scalar_stddev;
	float mean, stddev, scale, shift, epsilon;
	int ddof;
} gbs_norm_t;

static void gbs_norm_build(dalic_pipeline_t *p, const void *ctx)
{
	const gbs_norm_t *c = ctx;
	tl_source(p, "in");
	if (c->tensor_mean)
		tl_source(p, "m");
	if (c->tensor_stddev)
		tl_source(p, "s");
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "normalize", "gpu", &op));
	ASSERT_OK(dalic_op_add_input(op, "in", "gpu"));
	if (c->axes) {
		int64_t ax[DALIC_MAX_NDIM];
		int k = 0;
		for (; c->axes[k] >= 0; k++)
			ax[k] = c->axes[k];
		ASSERT_OK(dalic_op_set_ints(op, "axes", k, ax));
	}
	if (c->axis_names)
		ASSERT_OK(dalic_op_set_string(op, "axis_names", c->axis_names));
	if (c->scalar_mean)
		ASSERT_OK(dalic_op_set_float(op, "mean", c->mean));
	if (c->scalar_stddev)
		ASSERT_OK(dalic_op_set_float(op, "stddev", c->stddev));
	if (c->tensor_mean)
		ASSERT_OK(dalic_op_set_arg_input(op, "mean", "m"));
	if (c->tensor_stddev)
		ASSERT_OK(dalic_op_set_arg_input(op, "stddev", "s"));
	ASSERT_OK(dalic_op_set_bool(op, "batch", c->batch));
	ASSERT_OK(dalic_op_set_float(op, "scale", c->scale));
	ASSERT_OK(dalic_op_set_float(op, "shift", c->shift));
	ASSERT_OK(dalic_op_set_float(op, "epsilon", c->epsilon));
	ASSERT_OK(dalic_op_set_int(op, "ddof", c->ddof));
	ASSERT_OK(dalic_op_set_int(op, "dtype", c->out));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
}

static void gbs_norm_feed(dalic_pipeline_t *p, int it, const void *ctx)
{
	const gbs_norm_t *c = ctx;
	tl_cu_batch_t b;
	tl_cu_batch_random(&b, c->in, 3, TL_GPU_N, gbs_norm_shapes[it], 300,
	                   17u + 5u * (unsigned)it);
	tl_cu_batch_feed(p, "in", &b, "HWC");
	tl_cu_batch_free(&b);
	int64_t ps[TL_GPU_N * 3];
	for (int i = 0; i < TL_GPU_N; i++) {
		ps[3 * i] = ps[3 * i + 1] = 1;
		ps[3 * i + 2] = 3;
	}
	for (int k = 0; k < 2; k++) {
		if (!(k ? c->tensor_stddev : c->tensor_mean))
			continue;
		tl_cu_batch_random(&b, DALIC_FLOAT, 3, TL_GPU_N, ps, 100,
		                   91u + 7u * (unsigned)(it + k));
		for (int i = 0; k && i < TL_GPU_N; i++) { /* positive deviations, one zero */
			float *v = (float *)b.data[i];
			for (int j = 0; j < 3; j++)
				v[j] = i == 1 && j == 1 ? 0.0f : fabsf(v[j]) + 0.25f;
		}
		tl_cu_batch_feed(p, k ? "s" : "m", &b, "HWC");
		tl_cu_batch_free(&b);
	}
}

static void gbs_norm_case(const gbs_norm_t *c)
{
	tl_gpu_case_t g = {c->what, gbs_norm_build, gbs_norm_feed, c, 2};
	tl_gpu_compare(&g);
}

static const int64_t gbs_ax_hw[] = {0, 1, -1}, gbs_ax_w[] = {1, -1}, gbs_ax_c[] = {2, -1},
                     gbs_ax_all[] = {0, 1, 2, -1};

Test(gpu_backend_stats, normalize_computed_per_sample)
{
	gbs_norm_t cases[] = {
	    {.what = "u8 all axes", .in = DALIC_UINT8, .out = DALIC_FLOAT, .scale = 1},
	    {.what = "float all axes, eps ddof, negative scale",
	     .in = DALIC_FLOAT,
	     .out = DALIC_FLOAT,
	     .epsilon = 0.5f,
	     .ddof = 1,
	     .scale = -3.5f,
	     .shift = 1.25f},
	    {.what = "u8 HW -> i16 scale 64 shift 128",
	     .in = DALIC_UINT8,
	     .out = DALIC_INT16,
	     .axes = gbs_ax_hw,
	     .scale = 64,
	     .shift = 128},
	    {.what = "i16 W -> u8",
	     .in = DALIC_INT16,
	     .out = DALIC_UINT8,
	     .axes = gbs_ax_w,
	     .scale = 30,
	     .shift = 100},
	    {.what = "float C",
	     .in = DALIC_FLOAT,
	     .out = DALIC_FLOAT,
	     .axes = gbs_ax_c,
	     .scale = 1},
	    {.what = "u16 HC by name, eps",
	     .in = DALIC_UINT16,
	     .out = DALIC_FLOAT,
	     .axis_names = "HC",
	     .epsilon = 1,
	     .scale = 1},
	    {.what = "i32 given mean, computed stddev",
	     .in = DALIC_INT32,
	     .out = DALIC_FLOAT,
	     .axes = gbs_ax_all,
	     .scalar_mean = true,
	     .mean = 100,
	     .scale = 1},
	    {.what = "i8 computed mean, zero stddev",
	     .in = DALIC_INT8,
	     .out = DALIC_FLOAT,
	     .axes = gbs_ax_hw,
	     .scalar_stddev = true,
	     .stddev = 0,
	     .scale = 1},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		gbs_norm_case(&cases[k]);
}

Test(gpu_backend_stats, normalize_batch_statistics)
{
	gbs_norm_t cases[] = {
	    {.what = "batch u8 HW",
	     .in = DALIC_UINT8,
	     .out = DALIC_FLOAT,
	     .axes = gbs_ax_hw,
	     .batch = true,
	     .scale = 1},
	    {.what = "batch float all, ddof eps",
	     .in = DALIC_FLOAT,
	     .out = DALIC_FLOAT,
	     .batch = true,
	     .epsilon = 0.25f,
	     .ddof = 2,
	     .scale = 2},
	    {.what = "batch u32 HW, given stddev",
	     .in = DALIC_UINT32,
	     .out = DALIC_FLOAT,
	     .axes = gbs_ax_hw,
	     .batch = true,
	     .scalar_stddev = true,
	     .stddev = 1e6f,
	     .scale = 1},
	    {.what = "batch float HW, given mean -> u16",
	     .in = DALIC_FLOAT,
	     .out = DALIC_UINT16,
	     .axes = gbs_ax_hw,
	     .batch = true,
	     .scalar_mean = true,
	     .mean = -20,
	     .shift = 3000,
	     .scale = 10},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		gbs_norm_case(&cases[k]);
}

Test(gpu_backend_stats, normalize_given_statistics)
{
	gbs_norm_t cases[] = {
	    {.what = "u8 scalar mean and stddev -> i16",
	     .in = DALIC_UINT8,
	     .out = DALIC_INT16,
	     .scalar_mean = true,
	     .scalar_stddev = true,
	     .mean = 127.5f,
	     .stddev = 0.3f,
	     .scale = 1},
	    {.what = "u8 tensor mean and stddev per channel",
	     .in = DALIC_UINT8,
	     .out = DALIC_FLOAT,
	     .tensor_mean = true,
	     .tensor_stddev = true,
	     .scale = 1},
	    {.what = "float tensor mean, computed stddev",
	     .in = DALIC_FLOAT,
	     .out = DALIC_FLOAT,
	     .tensor_mean = true,
	     .epsilon = 0.5f,
	     .scale = 1},
	    {.what = "u8 computed mean, tensor stddev, eps -> i16",
	     .in = DALIC_UINT8,
	     .out = DALIC_INT16,
	     .tensor_stddev = true,
	     .epsilon = 0.01f,
	     .scale = 100},
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		gbs_norm_case(&cases[k]);
}
