/*
 * MXNet RecordIO for readers.mxnet (DALI's RecordIOLoader and RecordIOParser).
 * Index: "<key> <offset>" per line (MXNet's .idx); offsets count through the .rec files as if
 * concatenated; sorted, each record runs to the next offset (the last to the end of the last
 * file), empty ones dropped. A record is parts of `uint32 magic 0xced7230a, uint32 cflag << 29
 * | length, payload padded to 4 bytes`; cflag 0 is a whole record, 1/2/3 first/middle/last part
 * (the writer split the payload where it held the magic, which joining puts back). The payload
 * starts with MXNet's image header {uint32 flag, float label, uint64 id[2]}; flag > 0 means
 * `flag` float labels precede the image bytes, else the label is the header's.
 */
#ifndef DALIC_KERNELS_RECIO_H
#define DALIC_KERNELS_RECIO_H

#include "kernels/common/tfrec_index.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECIO_MAGIC 0xced7230au

/* The records of index `path` over data files of the given sizes, as (file, offset in it,
 * size); a record may run on into the next files. */
int dalic_recio_index_read(tfrec_index_t *x, const char *path, const int64_t *sizes, int nfiles,
                           char *err, size_t n);

typedef struct recio_view {
	uint32_t nlabels;     /* 1 when the header's flag is 0 */
	float label;          /* the header's label (flag 0) */
	const uint8_t *labels; /* flag floats (flag > 0), unaligned */
	const uint8_t *image;
	int64_t image_size;
	bool joined; /* image and labels lie in the join buffer, not in the record */
} recio_view_t;

/* Parses one record of `len` bytes. Multi-part records are joined into *buf (grown, *cap
 * bytes). Errors say what is wrong; the caller names the file and offset. */
int dalic_recio_parse(const uint8_t *rec, int64_t len, recio_view_t *v, uint8_t **buf,
                      size_t *cap, char *err, size_t n);

#endif
