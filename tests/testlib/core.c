/* The shared test library's core: status messages, pipelines, executor modes, batches
 * (see tests/testlib.h). */
#include "tests/testlib.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Appends " [context]" to the message of k characters in buf. */
static void tl_append_context(char *buf, size_t size, int k, const char *fmt, va_list ap)
{
	if (!fmt[0] || k < 0 || (size_t)k + 4 >= size)
		return;
	k += snprintf(buf + k, size - (size_t)k, " [");
	int c = vsnprintf(buf + k, size - (size_t)k, fmt, ap);
	if (c > 0 && (size_t)(k + c) + 2 < size)
		snprintf(buf + k + c, size - (size_t)(k + c), "]");
}

const char *tl_status_text(int got, int want, const char *call, const char *fmt, ...)
{
	static __thread char buf[8192];
	int k = snprintf(buf, sizeof buf, "%s returned %d (%s), expected %d (%s): %s", call, got,
	                 dalic_strerror(got), want, dalic_strerror(want), dalic_last_error());
	va_list ap;
	va_start(ap, fmt);
	tl_append_context(buf, sizeof buf, k, fmt, ap);
	va_end(ap);
	return buf;
}

bool tl_text_has(const char *text, const char *needle, bool prefix)
{
	if (!text)
		return false;
	return prefix ? !strncmp(text, needle, strlen(needle)) : strstr(text, needle) != NULL;
}

const char *tl_has_text(const char *what, const char *text, const char *needle, bool prefix,
                        const char *fmt, ...)
{
	static __thread char buf[16384];
	int k = snprintf(buf, sizeof buf, "%s %s \"%s\": %s", what,
	                 prefix ? "does not start with" : "lacks", needle, text ? text : "(null)");
	va_list ap;
	va_start(ap, fmt);
	tl_append_context(buf, sizeof buf, k, fmt, ap);
	va_end(ap);
	return buf;
}

dalic_pipeline_t *tl_pipeline(int batch_size)
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
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	return p;
}

dalic_op_t *tl_op(dalic_pipeline_t *p, const char *name)
{
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, name, "cpu", &op), "operator %s", name);
	return op;
}

dalic_op_t *tl_source(dalic_pipeline_t *p, const char *name)
{
	dalic_op_t *op = tl_op(p, "external_source");
	ASSERT_OK(dalic_op_set_name(op, name));
	return op;
}

void tl_input(dalic_op_t *op, const char *node)
{
	ASSERT_OK(dalic_op_add_input(op, node, NULL));
}

void tl_output(dalic_pipeline_t *p, dalic_op_t *op)
{
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
}

void tl_feed(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype, int ndim, int batch,
             const int64_t *shapes, const void *data, const char *layout)
{
	ASSERT_OK(dalic_pipeline_feed_input(p, name, dtype, ndim, batch, shapes, data, layout));
}

const dalic_batch_t *tl_run(dalic_pipeline_t *p, int i)
{
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, i);
	cr_assert_not_null(b);
	return b;
}

const char *tl_run_fails(dalic_pipeline_t *p, int expected)
{
	ASSERT_STATUS(dalic_pipeline_run(p), expected);
	return dalic_last_error();
}

const tl_mode_t tl_modes[TL_NUM_MODES] = {
    {"simple", false, false, false, 2, 2},
    {"pipelined", true, false, false, 2, 2},
    {"async", true, true, false, 2, 2},
    {"separated", true, true, true, 3, 2},
};

dalic_pipeline_params_t tl_mode_params(const tl_mode_t *m, int batch, int threads)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = batch;
	p.num_threads = threads;
	p.seed = 42;
	p.exec_pipelined = m->pipelined;
	p.exec_async = m->async;
	p.separated_queues = m->separated;
	p.prefetch_cpu = m->cpu;
	p.prefetch_gpu = m->gpu;
	return p;
}

float tl_half(uint16_t h)
{
	int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	float v = exp == 0    ? ldexpf((float)man, -24)
	          : exp == 31 ? (man ? NAN : INFINITY)
	                      : ldexpf((float)(man | 0x400), exp - 25);
	return sign ? -v : v;
}

double tl_at(const dalic_batch_t *b, int i, int64_t k)
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
		return tl_half(((const uint16_t *)d)[k]);
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

void tl_expect_shape(const dalic_batch_t *b, int i, int ndim, const int64_t *dims)
{
	cr_assert_eq(dalic_batch_ndim(b), ndim, "ndim %d, expected %d", dalic_batch_ndim(b), ndim);
	for (int d = 0; d < ndim; d++)
		cr_expect_eq(dalic_batch_shape(b, i)[d], dims[d], "sample %d dim %d: %lld != %lld",
		             i, d, (long long)dalic_batch_shape(b, i)[d], (long long)dims[d]);
}

