/*
 * normalize cases for the CUDA normalize kernel's checks, shared by the grid-runner suite
 * (tests/unit/test_cuda_normalize.c) and make test-gpu (tests/gpu/gpu_normalize.c): the
 * arguments a case sets on the CPU operator, the per-sample mean / stddev tensors it feeds,
 * and the resolved arguments (dalic_cu_normalize_args_t) the kernel gets. The reduced axes are
 * resolved here as the operator does (axes, axis_names, else the extent-1 dims of the tensor
 * parameters, else all), so a drift shows up as differing outputs.
 * Header only, no Criterion: tests/gpu/ includes it too.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_NORMALIZE_H
#define DALIC_TESTS_TESTLIB_CUDA_NORMALIZE_H

#include "dalic.h"
#include "kernels/cuda/normalize.cuh"

#include <math.h>
#include <stdbool.h>
#include <string.h>

enum { TL_CU_NORM_CALC, TL_CU_NORM_SCALAR, TL_CU_NORM_TENSOR };

typedef struct tl_cu_norm_case {
	const char *group; /* the grid-runner test that runs it */
	const char *what;
	dalic_dtype_t in, out;
	int ndim, n;
	const int64_t *shapes; /* n * ndim */
	const char *layout;    /* NULL: none */
	const int64_t *axes;   /* -1 ends; NULL: not given */
	const char *axis_names;
	bool batch;
	bool per_element; /* tensors shaped as the samples: nothing reduced */
	int mean, stddev; /* TL_CU_NORM_CALC / _SCALAR / _TENSOR */
	float mean_value, stddev_value, epsilon, scale, shift;
	int ddof;
} tl_cu_norm_case_t;

/* HWC images of odd sizes (several blocks and chunks per sample, an empty one). */
static const int64_t tl_cu_norm_hwc[] = {1, 1, 3, 7,  13,  3, 33, 65, 3,
                                         0, 5, 3, 17, 300, 1, 64, 64, 4};
static const int64_t tl_cu_norm_hwc3[] = {7, 13, 3, 33, 65, 3, 1, 1, 3, 120, 97, 3, 0, 4, 3};
/* batch mode: the non-reduced extents agree across the batch, the reduced ones differ */
static const int64_t tl_cu_norm_hw_c[] = {7, 13, 3, 33, 65, 3, 1, 1, 3, 120, 97,
                                          3, 5,  3, 3,  2,  9, 3, 4, 4, 3};
static const int64_t tl_cu_norm_same_w[] = {4, 33, 2, 9, 33, 2, 1, 33, 2, 17, 33, 2, 3, 33, 2};
/* long reductions (several levels of chunks), 1-D and 4-D */
static const int64_t tl_cu_norm_long1[] = {70001, 1, 4097, 0};
static const int64_t tl_cu_norm_fhwc[] = {3, 40, 50, 2, 2, 7, 129, 3, 1, 1, 1, 1};
static const int64_t tl_cu_norm_all[] = {0, 1, 2, -1}, tl_cu_norm_ax_hw[] = {0, 1, -1},
                     tl_cu_norm_ax_c[] = {2, -1}, tl_cu_norm_ax_w[] = {1, -1},
                     tl_cu_norm_ax_hc[] = {0, 2, -1}, tl_cu_norm_ax13[] = {1, 3, -1},
                     tl_cu_norm_ax02[] = {0, 2, -1};

#define TL_CU_NORM_HWC(G, W, I, O, N, S)                                                           \
	.group = G, .what = W, .in = I, .out = O, .ndim = 3, .n = N, .shapes = S, .layout = "HWC"

