/*
 * The file lists behind readers.file (DALI's FileLabelLoader metadata: directory traversal with
 * labels from sorted subdirectories, `file_list` text files) and readers.numpy (FileLoader's),
 * and DALI's shard arithmetic.
 * An entry's `path` is what DALI calls the sample's source info: the path relative to
 * file_root (or as written in the list), which errors downstream quote.
 */
#ifndef DALIC_KERNELS_IMG_FILES_H
#define DALIC_KERNELS_IMG_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct img_file_entry {
	char *path;     /* relative entry (source info) */
	char *full;     /* path opened on disk: file_root joined with `path` */
	int32_t label;
	int64_t size;   /* bytes, -1 until first stat */
	uint8_t *cache; /* read_ahead copy (mmap'd or malloc'd), NULL until first use */
	bool cache_mapped;
} img_file_entry_t;

typedef struct img_file_list {
	img_file_entry_t *v;
	int n, cap;
	size_t charged; /* bytes of entries and names charged against the memory budget */
} img_file_list_t;

void dalic_img_file_list_free(img_file_list_t *l);
/* Appends (path, label); `root` (may be NULL) is joined to make the on-disk path. Returns -1
 * with dalic_last_error() set when out of memory or over the memory budget. */
int dalic_img_file_list_add(img_file_list_t *l, const char *root, const char *path, int32_t label);

/* Directory mode: immediate subdirectories of `root` (filtered by dir_filters when any), sorted
 * byte-wise, label = index; inside each, regular files/symlinks matching one of `filters`,
 * sorted. `err` receives a message on failure (returns -1). */
int dalic_img_file_list_scan(img_file_list_t *l, const char *root, const char *const *filters,
                             int nfilters, const char *const *dir_filters, int ndir_filters,
                             bool case_sensitive, char *err, size_t errn);

/* FileLoader's directory mode (readers.numpy): the files of `root` itself matching `filter`
 * (case-sensitive), as "./name", then those of each immediate subdirectory (sorted), as
 * "sub/name"; labels 0. */
int dalic_img_file_list_scan_flat(img_file_list_t *l, const char *root, const char *filter,
                                  char *err, size_t errn);
/* FileLoader's `file_list`: one path per line taken as written (spaces kept), empty lines
 * skipped; labels 0. */
int dalic_img_file_list_parse_names(img_file_list_t *l, const char *list_path, const char *root,
                                    char *err, size_t errn);

/* Parses a `file_list`: per line, from the end: trailing spaces, a decimal label, spaces, the
 * name (inner spaces allowed). Empty lines are skipped. A label past 2**31 - 1 is an error
 * naming the file and line (DALI's atoi would wrap it). Returns -1 with `err` set on failure. */
int dalic_img_file_list_parse(img_file_list_t *l, const char *list_path, const char *root,
                              char *err, size_t errn);

/* DALI's shard arithmetic (loader.cc): first index of shard `id` of `n` over `size` samples,
 * and the largest shard size ceil(size / n). */
static inline int64_t img_shard_start(int64_t id, int64_t n, int64_t size)
{
	return size * id / n;
}
static inline int64_t img_shard_max_size(int64_t n, int64_t size)
{
	return (size + n - 1) / n;
}

#endif
