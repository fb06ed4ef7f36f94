/* Batches (see batch.h). */
#include "engine/batch.h"

#include "engine/checked.h"
#include "engine/device.h"
#include "engine/dtype.h"
#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-sample bookkeeping: shapes, pointers, flags, sources and buffers. */
#define BATCH_SLOT_BYTES                                                                          \
	(sizeof(int64_t) * DALIC_MAX_NDIM + sizeof(void *) + sizeof(bool) + sizeof(char *) +       \
	 sizeof(dalic_buffer_t))


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
	dalic_mem_uncharge(BATCH_SLOT_BYTES * (size_t)b->cap_samples);
	free(b->shapes);
	free(b->ptrs);
	free(b->borrowed);
	free(b->sources);
	memset(b, 0, sizeof *b);
}

static int batch_grow_samples(dalic_batch_t *b, int n)
{
	if (n <= b->cap_samples)
		return DALIC_OK;
	int cap = n;
	/* the batch size came from outside: its bookkeeping counts against the budget */
	size_t more = BATCH_SLOT_BYTES * (size_t)(cap - b->cap_samples);
	if (dalic_mem_charge(more))
		return dalic_fail_wrap(DALIC_ENOMEM, "bookkeeping for %d samples", n);
	int64_t *shapes = realloc(b->shapes, sizeof(int64_t) * DALIC_MAX_NDIM * (size_t)cap);
	if (shapes)
		b->shapes = shapes;
	void **ptrs = shapes ? realloc(b->ptrs, sizeof(void *) * (size_t)cap) : NULL;
	if (ptrs)
		b->ptrs = ptrs;
	bool *borrowed = ptrs ? realloc(b->borrowed, sizeof(bool) * (size_t)cap) : NULL;
	if (borrowed)
		b->borrowed = borrowed;
	const char **sources = borrowed ? realloc(b->sources, sizeof(char *) * (size_t)cap) : NULL;
	if (sources)
		b->sources = sources;
	dalic_buffer_t *samples =
		sources ? realloc(b->samples, sizeof(dalic_buffer_t) * (size_t)cap) : NULL;
	if (!samples) {
		dalic_mem_uncharge(more);
		return dalic_fail(DALIC_ENOMEM, "out of memory for batch shapes");
	}
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
	int rc = batch_grow_samples(b, num_samples);
	if (rc)
		return rc;
	if (ndim != b->ndim)
		b->layout[0] = 0;
	b->num_samples = num_samples;
	b->dtype = dtype;
	b->ndim = ndim;
	b->shares = NULL;
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

void dalic_batch_format_shape(const int64_t *dims, int ndim, const char *brackets, char *buf,
                              size_t n)
{
	size_t k = (size_t)snprintf(buf, n, "%c", brackets[0]);
	for (int d = 0; d < ndim && k < n; d++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", d ? ", " : "", (long long)dims[d]);
	if (k < n)
		snprintf(buf + k, n - k, "%c", brackets[1]);
}

/* Saturating: a shape that passed dalic_batch_alloc never gets near the limits. */
int64_t dalic_batch_sample_elems(const dalic_batch_t *b, int i)
{
	int64_t n;
	return dalic_ck_volume(dalic_batch_shape(b, i), b->ndim, &n) ? n : INT64_MAX;
}

size_t dalic_batch_sample_bytes(const dalic_batch_t *b, int i)
{
	size_t n;
	return dalic_ck_shape_bytes(dalic_batch_shape(b, i), b->ndim, dalic_dtype_size(b->dtype),
	                            &n)
	           ? n
	           : SIZE_MAX;
}

size_t dalic_batch_nbytes(const dalic_batch_t *b)
{
	size_t n = 0;
	for (int i = 0; i < b->num_samples; i++)
		if (!dalic_ck_add_size(n, dalic_batch_sample_bytes(b, i), &n))
			return SIZE_MAX;
	return n;
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

/* "sample 3 (file 'a.jpg'), shape [2, 3] of FLOAT" for messages. */
static void batch_describe_sample(const dalic_batch_t *b, int i, char *buf, size_t n)
{
	char shape[256];
	dalic_batch_format_shape(dalic_batch_shape(b, i), b->ndim, "[]", shape, sizeof shape);
	const char *src = b->sources[i];
	snprintf(buf, n, "sample %d%s%s%s, shape %s of %s", i, src ? " (file '" : "",
	         src ? src : "", src ? "')" : "", shape, dalic_dtype_name(b->dtype));
}

/* Bytes of sample i, or an error when its shape has a negative extent or more bytes than
 * an address holds (then no stride or offset of it could be computed either). */
static int batch_checked_bytes(const dalic_batch_t *b, int i, size_t *out)
{
	if (dalic_ck_shape_bytes(dalic_batch_shape(b, i), b->ndim, dalic_dtype_size(b->dtype), out))
		return DALIC_OK;
	char what[512];
	batch_describe_sample(b, i, what, sizeof what);
	const int64_t *dims = dalic_batch_shape(b, i);
	for (int d = 0; d < b->ndim; d++)
		if (dims[d] < 0)
			return dalic_fail(DALIC_EINVAL, "%s: negative extent in dim %d", what, d);
	return dalic_fail(DALIC_EINVAL, "%s: too large, its size in bytes overflows 63 bits", what);
}

/* Sample storage starts on 64-byte boundaries in contiguous batches, unless packed (a packed
 * sample still starts aligned for its dtype: sizes are whole elements, the buffer 64-aligned). */
static bool batch_padded(const dalic_batch_t *b, size_t bytes, size_t *out)
{
	if (b->packed) {
		*out = bytes;
		return true;
	}
	if (!dalic_ck_add_size(bytes, 63, out))
		return false;
	*out &= ~(size_t)63;
	return true;
}

/* Where samples of 0 bytes point when their storage has none: never NULL, so a kernel's
 * memcpy(dst, src, 0) stays defined. Nothing is ever written there. */
static _Alignas(64) char batch_no_bytes[64];

static int batch_alloc_contiguous(dalic_batch_t *b)
{
	size_t total = 0, largest = 0;
	int biggest = -1;
	for (int i = 0; i < b->num_samples; i++) {
		size_t bytes, padded;
		DALIC_TRY(batch_checked_bytes(b, i, &bytes));
		if (b->borrowed[i])
			continue;
		if (!batch_padded(b, bytes, &padded) || !dalic_ck_add_size(total, padded, &total))
			return dalic_fail(DALIC_EINVAL, "%d samples: their total size overflows",
					  b->num_samples);
		if (biggest < 0 || bytes > largest) {
			biggest = i;
			largest = bytes;
		}
	}
	int rc = dalic_buffer_resize(&b->whole, total);
	if (rc) {
		char what[512] = "no samples";
		if (biggest >= 0) {
			batch_describe_sample(b, biggest, what, sizeof what);
			size_t k = strlen(what);
			snprintf(what + k, sizeof what - k, ", %zu bytes", largest);
		}
		return dalic_fail_wrap(rc, "output of %d samples, %zu bytes (largest: %s)",
				       b->num_samples, total, what);
	}
	char *base = b->whole.data ? b->whole.data : batch_no_bytes;
	size_t off = 0;
	for (int i = 0; i < b->num_samples; i++) {
		if (b->borrowed[i])
			continue;
		size_t padded;
		batch_padded(b, dalic_batch_sample_bytes(b, i), &padded);
		b->ptrs[i] = base + off;
		off += padded;
	}
	return DALIC_OK;
}

int dalic_batch_alloc(dalic_batch_t *b)
{
	if (b->contiguous)
		return batch_alloc_contiguous(b);
	for (int i = 0; i < b->num_samples; i++) {
		size_t bytes;
		DALIC_TRY(batch_checked_bytes(b, i, &bytes));
		if (b->borrowed[i])
			continue;
		int rc = dalic_buffer_resize(&b->samples[i], bytes);
		if (rc) {
			char what[512];
			batch_describe_sample(b, i, what, sizeof what);
			return dalic_fail_wrap(rc, "%s", what);
		}
		b->ptrs[i] = b->samples[i].data ? b->samples[i].data : batch_no_bytes;
	}
	return DALIC_OK;
}

int dalic_batch_reserve(dalic_batch_t *b, size_t bytes_per_sample, int max_samples)
{
	b->hint_bytes_per_sample = bytes_per_sample;
	if (!bytes_per_sample)
		return DALIC_OK;
	DALIC_TRY(batch_grow_samples(b, max_samples));
	size_t total;
	if (max_samples < 0 || !dalic_ck_mul_size(bytes_per_sample, (size_t)max_samples, &total))
		return dalic_fail(DALIC_EINVAL, "bytes_per_sample %zu for %d samples overflows",
				  bytes_per_sample, max_samples);
	int rc = b->contiguous ? dalic_buffer_reserve(&b->whole, total) : DALIC_OK;
	for (int i = 0; !rc && !b->contiguous && i < max_samples; i++)
		rc = dalic_buffer_reserve(&b->samples[i], bytes_per_sample);
	if (rc)
		return dalic_fail_wrap(rc, "presizing %d samples of %zu bytes (bytes_per_sample)",
				       max_samples, bytes_per_sample);
	return DALIC_OK;
}

/* Samples back to back in memory: a packed batch's own, or borrowed ones that lie that way
 * in the batch they come from (a reshape of a packed batch). Two allocations are never
 * adjacent (the allocator keeps a header between them), so this means one buffer. */
bool dalic_batch_can_share_all(const dalic_batch_t *b, const dalic_batch_t *src)
{
	if (src->mem != b->mem)
		return false;
	const char *next = NULL;
	for (int i = 0; i < src->num_samples; i++) {
		size_t n = dalic_batch_sample_bytes(src, i);
		if (!n)
			continue;
		if (next && (const char *)src->ptrs[i] != next)
			return false;
		next = (const char *)src->ptrs[i] + n;
	}
	return true;
}

int dalic_batch_share_all(dalic_batch_t *b, const dalic_batch_t *src)
{
	DALIC_TRY(dalic_batch_copy_meta(b, src));
	dalic_buffer_free(&b->whole);
	for (int i = 0; i < src->num_samples; i++)
		dalic_batch_share_sample(b, i, src, i);
	b->shares = src;
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
