/* Strided window copies (see strided_copy.h). */
#include "kernels/common/strided_copy.h"

#include <string.h>

static void strided_fill(const strided_copy_t *s, uint8_t *out, int64_t n)
{
	if (s->esize == 1) {
		memset(out, *(const uint8_t *)s->fill, (size_t)n);
		return;
	}
	for (int64_t k = 0; k < n; k++)
		memcpy(out + k * (int64_t)s->esize, s->fill, s->esize);
}

/* One element from in[off] to out, for the element sizes there are. */
static inline void strided_elem(size_t esize, const uint8_t *in, int64_t off, uint8_t *out)
{
	memcpy(out, in + off * (int64_t)esize, esize);
}

/* Dim d of the window: out gets `blk[d]` elements per index. Returns the end of out. */
static uint8_t *strided_dim(const strided_copy_t *s, const int64_t *blk, int d, const uint8_t *in,
                            int64_t off, uint8_t *out)
{
	int64_t n = s->out_shape[d], a = s->anchor[d], ext = s->in_shape[d];
	/* indices j with 0 <= a + j < ext: [lo, hi) */
	int64_t lo = a < 0 ? -a : 0, hi = ext - a;
	lo = lo > n ? n : lo;
	hi = hi > n ? n : hi < lo ? lo : hi;
	size_t es = s->esize;
	strided_fill(s, out, lo * blk[d]);
	out += lo * blk[d] * (int64_t)es;
	if (d == s->ndim - 1 && s->strides[d] == 1) {
		memcpy(out, in + (off + a + lo) * (int64_t)es, (size_t)(hi - lo) * es);
		out += (hi - lo) * (int64_t)es;
	} else if (d == s->ndim - 1) {
		for (int64_t j = lo; j < hi; j++, out += es)
			strided_elem(es, in, off + (a + j) * s->strides[d], out);
	} else {
		for (int64_t j = lo; j < hi; j++)
			out = strided_dim(s, blk, d + 1, in, off + (a + j) * s->strides[d], out);
	}
	strided_fill(s, out, (n - hi) * blk[d]);
	return out + (n - hi) * blk[d] * (int64_t)es;
}

void dalic_strided_copy(const strided_copy_t *s, const void *in, void *out)
{
	if (s->ndim == 0) {
		memcpy(out, in, s->esize);
		return;
	}
	int64_t blk[64];
	int64_t v = 1;
	for (int d = s->ndim - 1; d >= 0; d--) {
		blk[d] = v;
		v *= s->out_shape[d];
	}
	if (v == 0)
		return;
	strided_dim(s, blk, 0, in, 0, out);
}
