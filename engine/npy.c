/*
 * The .npy reader (see npy.h). The header is a Python dict literal; this reads the three keys
 * numpy writes ('descr': a quoted array-protocol type, 'fortran_order': True / False,
 * 'shape': a tuple of non-negative ints) in any order, and checks that the data that follows
 * holds exactly the elements the shape asks for.
 */
#include "engine/npy.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

#define NPY_MAX_HEADER (1u << 20)

/* The text after 'key': in the header, or NULL. */
static const char *npy_value(const char *h, const char *key)
{
	char pat[32];
	snprintf(pat, sizeof pat, "'%s'", key);
	const char *p = strstr(h, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

static dalic_dtype_t npy_dtype(const char *descr, size_t n)
{
	static const dalic_dtype_t all[] = {
	    DALIC_UINT8, DALIC_UINT16, DALIC_UINT32,  DALIC_UINT64, DALIC_INT8,    DALIC_INT16,
	    DALIC_INT32, DALIC_INT64,  DALIC_FLOAT16, DALIC_FLOAT,  DALIC_FLOAT64, DALIC_BOOL,
	};
	char d[8];
	if (n < 2 || n > 4)
		return DALIC_NO_TYPE;
	memcpy(d, descr, n);
	d[n] = 0;
	if (d[0] == '=') /* native order: little endian on every machine dalic runs on */
		d[0] = '<';
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		const char *want = dalic_dtype_npy_descr(all[i]);
		/* single-byte types are written with '|' but '<' reads the same */
		if (!strcmp(d, want) || (want[0] == '|' && d[0] == '<' && !strcmp(d + 1, want + 1)))
			return all[i];
	}
	return DALIC_NO_TYPE;
}

int dalic_npy_parse(const void *buf, size_t len, const char *name, dalic_npy_t *out)
{
	const unsigned char *b = buf;
	memset(out, 0, sizeof *out);
	if (len < 10 || memcmp(b, "\x93NUMPY", 6))
		return dalic_fail(DALIC_EPARSE, "%s: not a .npy file (no \\x93NUMPY magic)", name);
	size_t hlen, start;
	if (b[6] == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		start = 10;
	} else if ((b[6] == 2 || b[6] == 3) && len >= 12) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		start = 12;
	} else {
		return dalic_fail(DALIC_EPARSE, "%s: .npy format version %d.%d is not supported",
		                  name, b[6], b[7]);
	}
	if (hlen > NPY_MAX_HEADER || start + hlen > len)
		return dalic_fail(DALIC_EPARSE, "%s: truncated .npy header", name);
	char *h = malloc(hlen + 1);
	if (!h)
		return dalic_fail(DALIC_ENOMEM, "out of memory reading %s", name);
	memcpy(h, b + start, hlen);
	h[hlen] = 0;
	int rc = DALIC_OK;
	const char *descr = npy_value(h, "descr"), *fortran = npy_value(h, "fortran_order"),
	           *shape = npy_value(h, "shape");
	if (!descr || !fortran || !shape || (*descr != '\'' && *descr != '"') || *shape != '(') {
		rc = dalic_fail(DALIC_EPARSE, "%s: the .npy header lacks descr, fortran_order or "
		                              "shape",
		                name);
		goto done;
	}
	const char *q = strchr(descr + 1, *descr);
	if (!q || (out->dtype = npy_dtype(descr + 1, (size_t)(q - descr - 1))) == DALIC_NO_TYPE) {
		rc = dalic_fail(DALIC_EUNSUPPORTED,
		                "%s: .npy element type %.*s is not supported (little-endian bool, "
		                "int, uint and float only)",
		                name, q ? (int)(q - descr + 1) : 8, descr);
		goto done;
	}
	if (!strncmp(fortran, "True", 4)) {
		rc = dalic_fail(DALIC_EUNSUPPORTED,
		                "%s: Fortran-order .npy arrays are not supported (save with "
		                "np.ascontiguousarray)",
		                name);
		goto done;
	}
	out->size = 1;
	const char *p = shape + 1;
	for (;;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			break;
		char *end;
		long long e = strtoll(p, &end, 10);
		if (end == p || e < 0 || out->ndim == DALIC_MAX_NDIM ||
		    (e && out->size > INT64_MAX / 16 / e)) {
			rc = dalic_fail(DALIC_EPARSE, "%s: bad .npy shape %s", name, shape);
			goto done;
		}
		out->shape[out->ndim++] = e;
		out->size *= e;
		p = end;
	}
	out->bytes = (size_t)out->size * dalic_dtype_size(out->dtype);
	out->data = b + start + hlen;
	if (len - start - hlen < out->bytes)
		rc = dalic_fail(DALIC_EPARSE, "%s: truncated .npy data (%zu of %zu bytes)", name,
		                len - start - hlen, out->bytes);
done:
	free(h);
	return rc;
}
