/* The tar walker of readers.webdataset (wds_tar.h). */
#include "kernels/common/wds_tar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WDS_TAR_BLOCK 512
#define WDS_TAR_MAX_NAME (1 << 16)

static int wds_tar_pread(int fd, void *dst, size_t len, int64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t k = pread(fd, (char *)dst + got, len - got, (off_t)(off + (int64_t)got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

/* An octal field (NUL or space terminated), or GNU's base-256 form (first byte 0x80). */
static bool wds_tar_number(const uint8_t *f, size_t len, int64_t *out)
{
	int64_t v = 0;
	if (f[0] & 0x80) {
		if (f[0] != 0x80)
			return false; /* negative */
		for (size_t i = 1; i < len; i++) {
			if (v > (INT64_MAX >> 8))
				return false;
			v = v << 8 | f[i];
		}
		*out = v;
		return true;
	}
	size_t i = 0;
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (INT64_MAX >> 3))
			return false;
		v = v * 8 + (f[i] - '0');
	}
	if (i < len && f[i] != 0 && f[i] != ' ')
		return false;
	*out = v;
	return true;
}

/* The stored checksum equals the byte sum with the field as spaces (unsigned, or the signed
 * sum some old writers used). */
static bool wds_tar_checksum_ok(const uint8_t *h)
{
	int64_t stored;
	if (!wds_tar_number(h + 148, 8, &stored))
		return false;
	int64_t u = 0, s = 0;
	for (int i = 0; i < WDS_TAR_BLOCK; i++) {
		uint8_t c = i >= 148 && i < 156 ? ' ' : h[i];
		u += c;
		s += (int8_t)c;
	}
	return stored == u || stored == s;
}

/* The payload of a special entry ('L', 'K', 'x'), NUL-terminated. */
static char *wds_tar_payload(int fd, int64_t off, int64_t size, int64_t total)
{
	if (size < 0 || size > WDS_TAR_MAX_NAME || off + size > total)
		return NULL;
	char *s = malloc((size_t)size + 1);
	if (s && wds_tar_pread(fd, s, (size_t)size, off)) {
		free(s);
		return NULL;
	}
	if (s)
		s[size] = 0;
	return s;
}

/* pax records "<len> <key>=<value>\n": path and size override the header's. */
static void wds_tar_pax(const char *rec, size_t n, char **path, int64_t *size)
{
	const char *p = rec, *end = rec + n;
	while (p < end) {
		char *sp;
		long len = strtol(p, &sp, 10);
		if (len <= 0 || sp >= end || *sp != ' ' || len > end - p)
			return;
		const char *kv = sp + 1, *stop = p + len - 1; /* stop: the '\n' */
		const char *eq = memchr(kv, '=', (size_t)(stop - kv));
		if (eq && eq - kv == 4 && !memcmp(kv, "path", 4)) {
			free(*path);
			*path = strndup(eq + 1, (size_t)(stop - eq - 1));
		} else if (eq && eq - kv == 4 && !memcmp(kv, "size", 4)) {
			*size = strtoll(eq + 1, NULL, 10);
		}
		p += len;
	}
}

int dalic_wds_tar_walk(int fd, int64_t size, const char *path, wds_tar_fn fn, void *user,
                       char *err, size_t n)
{
	uint8_t h[WDS_TAR_BLOCK];
	char *long_name = NULL, *pax_path = NULL;
	int64_t pax_size = -1;
	int zeros = 0, rc = 0;
	for (int64_t off = 0; off < size && !rc;) {
		if (off + WDS_TAR_BLOCK > size || wds_tar_pread(fd, h, WDS_TAR_BLOCK, off)) {
			snprintf(err, n, "corrupted tar file '%s': a header cut short at offset %lld",
			         path, (long long)off);
			rc = -1;
			break;
		}
		if (h[0] == 0) { /* libtar: two blocks with an empty name end the archive */
			off += WDS_TAR_BLOCK;
			if (++zeros == 2)
				break;
			continue;
		}
		zeros = 0;
		int64_t esize;
		if (!wds_tar_checksum_ok(h) || !wds_tar_number(h + 124, 12, &esize)) {
			snprintf(err, n, "corrupted tar file '%s': bad header (checksum) at offset %lld",
			         path, (long long)off);
			rc = -1;
			break;
		}
		char type = (char)h[156];
		int64_t data = off + WDS_TAR_BLOCK;
		if (type == 'x' && pax_size < 0 && !pax_path) {
			char *rec = wds_tar_payload(fd, data, esize, size);
			if (rec)
				wds_tar_pax(rec, (size_t)esize, &pax_path, &pax_size);
			free(rec);
		}
		if (type == 'L' || type == 'K' || type == 'x' || type == 'g') {
			if (type == 'L') {
				free(long_name);
				long_name = wds_tar_payload(fd, data, esize, size);
			}
			if ((type == 'L' && !long_name) || data + esize > size) {
				snprintf(err, n, "corrupted tar file '%s': a %c header at offset %lld "
				         "holds %lld bytes the file does not have",
				         path, type, (long long)off, (long long)esize);
				rc = -1;
				break;
			}
			off = data + (esize + WDS_TAR_BLOCK - 1) / WDS_TAR_BLOCK * WDS_TAR_BLOCK;
			continue;
		}
		if (pax_size >= 0)
			esize = pax_size;
		char name[300];
		if (h[345] && !memcmp(h + 257, "ustar", 5))
			snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345,
			         (const char *)h + 0);
		else
			snprintf(name, sizeof name, "%.100s", (const char *)h);
		const char *full = long_name ? long_name : pax_path ? pax_path : name;
		bool regular = type == '0' || type == 0 || type == '7';
		if (!regular && !(type >= '1' && type <= '6')) {
			snprintf(err, n, "tar file '%s': entry '%s' at offset %lld has type '%c', which "
			         "is not a file, directory, link, device or FIFO",
			         path, full, (long long)off, type);
			rc = -1;
			break;
		}
		if (regular && data + esize > size) {
			snprintf(err, n, "truncated tar file '%s': entry '%s' at offset %lld needs %lld "
			         "bytes, the file ends %lld bytes after its header",
			         path, full, (long long)off, (long long)esize,
			         (long long)(size - data));
			rc = -1;
			break;
		}
		rc = fn(user, full, data, regular ? esize : 0, regular);
		int64_t skip = regular || type == '7' ? esize : 0;
		off = data + (skip + WDS_TAR_BLOCK - 1) / WDS_TAR_BLOCK * WDS_TAR_BLOCK;
		free(long_name);
		free(pax_path);
		long_name = pax_path = NULL;
		pax_size = -1;
	}
	free(long_name);
	free(pax_path);
	return rc;
}
