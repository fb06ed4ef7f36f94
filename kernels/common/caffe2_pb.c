/* caffe2.TensorProtos wire reader (caffe2_pb.h). */
#include "kernels/common/caffe2_pb.h"

#include "kernels/common/pb_wire.h"

#include <stdlib.h>
#include <string.h>

/* DataType's values (a proto2 enum: others are unknown fields, the old value stays). */
static bool c2pb_known_type(int32_t t)
{
	return (t >= 0 && t <= 10) || t == 12 || t == 13;
}

/* A repeated varint field's occurrence: its value count, or -1 (broken packed run);
 * 0 for an occurrence of another wire type (an unknown field). */
static int64_t c2pb_varint_count(const pbw_field_t *f)
{
	return f->wt == PBW_VARINT || f->wt == PBW_LEN ? dalic_pbw_varints(f, NULL) : 0;
}

static int64_t c2pb_fixed_count(const pbw_field_t *f, int wt, size_t size)
{
	if (f->wt == wt)
		return 1;
	if (f->wt != PBW_LEN)
		return 0;
	return f->len % size == 0 ? (int64_t)(f->len / size) : -1;
}

/* dims[0..2] from an occurrence of dims (read before n_dims counts it). */
static void c2pb_first_dims(dalic_c2pb_t *out, const pbw_field_t *f)
{
	if (f->wt == PBW_VARINT && out->n_dims < 3)
		out->dims[out->n_dims] = (int64_t)f->v;
	if (f->wt != PBW_LEN)
		return;
	pbw_cur_t r = {f->data, f->data + f->len, f->data};
	uint64_t v;
	for (int64_t j = out->n_dims; j < 3 && r.p < r.end && dalic_pbw_varint(&r, &v); j++)
		out->dims[j] = (int64_t)v;
}

bool dalic_c2pb_parse(const uint8_t *p, size_t n, dalic_c2pb_t *out)
{
	pbw_cur_t c = {p, p + n, p};
	pbw_field_t f;
	*out = (dalic_c2pb_t){.msg = p, .len = n, .data_type = DALIC_C2PB_FLOAT};
	while (c.p < c.end) {
		if (!dalic_pbw_next(&c, &f))
			return false;
		int64_t k = 0;
		switch (f.num) {
		case DALIC_C2PB_DIMS:
			if ((k = c2pb_varint_count(&f)) < 0)
				return false;
			c2pb_first_dims(out, &f);
			out->n_dims += k;
			break;
		case DALIC_C2PB_DATA_TYPE:
			if (f.wt == PBW_VARINT && c2pb_known_type((int32_t)(uint32_t)f.v))
				out->data_type = (int32_t)(uint32_t)f.v;
			break;
		case DALIC_C2PB_FLOATS:
			if ((k = c2pb_fixed_count(&f, PBW_I32, 4)) < 0)
				return false;
			out->n_floats += k;
			break;
		case DALIC_C2PB_DOUBLES:
			if (c2pb_fixed_count(&f, PBW_I64, 8) < 0)
				return false;
			break;
		case DALIC_C2PB_INT32S:
		case DALIC_C2PB_INT64S:
			if ((k = c2pb_varint_count(&f)) < 0)
				return false;
			*(f.num == DALIC_C2PB_INT32S ? &out->n_int32s : &out->n_int64s) += k;
			break;
		case DALIC_C2PB_BYTES:
			if (f.wt == PBW_LEN)
				out->bytes = f.data, out->n_bytes = f.len;
			break;
		case DALIC_C2PB_STRINGS:
			if (f.wt == PBW_LEN && out->n_strings++ == 0)
				out->string0 = f.data, out->string0_len = f.len;
			break;
		default: /* name and unknown fields */
			break;
		}
	}
	return true;
}

int64_t dalic_c2pb_parse_protos(const uint8_t *p, size_t n, dalic_c2pb_t **protos,
                                int64_t *cap)
{
	pbw_cur_t c = {p, p + n, p};
	pbw_field_t f;
	int64_t count = 0;
	while (c.p < c.end) {
		if (!dalic_pbw_next(&c, &f))
			return -1;
		if (f.num != 1 || f.wt != PBW_LEN)
			continue;
		if (count == *cap) {
			int64_t ncap = *cap ? 2 * *cap : 8;
			dalic_c2pb_t *np = realloc(*protos, sizeof *np * (size_t)ncap);
			if (!np)
				return -2;
			*protos = np, *cap = ncap;
		}
		if (!dalic_c2pb_parse(f.data, f.len, &(*protos)[count++]))
			return -1;
	}
	return count;
}

void dalic_c2pb_it_init(dalic_c2pb_it_t *it, const dalic_c2pb_t *proto, uint32_t num)
{
	*it = (dalic_c2pb_it_t){proto->msg, proto->msg + proto->len, NULL, NULL, num};
}

bool dalic_c2pb_it_next(dalic_c2pb_it_t *it, uint64_t *bits)
{
	bool fixed = it->num == DALIC_C2PB_FLOATS;
	for (;;) {
		if (it->rp < it->rend) {
			if (fixed) {
				const uint8_t *b = it->rp;
				*bits = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
				        (uint64_t)b[3] << 24;
				it->rp += 4;
				return true;
			}
			pbw_cur_t r = {it->rp, it->rend, it->rp};
			bool ok = dalic_pbw_varint(&r, bits);
			it->rp = r.p;
			return ok;
		}
		pbw_cur_t c = {it->p, it->end, it->p};
		pbw_field_t f;
		do {
			if (c.p >= c.end || !dalic_pbw_next(&c, &f))
				return false;
		} while (f.num != it->num);
		it->p = c.p;
		if (f.wt == PBW_LEN) {
			it->rp = f.data, it->rend = f.data + f.len;
		} else if (f.wt == (fixed ? PBW_I32 : PBW_VARINT)) {
			*bits = f.v;
			return true;
		}
	}
}

double dalic_c2pb_it_double(uint32_t num, uint64_t bits)
{
	if (num != DALIC_C2PB_FLOATS)
		return (double)(int32_t)(uint32_t)bits;
	float v;
	uint32_t b = (uint32_t)bits;
	memcpy(&v, &b, 4);
	return v;
}

void dalic_c2pb_copy(const dalic_c2pb_t *proto, uint32_t num, void *dst)
{
	dalic_c2pb_it_t it;
	uint64_t bits;
	dalic_c2pb_it_init(&it, proto, num);
	for (size_t k = 0; dalic_c2pb_it_next(&it, &bits); k++) {
		if (num == DALIC_C2PB_INT64S) {
			((int64_t *)dst)[k] = (int64_t)bits;
		} else {
			uint32_t v = (uint32_t)bits; /* float bits or int32 */
			memcpy((uint8_t *)dst + 4 * k, &v, 4);
		}
	}
}
