/*
 * Protobuf wire bytes read in place (no copy, no allocation), for the readers whose records
 * are protobuf messages (tf.train.Example, caffe.Datum, caffe2.TensorProtos): a bounded
 * cursor over one message that yields its fields one by one. Length-delimited payloads point
 * into the caller's buffer.
 */
#ifndef DALIC_KERNELS_PB_WIRE_H
#define DALIC_KERNELS_PB_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pbw_cur {
	const uint8_t *p, *end, *base; /* base: where byte offsets in messages count from */
} pbw_cur_t;

enum { PBW_VARINT = 0, PBW_I64 = 1, PBW_LEN = 2, PBW_I32 = 5 };

typedef struct pbw_field {
	uint32_t num; /* field number */
	int wt;       /* wire type, PBW_* */
	uint64_t v;   /* PBW_VARINT: the value; PBW_I32 / PBW_I64: the little-endian bits */
	const uint8_t *data; /* the payload (PBW_LEN) or the value's bytes (the others) */
	size_t len;
} pbw_field_t;

/* A varint at c->p: false when it is cut off or longer than 10 bytes. */
bool dalic_pbw_varint(pbw_cur_t *c, uint64_t *v);
/* The next field of the message: false when its key or value is broken (a bad field
 * number, a cut-off value, a length past the end, a group or unknown wire type). */
bool dalic_pbw_next(pbw_cur_t *c, pbw_field_t *f);
/* Values of a repeated 32-bit number field occurrence (PBW_I32 one, or PBW_LEN packed):
 * their count, or -1 when a packed payload is not a whole number of them. */
int64_t dalic_pbw_count_fixed32(const pbw_field_t *f);
/* Values of a repeated varint field occurrence (PBW_VARINT one, or PBW_LEN packed): their
 * count, or -1 when the packed payload holds a broken varint. Copies them to dst unless
 * NULL. */
int64_t dalic_pbw_varints(const pbw_field_t *f, int64_t *dst);

#endif
