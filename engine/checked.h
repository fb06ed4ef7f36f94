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

/* volume(dims) * elem_size as bytes that fit both int64_t and size_t, under numpy's rule: the
 * product of the non-zero extents times elem_size must fit too, so every stride and offset a
 * kernel derives from a shape that passed is representable, even when one extent is 0
 * ([0, 2**40, 2**40] is refused as numpy refuses it). */
static inline bool dalic_ck_shape_bytes(const int64_t *dims, int ndim, size_t elem_size,
					size_t *out)
{
	if ((uint64_t)elem_size > INT64_MAX)
		return false;
	int64_t span = (int64_t)elem_size;
	bool empty = false;
	for (int d = 0; d < ndim; d++) {
		if (dims[d] < 0)
			return false;
		if (dims[d] == 0)
			empty = true;
		else if (!dalic_ck_mul_i64(span, dims[d], &span))
			return false;
	}
	if ((uint64_t)span > SIZE_MAX)
		return false;
	*out = empty ? 0 : (size_t)span;
	return true;
}

/* A double argument as an integer extent or count: finite and within +-2**62, truncated
 * toward zero as C++'s static_cast does (so a NaN or 1e300 never reaches a cast). */
static inline bool dalic_ck_double_to_i64(double v, int64_t *out)
{
	if (!(v > -4611686018427387904.0 && v < 4611686018427387904.0))
		return false;
	*out = (int64_t)v;
	return true;
}

#endif