void tl_expect_values(const dalic_batch_t *b, int i, int n, const double *want)
{
	int64_t elems =
	    (int64_t)(dalic_batch_sample_bytes(b, i) / dalic_dtype_size(dalic_batch_dtype(b)));
	cr_assert_eq(elems, n, "sample %d has %lld elements, expected %d", i, (long long)elems, n);
	for (int k = 0; k < n; k++)
		cr_expect_eq(tl_at(b, i, k), want[k], "sample %d element %d: %.17g != %.17g", i, k,
		             tl_at(b, i, k), want[k]);
}

void tl_expect_near(const dalic_batch_t *b, int i, int n, const double *want, double tol)
{
	int64_t elems =
	    (int64_t)(dalic_batch_sample_bytes(b, i) / dalic_dtype_size(dalic_batch_dtype(b)));
	cr_assert_eq(elems, n, "sample %d has %lld elements, expected %d", i, (long long)elems, n);
	for (int k = 0; k < n; k++) {
		double v = tl_at(b, i, k);
		bool ok = isnan(want[k]) ? isnan(v) : fabs(v - want[k]) <= tol;
		cr_expect(ok, "sample %d element %d: %.9g not within %g of %.9g", i, k, v, tol,
		          want[k]);
	}
}

void tl_expect_same_batch(const dalic_batch_t *a, const dalic_batch_t *b, const char *what)
{
	cr_assert_not_null(a, "%s: first batch missing", what);
	tl_snapshot_t snap;
	tl_snap(&snap, a);
	tl_expect_same_snap(&snap, b, what);
	tl_snap_free(&snap);
}

void tl_snap(tl_snapshot_t *snap, const dalic_batch_t *b)
{
	cr_assert_not_null(b);
	memset(snap, 0, sizeof *snap);
	snap->n = dalic_batch_num_samples(b);
	snap->ndim = dalic_batch_ndim(b);
	snap->dtype = dalic_batch_dtype(b);
	const char *layout = dalic_batch_layout(b);
	snprintf(snap->layout, sizeof snap->layout, "%s", layout ? layout : "");
	size_t n = snap->n > 0 ? (size_t)snap->n : 1;
	snap->shapes = calloc(n * (size_t)(snap->ndim + 1), sizeof *snap->shapes);
	snap->bytes = calloc(n, sizeof *snap->bytes);
	snap->data = calloc(n, sizeof *snap->data);
	cr_assert(snap->shapes && snap->bytes && snap->data);
	for (int i = 0; i < snap->n; i++) {
		if (snap->ndim)
			memcpy(snap->shapes + (size_t)i * snap->ndim, dalic_batch_shape(b, i),
			       sizeof(int64_t) * (size_t)snap->ndim);
		snap->bytes[i] = dalic_batch_sample_bytes(b, i);
		snap->data[i] = malloc(snap->bytes[i] + 1);
		cr_assert_not_null(snap->data[i]);
		if (snap->bytes[i])
			memcpy(snap->data[i], dalic_batch_data(b, i), snap->bytes[i]);
	}
}

bool tl_snap_equal(const tl_snapshot_t *snap, const dalic_batch_t *b)
{
	if (dalic_batch_num_samples(b) != snap->n)
		return false;
	for (int i = 0; i < snap->n; i++)
		if (dalic_batch_sample_bytes(b, i) != snap->bytes[i] ||
		    (snap->bytes[i] &&
		     memcmp(dalic_batch_data(b, i), snap->data[i], snap->bytes[i])))
			return false;
	return true;
}

void tl_expect_same_snap(const tl_snapshot_t *snap, const dalic_batch_t *b, const char *what)
{
	cr_assert_not_null(b, "%s: second batch missing", what);
	cr_assert_eq(snap->n, dalic_batch_num_samples(b), "%s: sample count %d vs %d", what,
	             snap->n, dalic_batch_num_samples(b));
	cr_assert_eq(snap->dtype, dalic_batch_dtype(b), "%s: dtype %s vs %s", what,
	             dalic_dtype_name(snap->dtype), dalic_dtype_name(dalic_batch_dtype(b)));
	cr_assert_eq(snap->ndim, dalic_batch_ndim(b), "%s: ndim", what);
	const char *layout = dalic_batch_layout(b);
	cr_assert_str_eq(snap->layout, layout ? layout : "", "%s: layout", what);
	for (int i = 0; i < snap->n; i++) {
		cr_assert(!snap->ndim || !memcmp(snap->shapes + (size_t)i * snap->ndim,
		                                 dalic_batch_shape(b, i),
		                                 sizeof(int64_t) * (size_t)snap->ndim),
		          "%s: shape of sample %d", what, i);
		size_t n = snap->bytes[i];
		cr_assert_eq(n, dalic_batch_sample_bytes(b, i), "%s: bytes of sample %d", what, i);
		cr_assert(!n || !memcmp(snap->data[i], dalic_batch_data(b, i), n),
		          "%s: data of sample %d differs", what, i);
	}
}

void tl_snap_free(tl_snapshot_t *snap)
{
	for (int i = 0; i < snap->n; i++)
		free(snap->data[i]);
	free(snap->data);
	free(snap->bytes);
	free(snap->shapes);
	memset(snap, 0, sizeof *snap);
}
