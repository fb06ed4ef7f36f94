/*
 * caffe2.TensorProtos (the records of Caffe2 LMDB databases) read from their wire bytes in
 * place (pb_wire.h), as protobuf's C++ parser reads them: unknown fields and known fields of
 * an unexpected wire type are skipped, a later singular field wins, repeated numbers are
 * taken packed or one by one (occurrences concatenate). Nothing is copied: the protos point
 * into the record's bytes.
 */
#ifndef DALIC_KERNELS_CAFFE2_PB_H
#define DALIC_KERNELS_CAFFE2_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* TensorProto's field numbers (caffe2/proto/caffe2.proto) and the data types read. */
enum {
	DALIC_C2PB_DIMS = 1,
	DALIC_C2PB_DATA_TYPE = 2,
	DALIC_C2PB_FLOATS = 3,
	DALIC_C2PB_INT32S = 4,
	DALIC_C2PB_BYTES = 5,
	DALIC_C2PB_STRINGS = 6,
	DALIC_C2PB_NAME = 7,
	DALIC_C2PB_DOUBLES = 9,
	DALIC_C2PB_INT64S = 10,
};
enum { DALIC_C2PB_FLOAT = 1, DALIC_C2PB_INT32 = 2, DALIC_C2PB_BYTE = 3, DALIC_C2PB_STRING = 4,
       DALIC_C2PB_INT64 = 10 };

typedef struct dalic_c2pb {
	const uint8_t *msg; /* the TensorProto's bytes (for dalic_c2pb_it_*) */
	size_t len;
	int32_t data_type; /* FLOAT when absent */
	int64_t n_dims, n_floats, n_int32s, n_int64s, n_strings;
	int64_t dims[3];          /* the first three dims */
	const uint8_t *bytes;     /* byte_data (the last occurrence; NULL when absent) */
	size_t n_bytes;
	const uint8_t *string0;   /* string_data[0] */
	size_t string0_len;
} dalic_c2pb_t;

/* One TensorProto: false when the bytes are not one. */
bool dalic_c2pb_parse(const uint8_t *p, size_t n, dalic_c2pb_t *out);

/* The protos of a TensorProtos record into *protos (grown with realloc, *cap its length):
 * their count, -1 when the bytes are not a TensorProtos, -2 when out of memory. */
int64_t dalic_c2pb_parse_protos(const uint8_t *p, size_t n, dalic_c2pb_t **protos,
                                int64_t *cap);

/* The values of a repeated number field (FLOATS, INT32S or INT64S) of a parsed proto, in
 * order: the float's bits, or the varint (int32 values: its low 32 bits). */
typedef struct dalic_c2pb_it {
	const uint8_t *p, *end;   /* the message's fields left */
	const uint8_t *rp, *rend; /* the packed run being read */
	uint32_t num;
} dalic_c2pb_it_t;

void dalic_c2pb_it_init(dalic_c2pb_it_t *it, const dalic_c2pb_t *proto, uint32_t num);
bool dalic_c2pb_it_next(dalic_c2pb_it_t *it, uint64_t *bits);
/* A FLOATS or INT32S value as a double. */
double dalic_c2pb_it_double(uint32_t num, uint64_t bits);
/* All values of the field into dst: float, int32_t or int64_t as the field's type. */
void dalic_c2pb_copy(const dalic_c2pb_t *proto, uint32_t num, void *dst);

#endif
