/* Batches (see batch.h). */
#include "engine/batch.h"

#include "engine/device.h"
#include "engine/dtype.h"
#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dalic_batch_init(dalic_batch_t *b, dalic_mem_kind_t mem, bool contiguous,
		      dalic_mem_counter_t *owner)
{
	memset(b, 0, sizeof *b);
	b->dtype = DALIC_NO_TYPE;
	b->mem = mem;
	b->gpu = mem == DALIC_MEM_DEVICE;
	b->contiguous = contiguous;
	b->owner = owner;
	dalic_buffer_init(&b->whole, mem, owner);
}

void dalic_batch_free(dalic_batch_t *b)
{
	if (!b)
		return;
	dalic_buffer_free(&b->whole);
	if (b->samples)
		for (int i = 0; i < b->cap_samples; i++)
			dalic_buffer_free(&b->samples[i]);
	free(b->samples);
	free(b->shapes);
	free(b->ptrs);
	free(b->borrowed);
	free(b->sources);
	memset(b, 0, sizeof *b);
}

static int grow_samples(dalic_batch_t *b, int n)
{
	if (n <= b->cap_samples)
		return DALIC_OK;
	int cap = n;
	int64_t *shapes = realloc(b->shapes, sizeof(int64_t) * DALIC_MAX_NDIM * (size_t)cap);
	if (!shapes)
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	b->shapes = shapes;
	void **ptrs = realloc(b->ptrs, sizeof(void *) * (size_t)cap);
	if (!ptrs)
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	b->ptrs = ptrs;
	bool *borrowed = realloc(b->borrowed, sizeof(bool) * (size_t)cap);
	if (!borrowed)
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	b->borrowed = borrowed;
	const char **sources = realloc(b->sources, sizeof(char *) * (size_t)cap);
	if (!sources)
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	b->sources = sources;
	dalic_buffer_t *samples = realloc(b->samples, sizeof(dalic_buffer_t) * (size_t)cap);
	if (!samples)
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	b->samples = samples;
	for (int i = b->cap_samples; i < cap; i++) {
		dalic_buffer_init(&b->samples[i], b->mem, b->owner);
		b->ptrs[i] = NULL;
		b->borrowed[i] = false;
		b->sources[i] = NULL;
	}
	b->cap_samples = cap;
	return DALIC_OK;
}

int dalic_batch_set_meta(dalic_batch_t *b, int num_samples, dalic_dtype_t dtype, int ndim)
{
	if (num_samples < 0 || ndim < 0 || ndim > DALIC_MAX_NDIM)
		return dalic_fail(DALIC_EINVAL, "invalid batch: %d samples, %d dims", num_samples,
				  ndim);
	int rc = grow_samples(b, num_samples);
	if (rc)
		return rc;
	if (ndim != b->ndim)
		b->layout[0] = 0;
	b->num_samples = num_samples;
	b->dtype = dtype;
	b->ndim = ndim;
	if (num_samples > 0)
		memset(b->shapes, 0, sizeof(int64_t) * DALIC_MAX_NDIM * (size_t)num_samples);
	for (int i = 0; i < num_samples; i++) {
		b->borrowed[i] = false;
		b->sources[i] = NULL;
	}
	return DALIC_OK;
}

void dalic_batch_set_layout(dalic_batch_t *b, const char *layout)
{
	snprintf(b->layout, sizeof b->layout, "%s", layout ? layout : "");
}

void dalic_batch_set_shape(dalic_batch_t *b, int i, const int64_t *dims)
{
	if (b->ndim == 0) /* scalars: dims may be NULL */
		return;
	memcpy(dalic_batch_shape_mut(b, i), dims, sizeof(int64_t) * (size_t)b->ndim);
}

void dalic_batch_set_uniform_shape(dalic_batch_t *b, const int64_t *dims)
{
	for (int i = 0; i < b->num_samples; i++)
		dalic_batch_set_shape(b, i, dims);
}

int64_t dalic_batch_sample_elems(const dalic_batch_t *b, int i)
{
	int64_t n = 1;
	const int64_t *s = b->shapes + (size_t)i * DALIC_MAX_NDIM;
	for (int d = 0; d < b->ndim; d++)
		n *= s[d];
	return n;
}

size_t dalic_batch_sample_bytes(const dalic_batch_t *b, int i)
{
	return (size_t)dalic_batch_sample_elems(b, i) * dalic_dtype_size(b->dtype);
}

size_t dalic_batch_nbytes(const dalic_batch_t *b)
{
	int64_t n = 0;
	for (int i = 0; i < b->num_samples; i++)
		n += dalic_batch_sample_elems(b, i);
	return (size_t)n * dalic_dtype_size(b->dtype);
}

size_t dalic_batch_capacity(const dalic_batch_t *b)
{
	if (b->contiguous)
		return b->whole.capacity;
	size_t n = 0;
	for (int i = 0; i < b->cap_samples; i++)
		n += b->samples[i].capacity;
	return n;
}

