/*
 * Small helpers for tests that build, feed and run pipelines through the public API
 * (include/dalic.h) only. Every helper asserts (Criterion) on failure and prints
 * dalic_last_error(), so a test body reads as the pipeline it describes:
 *
 *     dalic_pipeline_t *p = th_pipeline(2);
 *     th_source(p, "a");
 *     dalic_op_t *op = th_op(p, "cast");
 *     th_input(op, "a");
 *     th_output(p, op);
 *     th_feed(p, "a", DALIC_FLOAT, 1, 2, shapes, data, NULL);
 *     const dalic_batch_t *b = th_run(p, 0);
 *
 * Pipelines made by th_pipeline are CPU-only and not pipelined (no prefetch), so each run
 * consumes exactly one fed batch.
 */
#ifndef DALIC_TESTS_UNIT_HELPERS_H
#define DALIC_TESTS_UNIT_HELPERS_H

#include <criterion/criterion.h>

#include "dalic.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* A CPU-only, synchronous pipeline with seed 42. Free with dalic_pipeline_destroy. */
static inline dalic_pipeline_t *th_pipeline(int batch_size)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = batch_size;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 42;
	params.exec_pipelined = false;
	params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p = NULL;
	cr_assert_eq(dalic_pipeline_create(&params, &p), DALIC_OK, "%s", dalic_last_error());
	return p;
}

/* Adds operator `name` on the cpu. Borrowed (owned by the pipeline). */
static inline dalic_op_t *th_op(dalic_pipeline_t *p, const char *name)
{
	dalic_op_t *op = NULL;
	cr_assert_eq(dalic_pipeline_add_op(p, name, "cpu", &op), DALIC_OK, "%s",
	             dalic_last_error());
	return op;
}

/* Adds an external_source named `name`; its output data node is also `name`. */
static inline dalic_op_t *th_source(dalic_pipeline_t *p, const char *name)
{
	dalic_op_t *op = th_op(p, "external_source");
	cr_assert_eq(dalic_op_set_name(op, name), DALIC_OK, "%s", dalic_last_error());
	return op;
}

/* Appends data node `node` as the next positional input of `op`. */
static inline void th_input(dalic_op_t *op, const char *node)
{
	cr_assert_eq(dalic_op_add_input(op, node, NULL), DALIC_OK, "%s", dalic_last_error());
}

/* Declares output 0 of `op` as the next pipeline output. */
static inline void th_output(dalic_pipeline_t *p, dalic_op_t *op)
{
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL), DALIC_OK, "%s",
	             dalic_last_error());
}

/* Feeds one batch to external_source `name` (see dalic_pipeline_feed_input). */
static inline void th_feed(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype, int ndim,
                           int batch, const int64_t *shapes, const void *data, const char *layout)
{
	cr_assert_eq(dalic_pipeline_feed_input(p, name, dtype, ndim, batch, shapes, data, layout),
	             DALIC_OK, "%s", dalic_last_error());
}

/* Runs one iteration, asserting success; returns output `i`. Borrowed until the next run. */
static inline const dalic_batch_t *th_run(dalic_pipeline_t *p, int i)
{
	cr_assert_eq(dalic_pipeline_run(p), DALIC_OK, "%s", dalic_last_error());
	const dalic_batch_t *b = dalic_pipeline_output(p, i);
	cr_assert_not_null(b);
	return b;
}

/* Runs one iteration expecting status `expected`; returns dalic_last_error(). */
static inline const char *th_run_fails(dalic_pipeline_t *p, int expected)
{
	int rc = dalic_pipeline_run(p);
	cr_assert_eq(rc, expected, "expected %s, got %s (%s)", dalic_strerror(expected),
	             dalic_strerror(rc), dalic_last_error());
	return dalic_last_error();
}

/* IEEE half to float, for checking FLOAT16 outputs without engine headers. */
static inline float th_half(uint16_t h)
{
	int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	float v = exp == 0    ? ldexpf((float)man, -24)
	          : exp == 31 ? (man ? NAN : INFINITY)
	                      : ldexpf((float)(man | 0x400), exp - 25);
	return sign ? -v : v;
}

/* Element k of sample i as a double, whatever the batch's numeric dtype. */
static inline double th_at(const dalic_batch_t *b, int i, int64_t k)
{
	const void *d = dalic_batch_data(b, i);
	switch (dalic_batch_dtype(b)) {
	case DALIC_UINT8:
		return ((const uint8_t *)d)[k];
	case DALIC_UINT16:
		return ((const uint16_t *)d)[k];
	case DALIC_UINT32:
		return ((const uint32_t *)d)[k];
	case DALIC_UINT64:
		return (double)((const uint64_t *)d)[k];
	case DALIC_INT8:
		return ((const int8_t *)d)[k];
	case DALIC_INT16:
		return ((const int16_t *)d)[k];
	case DALIC_INT32:
		return ((const int32_t *)d)[k];
	case DALIC_INT64:
		return (double)((const int64_t *)d)[k];
	case DALIC_FLOAT16:
		return th_half(((const uint16_t *)d)[k]);
	case DALIC_FLOAT:
		return ((const float *)d)[k];
	case DALIC_FLOAT64:
		return ((const double *)d)[k];
	case DALIC_BOOL:
		return ((const uint8_t *)d)[k];
	default:
		cr_assert_fail("dtype %s is not numeric", dalic_dtype_name(dalic_batch_dtype(b)));
	}
	return 0;
}

/* Asserts sample i has shape `dims` (ndim values). */
static inline void th_expect_shape(const dalic_batch_t *b, int i, int ndim, const int64_t *dims)
{
	cr_assert_eq(dalic_batch_ndim(b), ndim, "ndim %d, expected %d", dalic_batch_ndim(b), ndim);
	for (int d = 0; d < ndim; d++)
		cr_expect_eq(dalic_batch_shape(b, i)[d], dims[d], "sample %d dim %d: %lld != %lld",
		             i, d, (long long)dalic_batch_shape(b, i)[d], (long long)dims[d]);
}

/* Asserts the n elements of sample i equal `want` (exactly). */
static inline void th_expect_values(const dalic_batch_t *b, int i, int n, const double *want)
{
	int64_t elems =
	    (int64_t)(dalic_batch_sample_bytes(b, i) / dalic_dtype_size(dalic_batch_dtype(b)));
	cr_assert_eq(elems, n, "sample %d has %lld elements, expected %d", i, (long long)elems, n);
	for (int k = 0; k < n; k++)
		cr_expect_eq(th_at(b, i, k), want[k], "sample %d element %d: %.17g != %.17g", i, k,
		             th_at(b, i, k), want[k]);
}

#endif
