/* Protobuf wire cursor (pb_wire.h). */
#include "kernels/common/pb_wire.h"

#include <string.h>

bool dalic_pbw_varint(pbw_cur_t *c, uint64_t *v)
{
	uint64_t x = 0;
	const uint8_t *p = c->p;
	for (int s = 0; s < 70 && p < c->end; s += 7) {
		uint8_t b = *p++;
		x |= (uint64_t)(b & 0x7f) << (s < 64 ? s : 63);
		if (!(b & 0x80)) {
			*v = x;
			c->p = p;
			return true;
		}
	}
	c->p = p;
	return false;
}

bool dalic_pbw_next(pbw_cur_t *c, pbw_field_t *f)
{
	uint64_t key;
	if (!dalic_pbw_varint(c, &key) || key >> 3 == 0 || key >> 3 > 0x1fffffff)
		return false;
	f->num = (uint32_t)(key >> 3);
	f->wt = (int)(key & 7);
	f->data = c->p;
	f->v = 0;
	switch (f->wt) {
	case PBW_VARINT:
		if (!dalic_pbw_varint(c, &f->v))
			return false;
		f->len = (size_t)(c->p - f->data);
		return true;
	case PBW_I64:
	case PBW_I32:
		f->len = f->wt == PBW_I64 ? 8 : 4;
		if ((size_t)(c->end - c->p) < f->len)
			return false;
		for (size_t k = 0; k < f->len; k++)
			f->v |= (uint64_t)c->p[k] << (8 * k);
		c->p += f->len;
		return true;
	case PBW_LEN:
		if (!dalic_pbw_varint(c, &f->v) || f->v > (uint64_t)(c->end - c->p))
			return false;
		f->data = c->p;
		f->len = (size_t)f->v;
		c->p += f->len;
		return true;
	default: /* groups (3, 4) are in none of these messages */
		return false;
	}
}

int64_t dalic_pbw_count_fixed32(const pbw_field_t *f)
{
	if (f->wt == PBW_I32)
		return 1;
	return f->wt == PBW_LEN && f->len % 4 == 0 ? (int64_t)(f->len / 4) : -1;
}

int64_t dalic_pbw_varints(const pbw_field_t *f, int64_t *dst)
{
	if (f->wt == PBW_VARINT) {
		if (dst)
			*dst = (int64_t)f->v;
		return 1;
	}
	if (f->wt != PBW_LEN)
		return -1;
	pbw_cur_t in = {f->data, f->data + f->len, f->data};
	int64_t n = 0;
	uint64_t v;
	while (in.p < in.end) {
		if (!dalic_pbw_varint(&in, &v))
			return -1;
		if (dst)
			dst[n] = (int64_t)v;
		n++;
	}
	return n;
}
