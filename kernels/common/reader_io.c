/* File access for readers (reader_io.h). */
#include "kernels/common/reader_io.h"

#include "engine/error.h"
#include "engine/memory.h"
#include "kernels/common/img_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* pread until len bytes came or the file ended (a short file is an error naming it). */
int dalic_rdio_pread(int fd, const char *path, int64_t off, int64_t len, uint8_t *dst, char *err,
                     size_t n)
{
	int64_t got = 0;
	while (got < len) {
		ssize_t k = pread(fd, dst + got, (size_t)(len - got), (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			snprintf(err, n, "cannot read '%s' at offset %lld: %s", path,
			         (long long)(off + got),
			         k < 0 ? strerror(errno) : "the file is shorter than expected");
			return -1;
		}
		got += k;
	}
	return 0;
}

int dalic_rdio_load(const char *path, int64_t size, bool use_mmap, uint8_t *dst, char *err,
                    size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, n, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	struct stat st;
	/* a mapping past the end of a file that shrank since it was listed would be SIGBUS */
	if (use_mmap && (fstat(fd, &st) || st.st_size < size))
		use_mmap = false;
	if (size > 0 && use_mmap) {
		void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", path, strerror(errno));
			rc = -1;
		} else {
			memcpy(dst, m, (size_t)size);
			munmap(m, (size_t)size);
		}
	} else if (size > 0) {
		rc = dalic_rdio_pread(fd, path, 0, size, dst, err, n);
	}
	close(fd);
	return rc;
}

int dalic_rdio_keep(const char *path, int64_t size, bool use_mmap, uint8_t **out, bool *mapped,
                    char *err, size_t n)
{
	*out = NULL;
	*mapped = false;
	if (size == 0)
		return 0;
	if (use_mmap) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) || st.st_size != size)) {
			close(fd);
			snprintf(err, n, "'%s' changed size while being read", path);
			return -1;
		}
		void *m = fd < 0 ? MAP_FAILED
		                 : mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
		                        fd, 0);
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (m == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", path, strerror(e));
			return -1;
		}
		*out = m;
		*mapped = true;
		return 0;
	}
	if (dalic_mem_charge((size_t)size)) {
		snprintf(err, n, "read_ahead copy of '%s': %s", path, dalic_last_error());
		return -1;
	}
	uint8_t *copy = malloc((size_t)size);
	if (!copy || dalic_rdio_load(path, size, false, copy, err, n)) {
		if (!copy)
			snprintf(err, n, "out of memory for '%s'", path);
		dalic_mem_uncharge((size_t)size);
		free(copy);
		return -1;
	}
	*out = copy;
	return 0;
}

int dalic_rdio_entry_size(img_file_entry_t *e, bool read_ahead, bool use_mmap, char *err,
                          size_t n)
{
	if (e->size < 0) {
		struct stat st;
		if (stat(e->full, &st) != 0) {
			snprintf(err, n, "cannot access '%s': %s", e->full, strerror(errno));
			return -1;
		}
		e->size = st.st_size;
	}
	if (read_ahead && !e->cache)
		return dalic_rdio_keep(e->full, e->size, use_mmap, &e->cache, &e->cache_mapped, err, n);
	return 0;
}

int dalic_rdio_entry_read(const img_file_entry_t *e, bool use_mmap, uint8_t *dst, char *err,
                          size_t n)
{
	if (e->cache) {
		memcpy(dst, e->cache, (size_t)e->size);
		return 0;
	}
	return dalic_rdio_load(e->full, e->size, use_mmap, dst, err, n);
}

int dalic_rdio_buf_reserve(uint8_t **buf, size_t *cap, size_t need, size_t *charged, char *err,
                           size_t n)
{
	if (need <= *cap)
		return 0;
	size_t grow = need - *cap;
	if (dalic_mem_charge(grow)) {
		snprintf(err, n, "record of %zu bytes: %s", need, dalic_last_error());
		return -1;
	}
	uint8_t *b = realloc(*buf, need);
	if (!b) {
		dalic_mem_uncharge(grow);
		snprintf(err, n, "out of memory for a %zu-byte record", need);
		return -1;
	}
	*charged += grow;
	*buf = b;
	*cap = need;
	return 0;
}

void dalic_rdio_unkeep(uint8_t *data, int64_t size, bool mapped)
{
	if (!data)
		return;
	if (mapped) {
		munmap(data, (size_t)size);
	} else {
		free(data);
		dalic_mem_uncharge((size_t)size);
	}
}

void dalic_rdio_init(dalic_rdio_t *io, bool use_mmap, bool read_ahead)
{
	memset(io, 0, sizeof *io);
	io->use_mmap = use_mmap;
	io->read_ahead = read_ahead;
}

int dalic_rdio_add(dalic_rdio_t *io, const char *path, char *err, size_t n)
{
	if (io->n == io->cap) {
		int cap = io->cap ? io->cap * 2 : 8;
		rdio_file_t *v = realloc(io->files, sizeof *v * (size_t)cap);
		if (!v) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		io->files = v;
		io->cap = cap;
	}
	rdio_file_t *f = &io->files[io->n];
	*f = (rdio_file_t){.path = strdup(path), .fd = -1, .size = -1};
	if (!f->path) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	return io->n++;
}

