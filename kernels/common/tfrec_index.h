/*
 * TFRecord index files as DALI's tfrecord2idx writes them and readers.tfrecord reads them:
 * one "<offset> <size>\n" line per record, size counting the 12-byte header and the 4-byte
 * footer. dalic_tfrec_index_write is `dalic tfrecord-index`: it also checks every record
 * (both CRCs, complete records), where tfrecord2idx would index a truncated file silently.
 */
#ifndef DALIC_KERNELS_TFREC_INDEX_H
#define DALIC_KERNELS_TFREC_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct tfrec_record {
	int64_t off, size;
	int32_t file;
} tfrec_record_t;

typedef struct tfrec_index {
	tfrec_record_t *v;
	int64_t n, cap;
	size_t charged;
} tfrec_index_t;

/* Appends the records listed by index file `path` for data file number `file`. A line that
 * is not two non-negative integers is an error naming the file and line. */
int dalic_tfrec_index_read(tfrec_index_t *x, const char *path, int file, char *err, size_t n);
/* first[f]: index of file f's first record, for f in [0, nfiles]; records are in file order. */
void dalic_tfrec_index_file_starts(const tfrec_index_t *x, int nfiles, int64_t *first);
void dalic_tfrec_index_free(tfrec_index_t *x);
/* Walks TFRecord file `data` and writes its index to `index`; *records gets the count. */
int dalic_tfrec_index_write(const char *data, const char *index, int64_t *records, char *err,
                            size_t n);

#endif
