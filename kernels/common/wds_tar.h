/*
 * A POSIX tar walker for readers.webdataset (dalic's own, instead of libtar or libarchive:
 * the reader needs only each entry's name, type, size and data offset, read straight from
 * the headers with pread). It understands ustar (prefix + name), GNU long names ('L') and
 * long link names ('K'), pax extended headers ('x': path and size; 'g' skipped), octal and
 * base-256 sizes, and checks every header's checksum. The end is two blocks whose name is
 * empty (libtar's rule, as DALI reads archives) or the end of the file. Regular files ('0',
 * '\0', '7') are reported as files; directories, links, devices and FIFOs as other entries;
 * anything else is an error, as in DALI.
 */
#ifndef DALIC_KERNELS_WDS_TAR_H
#define DALIC_KERNELS_WDS_TAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One entry: its path in the archive, where its data starts, its size. Return non-zero to
 * stop the walk (that status is returned). */
typedef int (*wds_tar_fn)(void *user, const char *name, int64_t data_offset, int64_t size,
                          bool regular);

/* Walks the archive open as fd (size bytes), `path` naming it in errors. Returns 0, the
 * callback's status, or -1 with `err` set (corrupt or truncated archive). */
int dalic_wds_tar_walk(int fd, int64_t size, const char *path, wds_tar_fn fn, void *user,
                       char *err, size_t n);

#endif
