/*
 * The samples of one webdataset archive, before readers.webdataset matches their components
 * to its outputs: from a DALI index file (wds2idx's "v1.2 N" header, then per sample line
 * "<ext> <offset> <size> <filename>" per component; v1.1 has no filenames), or from the tar
 * itself (consecutive files with the same basename form a sample: DALI's split_name, the
 * basename ends at the first '.' after the last '/', hidden files are skipped). Errors use
 * DALI's wording: `Malformed index file at "<path>" line <n> - ...`.
 */
#ifndef DALIC_KERNELS_WDS_INDEX_H
#define DALIC_KERNELS_WDS_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct wds_comp {
	int64_t offset, size;
	char *ext, *name; /* name: the file in the archive ("" with a v1.1 index) */
} wds_comp_t;

typedef struct wds_raw {
	int64_t line; /* its line in the index file (0 when read from the tar) */
	int first, n; /* components [first, first + n) */
} wds_raw_t;

typedef struct wds_raw_set {
	wds_comp_t *c;
	int nc, capc;
	wds_raw_t *s;
	int ns, caps;
} wds_raw_set_t;

/* Appends the samples of the index file at `path`. */
int dalic_wds_index_parse(wds_raw_set_t *set, const char *path, char *err, size_t n);
/* Appends the samples of the tar archive open as fd (size bytes) named `path`. */
int dalic_wds_tar_samples(wds_raw_set_t *set, int fd, int64_t size, const char *path, char *err,
                          size_t n);
void dalic_wds_raw_free(wds_raw_set_t *set);

#endif
