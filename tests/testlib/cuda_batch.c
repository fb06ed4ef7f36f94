/* Batches for the grid-runner tests (see cuda_batch.h). */
#include "tests/testlib/cuda_batch.h"

static void tl_cu_batch_shapes(tl_cu_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                               const int64_t *shapes)
{
	cr_assert(n <= TL_CU_MAX_SAMPLES && ndim <= DALIC_MAX_NDIM);
	memset(b, 0, sizeof *b);
	b->n = n;
	b->ndim = ndim;
	b->dtype = dtype;
	for (int i = 0; i < n; i++) {
		size_t e = 1;
		for (int d = 0; d < ndim; d++)
			e *= (size_t)(b->shape[i][d] = shapes[i * ndim + d]);
		b->bytes[i] = e * dalic_dtype_size(dtype);
		b->data[i] = calloc(1, b->bytes[i] ? b->bytes[i] : 1);
		cr_assert(b->data[i]);
	}
}

void tl_cu_batch_alloc(tl_cu_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                       const int64_t *shapes)
{
	tl_cu_batch_shapes(b, dtype, ndim, n, shapes);
}

void tl_cu_batch_random(tl_cu_batch_t *b, dalic_dtype_t dtype, int ndim, int n,
                        const int64_t *shapes, double lo_hi, uint32_t seed)
{
	tl_cu_batch_shapes(b, dtype, ndim, n, shapes);
	uint32_t s = seed;
	for (int i = 0; i < n; i++)
		tl_cu_random_fill(b->data[i], dtype, b->bytes[i] / dalic_dtype_size(dtype), lo_hi,
		                  &s);
}

void tl_cu_batch_like(tl_cu_batch_t *b, const dalic_batch_t *cpu, uint8_t canary)
{
	int n = dalic_batch_num_samples(cpu), nd = dalic_batch_ndim(cpu);
	int64_t shapes[TL_CU_MAX_SAMPLES * DALIC_MAX_NDIM] = {0};
	cr_assert(n <= TL_CU_MAX_SAMPLES);
	for (int i = 0; i < n; i++)
		for (int d = 0; d < nd; d++)
			shapes[i * nd + d] = dalic_batch_shape(cpu, i)[d];
	tl_cu_batch_shapes(b, dalic_batch_dtype(cpu), nd, n, shapes);
	for (int i = 0; i < n; i++)
		tl_cu_fill(b->data[i], b->bytes[i], canary);
}

void tl_cu_batch_free(tl_cu_batch_t *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->data[i]);
	memset(b, 0, sizeof *b);
}

void tl_cu_batch_feed(dalic_pipeline_t *p, const char *name, const tl_cu_batch_t *b,
                      const char *layout)
{
	size_t total = 0;
	for (int i = 0; i < b->n; i++)
		total += b->bytes[i];
	uint8_t *all = malloc(total ? total : 1), *q = all;
	for (int i = 0; i < b->n; i++) {
		memcpy(q, b->data[i], b->bytes[i]);
		q += b->bytes[i];
	}
	int64_t shapes[TL_CU_MAX_SAMPLES * DALIC_MAX_NDIM];
	for (int i = 0; i < b->n; i++)
		for (int d = 0; d < b->ndim; d++)
			shapes[i * b->ndim + d] = b->shape[i][d];
	tl_feed(p, name, b->dtype, b->ndim, b->n, shapes, all, layout);
	free(all);
}

void tl_cu_feed_ints(dalic_pipeline_t *p, const char *name, int n, const int32_t *v)
{
	int64_t shapes[TL_CU_MAX_SAMPLES];
	cr_assert(n <= TL_CU_MAX_SAMPLES);
	for (int i = 0; i < n; i++)
		shapes[i] = 1;
	tl_feed(p, name, DALIC_INT32, 1, n, shapes, v, NULL);
}

int tl_cu_expect_equal(const dalic_batch_t *cpu, const tl_cu_batch_t *gpu, const char *what)
{
	int bad = 0;
	cr_expect_eq(dalic_batch_num_samples(cpu), gpu->n, "%s: sample count", what);
	cr_expect_eq(dalic_batch_dtype(cpu), gpu->dtype, "%s: dtype", what);
	size_t es = dalic_dtype_size(gpu->dtype);
	for (int i = 0; i < gpu->n && i < dalic_batch_num_samples(cpu); i++) {
		const uint8_t *c = dalic_batch_data(cpu, i);
		size_t n = dalic_batch_sample_bytes(cpu, i);
		if (n != gpu->bytes[i]) {
			cr_expect_fail(
			    "%s: sample %d has %zu bytes on the CPU, %zu from the kernel", what, i,
			    n, gpu->bytes[i]);
			bad++;
			continue;
		}
		for (size_t k = 0; k < n; k++) {
			if (c[k] != gpu->data[i][k]) {
				cr_expect_fail(
				    "%s: sample %d differs first at element %zu (byte %zu): "
				    "CPU %02x, kernel %02x",
				    what, i, k / es, k, c[k], gpu->data[i][k]);
				bad++;
				break;
			}
		}
	}
	return bad;
}
