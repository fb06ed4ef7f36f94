/* tf.train.Example from wire bytes (tfrec_example.h). */
#include "kernels/common/tfrec_example.h"

#include "kernels/common/pb_wire.h"

#include <stdio.h>
#include <string.h>

typedef pbw_cur_t tfrec_cur_t;

/* Reads one field key; on a length-delimited field, its payload too. */
static bool tfrec_field(tfrec_cur_t *c, uint32_t *field, int *wt, const uint8_t **data,
                        size_t *len)
{
	pbw_field_t f;
	if (!dalic_pbw_next(c, &f))
		return false;
	*field = f.num;
	*wt = f.wt;
	*data = f.data;
	*len = f.len;
	return true;
}

static int tfrec_bad(const tfrec_cur_t *c, char *err, size_t n, const char *what)
{
	snprintf(err, n, "not a valid tf.train.Example: %s at byte %td of the record", what,
	         c->p - c->base);
	return -1;
}

/* Counts the values of a list message (and notes the first bytes value). */
static int tfrec_count(tfrec_span_t *s, const uint8_t *base, char *err, size_t n)
{
	tfrec_cur_t c = {s->list, s->list + s->list_len, base};
	uint32_t f;
	int wt;
	const uint8_t *d;
	size_t len;
	s->count = 0;
	while (c.p < c.end) {
		if (!tfrec_field(&c, &f, &wt, &d, &len))
			return tfrec_bad(&c, err, n, "a broken value list");
		if (f != 1)
			continue;
		if (s->kind == TFREC_KIND_BYTES && wt == 2) {
			if (!s->count) {
				s->first = d;
				s->first_len = len;
			}
			s->count++;
		} else if (s->kind == TFREC_KIND_FLOAT && wt == 5) {
			s->count++;
		} else if (s->kind == TFREC_KIND_FLOAT && wt == 2) {
			if (len % 4)
				return tfrec_bad(&c, err, n, "a packed float list of a length not /4");
			s->count += (int64_t)(len / 4);
		} else if (s->kind == TFREC_KIND_INT64 && wt == 0) {
			s->count++;
		} else if (s->kind == TFREC_KIND_INT64 && wt == 2) {
			tfrec_cur_t in = {d, d + len, base};
			uint64_t v;
			while (in.p < in.end) {
				if (!dalic_pbw_varint(&in, &v))
					return tfrec_bad(&in, err, n, "a broken packed int64 list");
				s->count++;
			}
		} else {
			return tfrec_bad(&c, err, n, "a value of the wrong wire type");
		}
	}
	return 0;
}

/* One Feature message into s. */
static int tfrec_feature(tfrec_span_t *s, const uint8_t *p, size_t len, const uint8_t *base,
                         char *err, size_t n)
{
	tfrec_cur_t c = {p, p + len, base};
	uint32_t f;
	int wt;
	const uint8_t *d;
	size_t dl;
	s->present = true;
	s->kind = TFREC_KIND_NONE;
	s->list = NULL;
	s->list_len = 0;
	s->count = 0;
	while (c.p < c.end) {
		if (!tfrec_field(&c, &f, &wt, &d, &dl))
			return tfrec_bad(&c, err, n, "a broken Feature");
		if (f >= TFREC_KIND_BYTES && f <= TFREC_KIND_INT64 && wt == 2) {
			s->kind = (int)f;
			s->list = d;
			s->list_len = dl;
		}
	}
	return s->kind == TFREC_KIND_NONE ? 0 : tfrec_count(s, base, err, n);
}

/* One map entry {key = 1, value = 2}. */
static int tfrec_entry(const uint8_t *p, size_t len, const uint8_t *base, int nnames,
                       const char *const *names, tfrec_span_t *spans, char *err, size_t n)
{
	tfrec_cur_t c = {p, p + len, base};
	uint32_t f;
	int wt;
	const uint8_t *d, *key = NULL, *val = NULL;
	size_t dl, key_len = 0, val_len = 0;
	while (c.p < c.end) {
		if (!tfrec_field(&c, &f, &wt, &d, &dl))
			return tfrec_bad(&c, err, n, "a broken feature map entry");
		if (f == 1 && wt == 2) {
			key = d;
			key_len = dl;
		} else if (f == 2 && wt == 2) {
			val = d;
			val_len = dl;
		}
	}
	for (int i = 0; i < nnames; i++) /* a name may be asked for more than once */
		if (key && strlen(names[i]) == key_len && !memcmp(names[i], key, key_len) &&
		    tfrec_feature(&spans[i], val ? val : p, val ? val_len : 0, base, err, n))
			return -1;
	return 0;
}

int dalic_tfrec_example_scan(const uint8_t *p, size_t n, int nnames, const char *const *names,
                             tfrec_span_t *spans, char *err, size_t errn)
{
	memset(spans, 0, sizeof *spans * (size_t)nnames);
	tfrec_cur_t ex = {p, p + n, p};
	uint32_t f;
	int wt;
	const uint8_t *d;
	size_t dl;
	while (ex.p < ex.end) {
		if (!tfrec_field(&ex, &f, &wt, &d, &dl))
			return tfrec_bad(&ex, err, errn, "a broken field");
		if (f != 1 || wt != 2)
			continue;
		tfrec_cur_t fs = {d, d + dl, p};
		const uint8_t *e;
		size_t el;
		while (fs.p < fs.end) {
			if (!tfrec_field(&fs, &f, &wt, &e, &el))
				return tfrec_bad(&fs, err, errn, "a broken Features message");
			if (f == 1 && wt == 2 &&
			    tfrec_entry(e, el, p, nnames, names, spans, err, errn))
				return -1;
		}
	}
	return 0;
}

void dalic_tfrec_copy_floats(const tfrec_span_t *s, float *dst)
{
	tfrec_cur_t c = {s->list, s->list + s->list_len, s->list};
	uint32_t f;
	int wt;
	const uint8_t *d;
	size_t len;
	while (c.p < c.end && tfrec_field(&c, &f, &wt, &d, &len)) {
		if (f != 1)
			continue;
		if (wt == 5 || wt == 2) { /* both little-endian IEEE floats */
			memcpy(dst, d, len);
			dst += len / 4;
		}
	}
}

void dalic_tfrec_copy_int64s(const tfrec_span_t *s, int64_t *dst)
{
	tfrec_cur_t c = {s->list, s->list + s->list_len, s->list};
	uint32_t f;
	int wt;
	const uint8_t *d;
	size_t len;
	uint64_t v;
	while (c.p < c.end && tfrec_field(&c, &f, &wt, &d, &len)) {
		if (f != 1)
			continue;
		if (wt == 0) {
			tfrec_cur_t one = {d, c.p, d};
			if (dalic_pbw_varint(&one, &v))
				*dst++ = (int64_t)v;
		} else if (wt == 2) {
			tfrec_cur_t in = {d, d + len, d};
			while (in.p < in.end && dalic_pbw_varint(&in, &v))
				*dst++ = (int64_t)v;
		}
	}
}
