/*
 * File access for readers. Two shapes of data:
 *  - one sample per file (readers.file, numpy, coco, sequence): dalic_rdio_load reads a whole
 *    file (mapped or read()), dalic_rdio_keep keeps it for read_ahead;
 *  - many records per file (TFRecord, RecordIO, webdataset): a dalic_rdio_t table of files,
 *    each opened once and, unless dont_use_mmap, mapped whole; records are ranges of it.
 * Setup-time calls (open, check) run on the stage thread; dalic_rdio_read / dalic_rdio_at are
 * safe from worker threads once the file is open. Errors go to `err` and name the file.
 */
#ifndef DALIC_KERNELS_READER_IO_H
#define DALIC_KERNELS_READER_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- whole files -------------------------------------------------------------------------- */

/* pread of [off, off + len) of an open file into dst; a short file is an error naming `path`. */
int dalic_rdio_pread(int fd, const char *path, int64_t off, int64_t len, uint8_t *dst, char *err,
                     size_t n);
/* Reads `size` bytes (the size found at listing time) of `path` into dst. */
int dalic_rdio_load(const char *path, int64_t size, bool use_mmap, uint8_t *dst, char *err,
                    size_t n);
/* read_ahead: the whole file kept (mapped and populated, or read into a charged buffer).
 * *mapped says which; free with dalic_rdio_unkeep. */
int dalic_rdio_keep(const char *path, int64_t size, bool use_mmap, uint8_t **out, bool *mapped,
                    char *err, size_t n);
void dalic_rdio_unkeep(uint8_t *data, int64_t size, bool mapped);

/* The size of a listed file (stat on first use) and, for read_ahead, its kept copy. */
struct img_file_entry;
int dalic_rdio_entry_size(struct img_file_entry *e, bool read_ahead, bool use_mmap, char *err,
                          size_t n);
/* A listed file's bytes into dst: its kept copy, or the file. */
int dalic_rdio_entry_read(const struct img_file_entry *e, bool use_mmap, uint8_t *dst, char *err,
                          size_t n);

/* A record buffer of at least `need` bytes: *buf grown (realloc) from *cap, the growth
 * charged against the memory budget and added to *charged (uncharge it at the end). */
int dalic_rdio_buf_reserve(uint8_t **buf, size_t *cap, size_t need, size_t *charged, char *err,
                           size_t n);

/* ---- files of records ----------------------------------------------------------------------- */

typedef struct rdio_file {
	char *path;
	int fd;              /* open while reads go through pread (not mapped) */
	int64_t size;        /* -1 until opened */
	const uint8_t *data; /* the whole file: mapped, or read for read_ahead; NULL otherwise */
	bool mapped;
	int64_t hint_lo, hint_hi; /* the range last advised (dalic_rdio_will_need) */
} rdio_file_t;

typedef struct dalic_rdio {
	rdio_file_t *files;
	int n, cap;
	bool use_mmap, read_ahead;
} dalic_rdio_t;

void dalic_rdio_init(dalic_rdio_t *io, bool use_mmap, bool read_ahead);
/* Appends a file; returns its index or -1 (out of memory; err set). */
int dalic_rdio_add(dalic_rdio_t *io, const char *path, char *err, size_t n);
/* Opens (and maps, or reads for read_ahead) file k if not yet done; its size is then known. */
int dalic_rdio_open(dalic_rdio_t *io, int k, char *err, size_t n);
/* Fails unless [off, off + len) lies inside open file k; `what` names the record. */
int dalic_rdio_check(const dalic_rdio_t *io, int k, int64_t off, int64_t len, const char *what,
                     char *err, size_t n);
/* The bytes at `off` of open file k when it is held in memory, else NULL. */
const uint8_t *dalic_rdio_at(const dalic_rdio_t *io, int k, int64_t off);
/* Copies [off, off + len) of open file k into dst (memcpy or pread). */
int dalic_rdio_read(const dalic_rdio_t *io, int k, int64_t off, int64_t len, uint8_t *dst,
                    char *err, size_t n);
/* Tells the system the range will be read soon (madvise / posix_fadvise WILLNEED); a range
 * that continues the last one advises the next 4 MiB at once, and ranges inside what was
 * just advised make no call. Stage thread only (it keeps the advised range per file). */
void dalic_rdio_will_need(dalic_rdio_t *io, int k, int64_t off, int64_t len);
void dalic_rdio_free(dalic_rdio_t *io);

#endif
