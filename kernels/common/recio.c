/* MXNet RecordIO (see recio.h). */
#include "kernels/common/recio.h"

#include "engine/checked.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int recio_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The offsets listed by the index (second number of each line). */
static int recio_offsets(const char *path, int64_t **out, int64_t *count, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, n, "Could not open RecordIO index file. Provided path: \"%s\"", path);
		return -1;
	}
	int64_t *v = NULL, cnt = 0, cap = 0;
	char line[512];
	int rc = 0;
	for (int64_t ln = 1; !rc && fgets(line, sizeof line, f); ln++) {
		unsigned long long key, off;
		char extra;
		int got = sscanf(line, "%llu %llu %c", &key, &off, &extra);
		if (got == EOF)
			continue; /* a blank line */
		if (got != 2 || off > INT64_MAX || line[0] == '-') {
			snprintf(err, n, "RecordIO index file \"%s\":%lld: expected '<key> <offset>', got: %.60s",
			         path, (long long)ln, line);
			rc = -1;
		} else if (cnt == cap) {
			cap = cap ? cap * 2 : 256;
			int64_t *nv = realloc(v, sizeof *v * (size_t)cap);
			if (!nv) {
				snprintf(err, n, "out of memory reading \"%s\"", path);
				rc = -1;
			}
			v = nv ? nv : v;
		}
		if (!rc)
			v[cnt++] = (int64_t)off;
	}
	fclose(f);
	if (!rc && cnt == 0) {
		snprintf(err, n, "RecordIO index file doesn't contain any indices. Provided path: \"%s\"",
		         path);
		rc = -1;
	}
	if (rc) {
		free(v);
		return -1;
	}
	*out = v;
	*count = cnt;
	return 0;
}

static int recio_push(tfrec_index_t *x, int64_t off, int64_t size, int file, char *err, size_t n)
{
	if (x->n == x->cap) {
		int64_t cap = x->cap ? x->cap * 2 : 256;
		tfrec_record_t *nv = realloc(x->v, sizeof *nv * (size_t)cap);
		if (!nv) {
			snprintf(err, n, "out of memory for %lld records", (long long)cap);
			return -1;
		}
		x->v = nv;
		x->cap = cap;
	}
	x->v[x->n++] = (tfrec_record_t){.off = off, .size = size, .file = file};
	return 0;
}

int dalic_recio_index_read(tfrec_index_t *x, const char *path, const int64_t *sizes, int nfiles,
                           char *err, size_t n)
{
	int64_t *offs, cnt;
	if (recio_offsets(path, &offs, &cnt, err, n))
		return -1;
	qsort(offs, (size_t)cnt, sizeof *offs, recio_cmp_i64);
	int64_t total = 0;
	for (int f = 0; f < nfiles; f++)
		total += sizes[f];
	/* DALI's RecordIOLoader steps to the next file at most once per record and gives the
	 * last record the file of the one before it: a record then starts past the end of that
	 * file and is read on from the next one, as DALI reads it (its order and its source
	 * "<file> at index <offset>" follow this assignment) */
	int rc = 0;
	int file = 0;
	int64_t base = 0; /* global offset of `file` */
	for (int64_t i = 0; !rc && i < cnt; i++) {
		int64_t end = i + 1 < cnt ? offs[i + 1] : total;
		if (offs[i] >= total || end > total) {
			snprintf(err, n,
			         "RecordIO index file \"%s\": offset %lld lies past the end of the data "
			         "files (%lld bytes in all)",
			         path, (long long)(offs[i] >= total ? offs[i] : end), (long long)total);
			rc = -1;
			break;
		}
		if (i + 1 < cnt && file + 1 < nfiles && offs[i] >= base + sizes[file])
			base += sizes[file++];
		if (end > offs[i])
			rc = recio_push(x, offs[i] - base, end - offs[i], file, err, n);
	}
	free(offs);
	return rc;
}

static uint32_t recio_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Appends n bytes to *buf (used *len, allocated *cap). */
static int recio_append(uint8_t **buf, size_t *cap, size_t *len, const void *data, size_t n)
{
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < *len + n)
			c *= 2;
		uint8_t *nb = realloc(*buf, c);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = c;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	return 0;
}

int dalic_recio_parse(const uint8_t *rec, int64_t len, recio_view_t *v, uint8_t **buf,
                      size_t *cap, char *err, size_t n)
{
	if (len < 8 + 24) {
		snprintf(err, n, "the record has %lld bytes, less than a RecordIO header", (long long)len);
		return -1;
	}
	if (recio_le32(rec) != RECIO_MAGIC) {
		snprintf(err, n, "Invalid RecordIO: wrong magic number");
		return -1;
	}
	uint32_t lf = recio_le32(rec + 4), cflag = lf >> 29, clen = lf & ((1u << 29) - 1);
	if (clen < 24 || clen > len - 8 || cflag > 1) {
		snprintf(err, n, "%s (the record has %lld bytes)",
		         cflag > 1 ? "the record starts with a middle or last part"
		                   : "Invalid RecordIO: the part's length runs past the record",
		         (long long)len);
		return -1;
	}
	const uint8_t *hdr = rec + 8;
	uint32_t flag = recio_le32(hdr);
	memcpy(&v->label, hdr + 4, 4);
	v->nlabels = flag ? flag : 1;
	int64_t label_size = (int64_t)flag * 4;
	const uint8_t *data = hdr + 24;
	int64_t data_size = clen - 24;
	if (cflag == 1) { /* join the parts, putting back the magic between them */
		size_t used = 0;
		const uint32_t magic = RECIO_MAGIC;
		int64_t at = 8 + ((clen + 3) & ~3u);
		if (recio_append(buf, cap, &used, data, (size_t)data_size))
			goto oom;
		while (cflag != 3) {
			if (at + 8 > len || recio_le32(rec + at) != RECIO_MAGIC) {
				snprintf(err, n, "Invalid RecordIO: part at byte %lld of the record is %s",
				         (long long)at, at + 8 > len ? "missing" : "not a part (wrong magic)");
				return -1;
			}
			lf = recio_le32(rec + at + 4);
			cflag = lf >> 29;
			clen = lf & ((1u << 29) - 1);
			if (clen > len - at - 8 || (cflag != 2 && cflag != 3)) {
				snprintf(err, n, "Invalid RecordIO: part at byte %lld of the record is bad",
				         (long long)at);
				return -1;
			}
			if (recio_append(buf, cap, &used, &magic, 4) ||
			    recio_append(buf, cap, &used, rec + at + 8, clen))
				goto oom;
			at += 8 + ((clen + 3) & ~3u);
		}
		data = *buf;
		data_size = (int64_t)used;
	}
	if (label_size > data_size) {
		snprintf(err, n, "Invalid RecordIO: %u labels need %lld bytes; the record has %lld",
		         flag, (long long)label_size, (long long)data_size);
		return -1;
	}
	v->joined = cflag != 0;
	v->labels = flag ? data : NULL;
	v->image = data + label_size;
	v->image_size = data_size - label_size;
	return 0;
oom:
	snprintf(err, n, "out of memory joining a %lld-byte record", (long long)len);
	return -1;
}