static const tl_cu_norm_case_t tl_cu_norm_cases[] = {
    {TL_CU_NORM_HWC("all_axes", "u8 all axes", DALIC_UINT8, DALIC_FLOAT, 6, tl_cu_norm_hwc),
     .scale = 1},
    {TL_CU_NORM_HWC("all_axes", "float all axes, eps ddof", DALIC_FLOAT, DALIC_FLOAT, 6,
                    tl_cu_norm_hwc),
     .epsilon = 0.5f, .ddof = 1, .scale = -3.5f, .shift = 1.25f},
    {TL_CU_NORM_HWC("per_axis", "u8 HW -> per channel", DALIC_UINT8, DALIC_FLOAT, 5,
                    tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_hw, .scale = 1},
    {TL_CU_NORM_HWC("per_axis", "float C", DALIC_FLOAT, DALIC_FLOAT, 5, tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_c, .scale = 1},
    {TL_CU_NORM_HWC("per_axis", "i16 W -> u8, scale 64 shift 128", DALIC_INT16, DALIC_UINT8, 5,
                    tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_w, .scale = 64, .shift = 128},
    {TL_CU_NORM_HWC("per_axis", "u16 HC by name -> i16", DALIC_UINT16, DALIC_INT16, 5,
                    tl_cu_norm_hwc3),
     .axis_names = "HC", .scale = 1000},
    {TL_CU_NORM_HWC("per_axis", "i32 HC, eps", DALIC_INT32, DALIC_FLOAT, 5, tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_hc, .epsilon = 1, .scale = 1},
    {TL_CU_NORM_HWC("batch", "batch u8 HW", DALIC_UINT8, DALIC_FLOAT, 7, tl_cu_norm_hw_c),
     .axes = tl_cu_norm_ax_hw, .batch = true, .scale = 1},
    {TL_CU_NORM_HWC("batch", "batch float all, ddof eps", DALIC_FLOAT, DALIC_FLOAT, 6,
                    tl_cu_norm_hwc),
     .batch = true, .epsilon = 0.25f, .ddof = 2, .scale = 2},
    {TL_CU_NORM_HWC("batch", "batch i8 HC -> i8", DALIC_INT8, DALIC_INT8, 5, tl_cu_norm_same_w),
     .axes = tl_cu_norm_ax_hc, .batch = true, .scale = 30},
    {TL_CU_NORM_HWC("batch", "batch u32 HW, given stddev", DALIC_UINT32, DALIC_FLOAT, 7,
                    tl_cu_norm_hw_c),
     .axes = tl_cu_norm_ax_hw, .batch = true, .stddev = TL_CU_NORM_SCALAR, .stddev_value = 1e6f,
     .scale = 1},
    {TL_CU_NORM_HWC("batch", "batch float HW, given mean -> u16", DALIC_FLOAT, DALIC_UINT16, 7,
                    tl_cu_norm_hw_c),
     .axes = tl_cu_norm_ax_hw, .batch = true, .mean = TL_CU_NORM_SCALAR, .mean_value = -20,
     .shift = 3000, .scale = 10},
    {TL_CU_NORM_HWC("given", "u8 given -> i16", DALIC_UINT8, DALIC_INT16, 6, tl_cu_norm_hwc),
     .mean = TL_CU_NORM_SCALAR, .stddev = TL_CU_NORM_SCALAR, .mean_value = 127.5f,
     .stddev_value = 0.3f, .scale = 1},
    {TL_CU_NORM_HWC("given", "float given, eps -> u8", DALIC_FLOAT, DALIC_UINT8, 6, tl_cu_norm_hwc),
     .mean = TL_CU_NORM_SCALAR, .stddev = TL_CU_NORM_SCALAR, .mean_value = -3, .stddev_value = 2,
     .epsilon = 0.75f, .shift = 128, .scale = 16},
    {TL_CU_NORM_HWC("given", "u8 given mean, computed stddev", DALIC_UINT8, DALIC_FLOAT, 6,
                    tl_cu_norm_hwc),
     .axes = tl_cu_norm_all, .mean = TL_CU_NORM_SCALAR, .mean_value = 100, .scale = 1},
    {TL_CU_NORM_HWC("given", "i16 computed mean, zero stddev", DALIC_INT16, DALIC_FLOAT, 6,
                    tl_cu_norm_hwc),
     .axes = tl_cu_norm_ax_hw, .stddev = TL_CU_NORM_SCALAR, .stddev_value = 0, .scale = 1},
    {TL_CU_NORM_HWC("tensors", "u8 tensor mean+stddev per channel", DALIC_UINT8, DALIC_FLOAT, 5,
                    tl_cu_norm_hwc3),
     .mean = TL_CU_NORM_TENSOR, .stddev = TL_CU_NORM_TENSOR, .scale = 1},
    {TL_CU_NORM_HWC("tensors", "float tensor mean, computed stddev, W", DALIC_FLOAT, DALIC_FLOAT, 5,
                    tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_w, .mean = TL_CU_NORM_TENSOR, .scale = 1},
    {TL_CU_NORM_HWC("tensors", "u8 computed mean, tensor stddev, eps -> i16", DALIC_UINT8,
                    DALIC_INT16, 5, tl_cu_norm_hwc3),
     .axes = tl_cu_norm_ax_hc, .stddev = TL_CU_NORM_TENSOR, .epsilon = 0.01f, .scale = 100},
    {TL_CU_NORM_HWC("tensors", "float per-element tensor mean, computed stddev, eps", DALIC_FLOAT,
                    DALIC_FLOAT, 5, tl_cu_norm_hwc3),
     .per_element = true, .mean = TL_CU_NORM_TENSOR, .epsilon = 0.5f, .scale = 1},
    {.group = "long",
     .what = "float 1-D long",
     .in = DALIC_FLOAT,
     .out = DALIC_FLOAT,
     .ndim = 1,
     .n = 4,
     .shapes = tl_cu_norm_long1,
     .scale = 1},
    {.group = "long",
     .what = "u8 4-D axes 1,3",
     .in = DALIC_UINT8,
     .out = DALIC_FLOAT,
     .ndim = 4,
     .n = 3,
     .shapes = tl_cu_norm_fhwc,
     .layout = "FHWC",
     .axes = tl_cu_norm_ax13,
     .scale = 1},
    {.group = "long",
     .what = "i16 4-D axes 0,2 eps ddof",
     .in = DALIC_INT16,
     .out = DALIC_FLOAT,
     .ndim = 4,
     .n = 3,
     .shapes = tl_cu_norm_fhwc,
     .layout = "FHWC",
     .axes = tl_cu_norm_ax02,
     .epsilon = 2,
     .ddof = 1,
     .scale = 1},
};
#define TL_CU_NORM_NCASES ((int)(sizeof tl_cu_norm_cases / sizeof tl_cu_norm_cases[0]))

/* The axes named by `axes` / `axis_names`; with neither, every axis but the last (the shape
 * of the case's tensors: per-channel statistics), or none with per_element. */
static inline uint64_t tl_cu_norm_named_mask(const tl_cu_norm_case_t *c)
{
	uint64_t m = 0;
	if (c->axes) {
		for (int k = 0; c->axes[k] >= 0; k++)
			m |= 1ull << c->axes[k];
	} else if (c->axis_names) {
		for (const char *a = c->axis_names; *a; a++)
			m |= 1ull << (strchr(c->layout, *a) - c->layout);
	} else if (!c->per_element) {
		m = (1ull << (c->ndim - 1)) - 1;
	}
	return m;
}

/* The parameter tensors' shapes (n * ndim): each sample's with the named axes' extents 1. */
static inline void tl_cu_norm_param_shapes(const tl_cu_norm_case_t *c, int64_t *ps)
{
	uint64_t m = tl_cu_norm_named_mask(c);
	for (int i = 0; i < c->n; i++)
		for (int d = 0; d < c->ndim; d++)
			ps[i * c->ndim + d] = m >> d & 1 ? 1 : c->shapes[i * c->ndim + d];
}

/* The reduced axes as the operator resolves them. */
static inline uint64_t tl_cu_norm_mask(const tl_cu_norm_case_t *c)
{
	if (c->axes || c->axis_names)
		return tl_cu_norm_named_mask(c);
	if (c->mean != TL_CU_NORM_TENSOR && c->stddev != TL_CU_NORM_TENSOR)
		return (1ull << c->ndim) - 1;
	int64_t ps[16 * DALIC_MAX_NDIM];
	tl_cu_norm_param_shapes(c, ps);
	uint64_t m = 0;
	for (int d = 0; d < c->ndim; d++) {
		bool one = true;
		for (int i = 0; i < c->n; i++)
			one &= ps[i * c->ndim + d] == 1;
		m |= (uint64_t)one << d;
	}
	return m;
}

/* A random stddev tensor made positive, with parameter 1 (where it exists) 0. */
static inline void tl_cu_norm_fix_stddev(float *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		v[k] = k == 1 ? 0.0f : fabsf(v[k]) + 0.25f;
}

/* The seeds and ranges of the case's random data: the input, the mean and stddev tensors. */
#define TL_CU_NORM_IN_RANGE 300
#define TL_CU_NORM_MEAN_RANGE 100
#define TL_CU_NORM_SD_RANGE 40
static inline uint32_t tl_cu_norm_seed(const tl_cu_norm_case_t *c, int which)
{
	return 11u + (uint32_t)c->n + 66u * (uint32_t)which;
}

/* The case's scalar arguments on normalize `op`; DALIC_OK or the first error. */
static inline int tl_cu_norm_set_args(dalic_op_t *op, const tl_cu_norm_case_t *c)
{
	int rc = DALIC_OK;
	if (c->axes) {
		int64_t ax[DALIC_MAX_NDIM];
		int k = 0;
		for (; c->axes[k] >= 0; k++)
			ax[k] = c->axes[k];
		rc = dalic_op_set_ints(op, "axes", k, ax);
	}
	if (!rc && c->axis_names)
		rc = dalic_op_set_string(op, "axis_names", c->axis_names);
	if (!rc && c->mean == TL_CU_NORM_SCALAR)
		rc = dalic_op_set_float(op, "mean", c->mean_value);
	if (!rc && c->stddev == TL_CU_NORM_SCALAR)
		rc = dalic_op_set_float(op, "stddev", c->stddev_value);
	if (!rc)
		rc = dalic_op_set_bool(op, "batch", c->batch);
	if (!rc)
		rc = dalic_op_set_float(op, "epsilon", c->epsilon);
	if (!rc)
		rc = dalic_op_set_float(op, "scale", c->scale);
	if (!rc)
		rc = dalic_op_set_float(op, "shift", c->shift);
	if (!rc)
		rc = dalic_op_set_int(op, "ddof", c->ddof);
	if (!rc)
		rc = dalic_op_set_int(op, "dtype", c->out);
	return rc;
}

/* The kernel's view of the case's arguments. */
static inline void tl_cu_norm_args(const tl_cu_norm_case_t *c, dalic_cu_normalize_args_t *a)
{
	memset(a, 0, sizeof *a);
	a->in_type = c->in;
	a->out_type = c->out;
	a->ndim = c->ndim;
	a->mask = tl_cu_norm_mask(c);
	a->batch = c->batch;
	a->tensor_mean = c->mean == TL_CU_NORM_TENSOR;
	a->tensor_stddev = c->stddev == TL_CU_NORM_TENSOR;
	a->calc_mean = c->mean == TL_CU_NORM_CALC;
	a->calc_stddev = c->stddev == TL_CU_NORM_CALC;
	a->mean = c->mean_value;
	a->stddev = c->stddev_value;
	a->scale = c->scale;
	a->shift = c->shift;
	a->epsilon = c->epsilon;
	a->ddof = c->ddof;
}

/* Whether a GPU must match the CPU byte for byte: no reciprocal square root runs on the
 * device (a scalar deviation's inverse is made on the host; a tensor's is scale / stddev
 * without epsilon); otherwise within a tolerance (docs/gpu.md). */
static inline bool tl_cu_norm_exact_on_gpu(const tl_cu_norm_case_t *c)
{
	return c->stddev == TL_CU_NORM_SCALAR ||
	       (c->stddev == TL_CU_NORM_TENSOR && c->epsilon == 0);
}

#endif
