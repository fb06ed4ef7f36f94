/* TFRecord index files (tfrec_index.h). */
#include "kernels/common/tfrec_index.h"

#include "engine/error.h"
#include "engine/memory.h"
#include "kernels/common/crc32c.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int tfrec_index_push(tfrec_index_t *x, int64_t off, int64_t size, int file, char *err,
                            size_t n)
{
	if (x->n == x->cap) {
		int64_t cap = x->cap ? x->cap * 2 : 1024;
		size_t grow = (size_t)(cap - x->cap) * sizeof *x->v;
		if (dalic_mem_charge(grow)) {
			snprintf(err, n, "index of %lld records: %s", (long long)cap,
			         dalic_last_error());
			return -1;
		}
		tfrec_record_t *v = realloc(x->v, sizeof *v * (size_t)cap);
		if (!v) {
			dalic_mem_uncharge(grow);
			snprintf(err, n, "out of memory for %lld index entries", (long long)cap);
			return -1;
		}
		x->charged += grow;
		x->v = v;
		x->cap = cap;
	}
	x->v[x->n++] = (tfrec_record_t){off, size, file};
	return 0;
}

/* The next non-negative decimal on the line at *p; false at the end of the line. */
static bool tfrec_index_number(const char **p, long long *v, bool *bad)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	*bad = false;
	if (!*s || *s == '\n') {
		*p = s;
		return false;
	}
	char *end;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (end == s || errno || *v < 0 || (*end && !isspace((unsigned char)*end))) {
		*bad = true;
		return false;
	}
	*p = end;
	return true;
}

int dalic_tfrec_index_read(tfrec_index_t *x, const char *path, int file, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, n, "Failed to open file %s: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	for (long lineno = 1; getline(&line, &cap, f) >= 0 && !rc; lineno++) {
		const char *p = line;
		long long off, size;
		bool bad;
		if (!tfrec_index_number(&p, &off, &bad)) {
			if (!bad)
				continue; /* an empty line */
		} else if (tfrec_index_number(&p, &size, &bad)) {
			long long extra;
			if (!tfrec_index_number(&p, &extra, &bad) && !bad) {
				rc = tfrec_index_push(x, off, size, file, err, n);
				continue;
			}
			bad = true;
		} else {
			bad = true;
		}
		snprintf(err, n,
		         "index file '%s', line %ld: expected '<offset> <size>' (two non-negative "
		         "integers), found '%.60s'",
		         path, lineno, line);
		rc = -1;
	}
	free(line);
	fclose(f);
	return rc;
}

void dalic_tfrec_index_file_starts(const tfrec_index_t *x, int nfiles, int64_t *first)
{
	int64_t k = 0;
	for (int f = 0; f <= nfiles; f++) {
		while (k < x->n && x->v[k].file < f)
			k++;
		first[f] = k;
	}
}

void dalic_tfrec_index_free(tfrec_index_t *x)
{
	free(x->v);
	if (x->charged)
		dalic_mem_uncharge(x->charged);
	memset(x, 0, sizeof *x);
}

static uint64_t tfrec_index_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t tfrec_index_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Checks the record at `off` of the mapped file; *size gets its full size. */
static int tfrec_index_record(const char *path, const uint8_t *m, int64_t total, int64_t off,
                              int64_t *size, char *err, size_t n)
{
	int64_t left = total - off;
	if (left < 12) {
		snprintf(err, n, "'%s': truncated record header at offset %lld (%lld bytes left)", path,
		         (long long)off, (long long)left);
		return -1;
	}
	if (dalic_crc32c_masked(m + off, 8) != tfrec_index_le32(m + off + 8)) {
		snprintf(err, n,
		         "'%s': not a TFRecord record at offset %lld (the length CRC does not match)",
		         path, (long long)off);
		return -1;
	}
	uint64_t len = tfrec_index_le64(m + off);
	if (len > (uint64_t)left - 12 || (uint64_t)left - 12 - len < 4) {
		snprintf(err, n,
		         "'%s': truncated record at offset %lld: %llu payload bytes and a CRC need "
		         "%llu bytes, the file has %lld left",
		         path, (long long)off, (unsigned long long)len, (unsigned long long)len + 16,
		         (long long)left);
		return -1;
	}
	if (dalic_crc32c_masked(m + off + 12, (size_t)len) !=
	    tfrec_index_le32(m + off + 12 + len)) {
		snprintf(err, n, "'%s': corrupt record at offset %lld (the data CRC does not match)",
		         path, (long long)off);
		return -1;
	}
	*size = (int64_t)len + 16;
	return 0;
}

int dalic_tfrec_index_write(const char *data, const char *index, int64_t *records, char *err,
                            size_t n)
{
	*records = 0;
	int fd = open(data, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, n, "cannot open '%s': %s", data, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int64_t total = st.st_size;
	const uint8_t *m = NULL;
	if (total > 0) {
		void *p = mmap(NULL, (size_t)total, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", data, strerror(errno));
			close(fd);
			return -1;
		}
		madvise(p, (size_t)total, MADV_SEQUENTIAL);
		m = p;
	}
	close(fd);
	FILE *out = fopen(index, "w");
	int rc = 0;
	if (!out) {
		snprintf(err, n, "cannot write '%s': %s", index, strerror(errno));
		rc = -1;
	}
	for (int64_t off = 0, size = 0; !rc && off < total; off += size) {
		rc = tfrec_index_record(data, m, total, off, &size, err, n);
		if (!rc && fprintf(out, "%lld %lld\n", (long long)off, (long long)size) < 0) {
			snprintf(err, n, "cannot write '%s': %s", index, strerror(errno));
			rc = -1;
		}
		if (!rc)
			(*records)++;
	}
	if (out && fclose(out) && !rc) {
		snprintf(err, n, "cannot write '%s': %s", index, strerror(errno));
		rc = -1;
	}
	if (rc && out)
		unlink(index);
	if (m)
		munmap((void *)m, (size_t)total);
	return rc;
}
