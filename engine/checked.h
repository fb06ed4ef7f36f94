/*
 * Checked size arithmetic: every volume, stride, byte size and offset derived from a shape
 * or a count that came from outside (scripts, protobufs, files, arguments) goes through
 * these, so an overflow is an error instead of a short buffer that claims a large shape.
 * Each returns false on overflow (or a negative input) and leaves *out unspecified.
 */
#ifndef DALIC_ENGINE_CHECKED_H
#define DALIC_ENGINE_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool dalic_ck_mul_i64(int64_t a, int64_t b, int64_t *out)
{
	return a >= 0 && b >= 0 && !__builtin_mul_overflow(a, b, out);
}

static inline bool dalic_ck_add_i64(int64_t a, int64_t b, int64_t *out)
{
	return a >= 0 && b >= 0 && !__builtin_add_overflow(a, b, out);
}

static inline bool dalic_ck_mul_size(size_t a, size_t b, size_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

static inline bool dalic_ck_add_size(size_t a, size_t b, size_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

/* Product of dims[0..ndim) (1 for ndim 0); false on a negative extent or overflow. */
static inline bool dalic_ck_volume(const int64_t *dims, int ndim, int64_t *out)
{
	int64_t v = 1;
	for (int d = 0; d < ndim; d++)
		if (!dalic_ck_mul_i64(v, dims[d], &v))
			return false;
	*out = v;
	return true;
}

/* volume(dims) * elem_size as bytes that fit both int64_t and size_t. */
static inline bool dalic_ck_shape_bytes(const int64_t *dims, int ndim, size_t elem_size,
					size_t *out)
{
	int64_t v, b;
	if (!dalic_ck_volume(dims, ndim, &v) || !dalic_ck_mul_i64(v, (int64_t)elem_size, &b) ||
	    (uint64_t)b > SIZE_MAX)
		return false;
	*out = (size_t)b;
	return true;
}

#endif
