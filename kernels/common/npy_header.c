/* .npy headers (see npy_header.h). */
#include "kernels/common/npy_header.h"

#include "engine/checked.h"
#include "engine/dtype.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dalic_npy_header_size(const uint8_t *pre, size_t n, int64_t *size, char *err, size_t errn)
{
	if (n < 10) {
		snprintf(err, errn, "Can not read header.");
		return -1;
	}
	if (memcmp(pre, "\x93NUMPY", 6) != 0) {
		snprintf(err, errn, "File is not a numpy file.");
		return -1;
	}
	int major = pre[6];
	int64_t len, fixed;
	if (major == 1) {
		len = pre[8] | (int64_t)pre[9] << 8;
		fixed = 10;
	} else if (major == 2 || major == 3) {
		if (n < 12) {
			snprintf(err, errn, "Can not read header.");
			return -1;
		}
		len = pre[8] | (int64_t)pre[9] << 8 | (int64_t)pre[10] << 16 | (int64_t)pre[11] << 24;
		fixed = 12;
	} else {
		snprintf(err, errn, "Unsupported NPY format version %d.%d.", major, pre[7]);
		return -1;
	}
	/* numpy pads the header to a multiple of 64 bytes (16 before numpy 1.9) */
	if ((len + fixed) % 16 != 0) {
		snprintf(err, errn, "Error extracting header length.");
		return -1;
	}
	*size = len + fixed;
	return 0;
}

typedef struct npy_cursor {
	const char *p, *end;
	char *err;
	size_t errn;
} npy_cursor_t;

static void npy_skip_spaces(npy_cursor_t *c)
{
	while (c->p < c->end && isspace((unsigned char)*c->p))
		c->p++;
}

static bool npy_try_skip(npy_cursor_t *c, const char *what)
{
	size_t n = strlen(what);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, what, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* DALI's Skip: the text must be there; the message quotes what follows. */
static int npy_skip(npy_cursor_t *c, const char *what)
{
	if (npy_try_skip(c, what))
		return 0;
	int rest = (int)(c->end - c->p);
	snprintf(c->err, c->errn, "Expected \"%s\" but got \"%.*s\"", what, rest > 40 ? 40 : rest,
	         c->p);
	return -1;
}

static int npy_field(npy_cursor_t *c, const char *name)
{
	npy_skip_spaces(c);
	if (npy_skip(c, "'") || npy_skip(c, name) || npy_skip(c, "'"))
		return -1;
	npy_skip_spaces(c);
	if (npy_skip(c, ":"))
		return -1;
	npy_skip_spaces(c);
	return 0;
}

static int npy_descr(npy_cursor_t *c, npy_header_t *h)
{
	if (npy_skip(c, "'"))
		return -1;
	const char *q = memchr(c->p, '\'', (size_t)(c->end - c->p));
	if (!q) {
		snprintf(c->err, c->errn, "Expected '''");
		return -1;
	}
	size_t n = (size_t)(q - c->p);
	const char *s = c->p;
	c->p = q + 1;
	if (n > 0 && s[0] == '>') {
		snprintf(c->err, c->errn, "Big Endian files are not supported.");
		return -1;
	}
	if (n == 3 && (s[0] == '<' || s[0] == '|' || s[0] == '='))
		for (int t = 0; t <= DALIC_BOOL; t++) { /* the numeric dtypes */
			const char *d = dalic_dtype_npy_descr((dalic_dtype_t)t);
			if (d && !memcmp(d + 1, s + 1, 2)) {
				h->dtype = (dalic_dtype_t)t;
				return 0;
			}
		}
	snprintf(c->err, c->errn, "Unknown Numpy type string '%.*s'", (int)(n > 40 ? 40 : n), s);
	return -1;
}

static int npy_shape(npy_cursor_t *c, npy_header_t *h)
{
	if (npy_skip(c, "("))
		return -1;
	npy_skip_spaces(c);
	h->ndim = 0;
	while (c->p < c->end && *c->p != ')') {
		char buf[32];
		size_t k = 0;
		while (c->p + k < c->end && k < sizeof buf - 1 &&
		       (isdigit((unsigned char)c->p[k]) || (k == 0 && c->p[k] == '-')))
			k++;
		memcpy(buf, c->p, k);
		buf[k] = 0;
		char *e;
		errno = 0;
		long long v = strtoll(buf, &e, 10);
		if (e == buf) {
			snprintf(c->err, c->errn, "Parse error: expected a number.");
			return -1;
		}
		if (errno || v < 0) {
			snprintf(c->err, c->errn, "Invalid extent %s in the shape.", buf);
			return -1;
		}
		if (h->ndim == DALIC_MAX_NDIM) {
			snprintf(c->err, c->errn, "The array has more than %d dimensions.",
			         DALIC_MAX_NDIM);
			return -1;
		}
		h->shape[h->ndim++] = v;
		c->p += k;
		npy_skip_spaces(c);
		if (!npy_try_skip(c, ",") && h->ndim == 1) {
			snprintf(c->err, c->errn,
			         "The first number in a tuple must be followed by a comma.");
			return -1;
		}
		npy_skip_spaces(c);
	}
	return npy_skip(c, ")");
}

int dalic_npy_header_parse(const uint8_t *hdr, int64_t size, npy_header_t *h, char *err,
                           size_t errn)
{
	int64_t fixed = hdr[6] == 1 ? 10 : 12;
	npy_cursor_t c = {(const char *)hdr + fixed, (const char *)hdr + size, err, errn};
	memset(h, 0, sizeof *h);
	if (!memchr(c.p, '{', (size_t)(c.end - c.p))) {
		snprintf(err, errn, "Header is corrupted.");
		return -1;
	}
	npy_skip_spaces(&c);
	if (npy_skip(&c, "{") || npy_field(&c, "descr") || npy_descr(&c, h))
		return -1;
	npy_skip_spaces(&c);
	if (npy_skip(&c, ",") || npy_field(&c, "fortran_order"))
		return -1;
	if (npy_try_skip(&c, "True")) {
		h->fortran = true;
	} else if (!npy_try_skip(&c, "False")) {
		snprintf(err, errn, "Failed to parse fortran_order field.");
		return -1;
	}
	npy_skip_spaces(&c);
	if (npy_skip(&c, ",") || npy_field(&c, "shape") || npy_shape(&c, h))
		return -1;
	size_t bytes;
	if (!dalic_ck_shape_bytes(h->shape, h->ndim, dalic_dtype_size(h->dtype), &bytes) ||
	    bytes > INT64_MAX) {
		snprintf(err, errn, "The array's shape is too large.");
		return -1;
	}
	h->nbytes = (int64_t)bytes;
	h->data_offset = size;
	return 0;
}