size_t dalic_batch_max_sample_bytes(const dalic_batch_t *b)
{
	size_t m = 0;
	for (int i = 0; i < b->num_samples; i++) {
		size_t s = dalic_batch_sample_bytes(b, i);
		if (s > m)
			m = s;
	}
	return m;
}

bool dalic_batch_uniform_shape(const dalic_batch_t *b)
{
	for (int i = 1; i < b->num_samples; i++)
		if (memcmp(b->shapes, b->shapes + (size_t)i * DALIC_MAX_NDIM,
			   sizeof(int64_t) * (size_t)b->ndim))
			return false;
	return true;
}

int dalic_batch_alloc(dalic_batch_t *b)
{
	if (b->contiguous) {
		size_t total = 0;
		for (int i = 0; i < b->num_samples; i++)
			if (!b->borrowed[i])
				total += (dalic_batch_sample_bytes(b, i) + 63) & ~(size_t)63;
		int rc = dalic_buffer_resize(&b->whole, total);
		if (rc)
			return rc;
		size_t off = 0;
		for (int i = 0; i < b->num_samples; i++) {
			if (b->borrowed[i])
				continue;
			b->ptrs[i] = (char *)b->whole.data + off;
			off += (dalic_batch_sample_bytes(b, i) + 63) & ~(size_t)63;
		}
		return DALIC_OK;
	}
	for (int i = 0; i < b->num_samples; i++) {
		if (b->borrowed[i])
			continue;
		int rc = dalic_buffer_resize(&b->samples[i], dalic_batch_sample_bytes(b, i));
		if (rc)
			return rc;
		b->ptrs[i] = b->samples[i].data;
	}
	return DALIC_OK;
}

int dalic_batch_reserve(dalic_batch_t *b, size_t bytes_per_sample, int max_samples)
{
	b->hint_bytes_per_sample = bytes_per_sample;
	if (!bytes_per_sample)
		return DALIC_OK;
	int rc = grow_samples(b, max_samples);
	if (rc)
		return rc;
	if (b->contiguous)
		return dalic_buffer_reserve(&b->whole, bytes_per_sample * (size_t)max_samples);
	for (int i = 0; i < max_samples; i++) {
		rc = dalic_buffer_reserve(&b->samples[i], bytes_per_sample);
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

void dalic_batch_share_sample(dalic_batch_t *b, int i, const dalic_batch_t *src, int j)
{
	b->ptrs[i] = src->ptrs[j];
	b->borrowed[i] = true;
	b->sources[i] = src->sources[j];
	memcpy(dalic_batch_shape_mut(b, i), src->shapes + (size_t)j * DALIC_MAX_NDIM,
	       sizeof(int64_t) * DALIC_MAX_NDIM);
}

int dalic_batch_copy_meta(dalic_batch_t *b, const dalic_batch_t *src)
{
	int rc = dalic_batch_set_meta(b, src->num_samples, src->dtype, src->ndim);
	if (rc)
		return rc;
	memcpy(b->layout, src->layout, sizeof b->layout);
	if (src->num_samples > 0)
		memcpy(b->shapes, src->shapes,
		       sizeof(int64_t) * DALIC_MAX_NDIM * (size_t)src->num_samples);
	for (int i = 0; i < src->num_samples; i++)
		b->sources[i] = src->sources[i];
	return DALIC_OK;
}

int dalic_batch_copy(dalic_batch_t *b, const dalic_batch_t *src)
{
	int rc = dalic_batch_copy_meta(b, src);
	if (!rc)
		rc = dalic_batch_alloc(b);
	if (rc)
		return rc;
	const dalic_device_backend_t *dev = dalic_device_backend();
	bool host = b->mem != DALIC_MEM_DEVICE && src->mem != DALIC_MEM_DEVICE;
	for (int i = 0; i < src->num_samples; i++) {
		size_t n = dalic_batch_sample_bytes(src, i);
		if (!n)
			continue;
		if (host)
			memcpy(b->ptrs[i], src->ptrs[i], n);
		else if (dev->copy(b->ptrs[i], src->ptrs[i], n))
			return dalic_fail(DALIC_EDEVICE, "device copy of %zu bytes failed", n);
	}
	return DALIC_OK;
}

/* ---- public read accessors ---- */
int dalic_batch_num_samples(const dalic_batch_t *b)
{
	return b->num_samples;
}

dalic_dtype_t dalic_batch_dtype(const dalic_batch_t *b)
{
	return b->dtype;
}

int dalic_batch_ndim(const dalic_batch_t *b)
{
	return b->ndim;
}

const char *dalic_batch_layout(const dalic_batch_t *b)
{
	return b->layout;
}

const char *dalic_batch_device(const dalic_batch_t *b)
{
	return b->gpu ? "gpu" : "cpu";
}

const int64_t *dalic_batch_shape(const dalic_batch_t *b, int i)
{
	return b->shapes + (size_t)i * DALIC_MAX_NDIM;
}

const void *dalic_batch_data(const dalic_batch_t *b, int i)
{
	return b->ptrs[i];
}

const char *dalic_batch_source(const dalic_batch_t *b, int i)
{
	return b->sources[i];
}
