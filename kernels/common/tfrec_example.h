/*
 * tf.train.Example, read straight from the protobuf wire bytes (no copy, no allocation):
 * Example{Features features = 1}, Features{map<string, Feature> feature = 1},
 * Feature{oneof kind: BytesList bytes_list = 1, FloatList float_list = 2,
 * Int64List int64_list = 3}, each list `repeated ... value = 1` (floats and int64s packed or
 * not). A scan finds the wanted features and counts their values; the copy functions then
 * read the values out. As protobuf merges messages, a later map entry with the same key and
 * a later `kind` field win.
 */
#ifndef DALIC_KERNELS_TFREC_EXAMPLE_H
#define DALIC_KERNELS_TFREC_EXAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TFREC_KIND_NONE = 0, TFREC_KIND_BYTES = 1, TFREC_KIND_FLOAT = 2, TFREC_KIND_INT64 = 3 };

typedef struct tfrec_span {
	bool present;        /* the Example has the key */
	int kind;            /* TFREC_KIND_*: which list the Feature holds */
	const uint8_t *list; /* the list message */
	size_t list_len;
	int64_t count;       /* values in the list */
	const uint8_t *first; /* bytes lists: the first value */
	size_t first_len;
} tfrec_span_t;

/* Scans the Example in [p, p + n) for the `nnames` keys; spans[i] describes names[i]. Returns
 * -1 with a message in err (naming the byte offset) when the bytes are not a valid Example. */
int dalic_tfrec_example_scan(const uint8_t *p, size_t n, int nnames, const char *const *names,
                             tfrec_span_t *spans, char *err, size_t errn);
/* The values of a scanned float / int64 list (span->count of them). */
void dalic_tfrec_copy_floats(const tfrec_span_t *s, float *dst);
void dalic_tfrec_copy_int64s(const tfrec_span_t *s, int64_t *dst);

#endif