int dalic_rdio_open(dalic_rdio_t *io, int k, char *err, size_t n)
{
	rdio_file_t *f = &io->files[k];
	if (f->size >= 0)
		return 0;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, n, "cannot open '%s': %s", f->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int64_t size = st.st_size;
	if (size > 0 && io->use_mmap) {
		int flags = MAP_PRIVATE | (io->read_ahead ? MAP_POPULATE : 0);
		void *m = mmap(NULL, (size_t)size, PROT_READ, flags, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", f->path, strerror(errno));
			close(fd);
			return -1;
		}
		f->data = m;
		f->mapped = true;
		close(fd); /* the mapping stays: thousands of shards need no descriptors */
		f->size = st.st_size;
		return 0;
	} else if (size > 0 && io->read_ahead) {
		uint8_t *copy = NULL;
		if (dalic_mem_charge((size_t)size)) {
			snprintf(err, n, "read_ahead copy of '%s': %s", f->path, dalic_last_error());
			close(fd);
			return -1;
		}
		copy = malloc((size_t)size);
		if (!copy || dalic_rdio_pread(fd, f->path, 0, size, copy, err, n)) {
			if (!copy)
				snprintf(err, n, "out of memory for '%s'", f->path);
			free(copy);
			dalic_mem_uncharge((size_t)size);
			close(fd);
			return -1;
		}
		f->data = copy;
	}
	f->size = size;
	f->fd = fd;
	return 0;
}

int dalic_rdio_check(const dalic_rdio_t *io, int k, int64_t off, int64_t len, const char *what,
                     char *err, size_t n)
{
	const rdio_file_t *f = &io->files[k];
	if (off < 0 || len < 0 || off > f->size || len > f->size - off) {
		snprintf(err, n,
		         "%s: bytes [%lld, %lld) lie past the end of '%s' (%lld bytes): the file is "
		         "truncated or its index is wrong",
		         what, (long long)off, (long long)off + (long long)len, f->path,
		         (long long)f->size);
		return -1;
	}
	return 0;
}

const uint8_t *dalic_rdio_at(const dalic_rdio_t *io, int k, int64_t off)
{
	const rdio_file_t *f = &io->files[k];
	return f->data ? f->data + off : NULL;
}

int dalic_rdio_read(const dalic_rdio_t *io, int k, int64_t off, int64_t len, uint8_t *dst,
                    char *err, size_t n)
{
	const rdio_file_t *f = &io->files[k];
	if (f->data) {
		memcpy(dst, f->data + off, (size_t)len);
		return 0;
	}
	return dalic_rdio_pread(f->fd, f->path, off, len, dst, err, n);
}

/* Sequential records (the common order: each file's records in turn) are advised a chunk
 * at a time: one system call per RDIO_HINT_CHUNK instead of one per record, which on a warm
 * page cache is most of what the call costs (the kernel walks the cache for every page). */
#define RDIO_HINT_CHUNK ((int64_t)4 << 20)

/* Whether the page holding byte `at` of mapped file f is in memory (mincore). */
static bool rdio_page_resident(const rdio_file_t *f, int64_t at, long page)
{
	unsigned char v = 0;
	int64_t start = at - at % page;
	return mincore((void *)(f->data + start), 1, &v) == 0 && (v & 1);
}

void dalic_rdio_will_need(dalic_rdio_t *io, int k, int64_t off, int64_t len)
{
	rdio_file_t *f = &io->files[k];
	if (f->size < 0 || len <= 0 || off < 0 || off >= f->size || (f->data && !f->mapped))
		return;
	int64_t end = len < f->size - off ? off + len : f->size;
	if (off >= f->hint_lo && end <= f->hint_hi)
		return; /* advised with the chunk it lies in */
	int64_t lo = off, hi = end;
	if (off >= f->hint_lo && off <= f->hint_hi && f->hint_hi > 0) {
		/* reading on past the advised chunk: the next one */
		lo = f->hint_hi;
		hi = f->size - lo > RDIO_HINT_CHUNK ? lo + RDIO_HINT_CHUNK : f->size;
		hi = hi > end ? hi : end;
	}
	if (f->mapped) {
		long page = sysconf(_SC_PAGESIZE);
		int64_t start = lo - lo % page;
		/* WILLNEED walks the page cache page by page even when all of it is there (a
		 * warm cache, the usual case after the first epoch): two one-page residency checks
		 * at the range's ends skip that */
		if (!rdio_page_resident(f, start, page) || !rdio_page_resident(f, hi - 1, page))
			madvise((void *)(f->data + start), (size_t)(hi - start), MADV_WILLNEED);
	} else if (f->fd >= 0) {
		posix_fadvise(f->fd, (off_t)lo, (off_t)(hi - lo), POSIX_FADV_WILLNEED);
	}
	/* the window slides with the reader, so a later pass (the next epoch) advises again */
	f->hint_lo = off;
	f->hint_hi = hi;
}

void dalic_rdio_free(dalic_rdio_t *io)
{
	for (int k = 0; k < io->n; k++) {
		rdio_file_t *f = &io->files[k];
		if (f->data && f->mapped)
			munmap((void *)f->data, (size_t)f->size);
		else if (f->data) {
			free((void *)f->data);
			dalic_mem_uncharge((size_t)f->size);
		}
		if (f->fd >= 0)
			close(f->fd);
		free(f->path);
	}
	free(io->files);
	memset(io, 0, sizeof *io);
}
