/*
 * Getting PipelineDef bytes safely into protobuf-c structures.
 *
 * protobuf-c's unpacker only says yes or no, and recurses once per nesting level with no
 * limit. So before unpacking, a small walker checks the wire format against the generated
 * descriptors: it refuses nesting deeper than DALIC_PROTO_MAX_DEPTH (so hostile input cannot
 * exhaust the stack) and, when the bytes are bad, names the first problem with its byte
 * offset and field path ("op[1].args[0]: missing required field 'is_vector'"). It never
 * accepts what protobuf-c would refuse: a clean walk is followed by the real unpack.
 */
#include "frontend/proto/proto_internal.h"

#include "engine/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walker {
	const uint8_t *base; /* start of the whole buffer, for offsets */
	char *msg;
	size_t n;
} walker_t;

/* Reads a varint at *p (< end). Returns false if it is truncated or longer than 10 bytes. */
static bool wire_read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (*p >= end)
			return false;
		uint8_t b = *(*p)++;
		x |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

static bool wire_fail(walker_t *w, const uint8_t *at, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Writes "<path>: <detail> (at byte N)" and returns true (a problem was found). */
static bool wire_fail(walker_t *w, const uint8_t *at, const char *path, const char *fmt, ...)
{
	char detail[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	snprintf(w->msg, w->n, "%s%s%s (at byte %zu)", path, *path ? ": " : "", detail,
	         (size_t)(at - w->base));
	return true;
}

/* Wire type a field of type t is written with (packed repeated numbers also accept 2). */
static int wire_type_of(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return 1;
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_FLOAT:
		return 5;
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_BYTES:
	case PROTOBUF_C_TYPE_MESSAGE:
		return 2;
	default:
		return 0;
	}
}

static bool wire_walk(walker_t *w, const ProtobufCMessageDescriptor *d, const uint8_t *p,
                      const uint8_t *end, const char *path, int depth)
{
	if (depth > DALIC_PROTO_MAX_DEPTH)
		return wire_fail(w, p, path, "messages nested more than %d deep",
		                 DALIC_PROTO_MAX_DEPTH);
	unsigned counts[64] = {0}; /* occurrences per field index, for names and required */
	while (p < end) {
		const uint8_t *start = p;
		uint64_t tag, v;
		if (!wire_read_varint(&p, end, &tag))
			return wire_fail(w, start, path, "truncated field tag");
		unsigned num = (unsigned)(tag >> 3), wt = (unsigned)(tag & 7);
		if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
			return wire_fail(w, start, path, "invalid field number %llu",
			                 (unsigned long long)(tag >> 3));
		const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, num);
		char sub[512];
		unsigned idx = f ? (unsigned)(f - d->fields) : 0;
		if (!f)
			snprintf(sub, sizeof sub, "%s%sfield %u", path, *path ? "." : "", num);
		else if (f->label == PROTOBUF_C_LABEL_REPEATED)
			snprintf(sub, sizeof sub, "%s%s%s[%u]", path, *path ? "." : "", f->name,
			         idx < 64 ? counts[idx] : 0);
		else
			snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", f->name);
		switch (wt) {
		case 0:
			if (!wire_read_varint(&p, end, &v))
				return wire_fail(w, start, sub, "truncated varint");
			break;
		case 1:
		case 5: {
			size_t need = wt == 1 ? 8 : 4;
			if ((size_t)(end - p) < need)
				return wire_fail(w, start, sub, "%zu-byte value cut off, %zu left",
				                 need, (size_t)(end - p));
			p += need;
			break;
		}
		case 2:
			if (!wire_read_varint(&p, end, &v))
				return wire_fail(w, start, sub, "truncated length");
			if (v > (uint64_t)(end - p))
				return wire_fail(w, start, sub,
				                 "length %llu runs past the end (%zu bytes left)",
				                 (unsigned long long)v, (size_t)(end - p));
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    wire_walk(w, f->descriptor, p, p + v, sub, depth + 1))
				return true;
			p += v;
			break;
		default:
			return wire_fail(w, start, sub, "unsupported wire type %u", wt);
		}
		if (!f)
			continue; /* unknown fields are skipped, as every protobuf parser does */
		int want = wire_type_of(f->type);
		bool packed = wt == 2 && f->label == PROTOBUF_C_LABEL_REPEATED && want != 2;
		if ((int)wt != want && !packed)
			return wire_fail(w, start, sub, "wire type %u where %d was expected", wt,
			                 want);
		if (idx < 64)
			counts[idx]++;
	}
	for (unsigned i = 0; i < d->n_fields && i < 64; i++)
		if (d->fields[i].label == PROTOBUF_C_LABEL_REQUIRED && !counts[i])
			return wire_fail(w, end, path, "missing required field '%s'",
			                 d->fields[i].name);
	return false;
}

bool dalic_proto_check_wire(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len,
                            char *msg, size_t n)
{
	walker_t w = {.base = buf, .msg = msg, .n = n};
	if (n)
		msg[0] = 0;
	return wire_walk(&w, d, buf, buf + len, "", 0);
}

int dalic_proto_unpack(const uint8_t *buf, size_t len, DaliProto__PipelineDef **out)
{
	char why[768];
	*out = NULL;
	if (!buf && len)
		return dalic_fail(DALIC_EINVAL, "serialized pipeline: NULL buffer");
	static const uint8_t empty[1];
	if (!buf)
		buf = empty;
	if (dalic_proto_check_wire(&dali_proto__pipeline_def__descriptor, buf, len, why,
	                           sizeof why))
		return dalic_fail(DALIC_EPARSE, "Error parsing serialized pipeline: %s", why);
	DaliProto__PipelineDef *m = dali_proto__pipeline_def__unpack(NULL, len, buf);
	if (!m)
		return dalic_fail(DALIC_EPARSE,
		                  "Error parsing serialized pipeline: protobuf-c refused the bytes "
		                  "(%zu bytes; malformed values)",
		                  len);
	*out = m;
	return DALIC_OK;
}

bool dalic_proto_sniff(const uint8_t *buf, size_t len)
{
	char why[8];
	if (!buf || dalic_proto_check_wire(&dali_proto__pipeline_def__descriptor, buf, len, why,
	                                   sizeof why))
		return false;
	DaliProto__PipelineDef *m = dali_proto__pipeline_def__unpack(NULL, len, buf);
	if (!m)
		return false;
	dali_proto__pipeline_def__free_unpacked(m, NULL);
	return true;
}

int dalic_proto_slurp(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return dalic_fail(DALIC_EIO, "cannot open '%s': %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *nb = realloc(b, cap * 2);
		if (!nb) {
			free(b);
			b = NULL;
			break;
		}
		b = nb;
		cap *= 2;
	}
	bool err = ferror(f);
	fclose(f);
	if (!b)
		return dalic_fail(DALIC_ENOMEM, "out of memory reading '%s'", path);
	if (err) {
		free(b);
		return dalic_fail(DALIC_EIO, "cannot read '%s'", path);
	}
	*buf = b;
	*len = n;
	return DALIC_OK;
}
