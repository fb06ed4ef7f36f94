/* Writers of reader formats for tests (formats.h). */
#include "tests/testlib/formats.h"

#include "tests/testlib.h"

#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void tl_buf_put(tl_buf_t *b, const void *data, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->n + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		cr_assert_not_null(b->p);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, data, n);
	b->n += n;
}

void tl_buf_varint(tl_buf_t *b, uint64_t v)
{
	uint8_t out[10];
	int k = 0;
	do {
		out[k] = v & 0x7f;
		v >>= 7;
		if (v)
			out[k] |= 0x80;
		k++;
	} while (v);
	tl_buf_put(b, out, (size_t)k);
}

void tl_buf_field_bytes(tl_buf_t *b, int field, const void *data, size_t n)
{
	tl_buf_varint(b, (uint64_t)field << 3 | 2);
	tl_buf_varint(b, n);
	tl_buf_put(b, data, n);
}

void tl_buf_free(tl_buf_t *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* One map entry {key, Feature{kind = list}} appended to ex. */
static void tl_tfex_entry(tl_buf_t *ex, const char *name, int kind, const tl_buf_t *list)
{
	tl_buf_t feature = {0}, entry = {0};
	tl_buf_field_bytes(&feature, kind, list->p, list->n);
	tl_buf_field_bytes(&entry, 1, name, strlen(name));
	tl_buf_field_bytes(&entry, 2, feature.p, feature.n);
	tl_buf_field_bytes(ex, 1, entry.p, entry.n);
	tl_buf_free(&feature);
	tl_buf_free(&entry);
}

void tl_tfex_bytes(tl_buf_t *ex, const char *name, const void *data, size_t n)
{
	tl_buf_t list = {0};
	tl_buf_field_bytes(&list, 1, data, n);
	tl_tfex_entry(ex, name, 1, &list);
	tl_buf_free(&list);
}

void tl_tfex_floats(tl_buf_t *ex, const char *name, const float *v, int n)
{
	tl_buf_t list = {0};
	tl_buf_field_bytes(&list, 1, v, sizeof(float) * (size_t)n);
	tl_tfex_entry(ex, name, 2, &list);
	tl_buf_free(&list);
}

void tl_tfex_int64s(tl_buf_t *ex, const char *name, const int64_t *v, int n)
{
	tl_buf_t packed = {0}, list = {0};
	for (int i = 0; i < n; i++)
		tl_buf_varint(&packed, (uint64_t)v[i]);
	tl_buf_field_bytes(&list, 1, packed.p, packed.n);
	tl_tfex_entry(ex, name, 3, &list);
	tl_buf_free(&packed);
	tl_buf_free(&list);
}

tl_buf_t tl_tfex_finish(const tl_buf_t *ex)
{
	tl_buf_t out = {0};
	tl_buf_field_bytes(&out, 1, ex->p, ex->n);
	return out;
}

/* CRC-32C computed bit by bit here, independently of the library's tables. */
static uint32_t tl_crc32c_masked(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
	}
	c = ~c;
	return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

static void tl_le(uint8_t *out, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

void tl_tfrecord_write(const char *path, const char *index, const tl_buf_t *payloads, int n)
{
	FILE *f = fopen(path, "wb"), *ix = index ? fopen(index, "w") : NULL;
	cr_assert_not_null(f, "%s", path);
	cr_assert(!index || ix, "%s", index);
	long off = 0;
	for (int i = 0; i < n; i++) {
		uint8_t head[12], foot[4];
		tl_le(head, payloads[i].n, 8);
		tl_le(head + 8, tl_crc32c_masked(head, 8), 4);
		tl_le(foot, tl_crc32c_masked(payloads[i].p, payloads[i].n), 4);
		cr_assert_eq(fwrite(head, 1, 12, f), 12);
		cr_assert_eq(fwrite(payloads[i].p, 1, payloads[i].n, f), payloads[i].n);
		cr_assert_eq(fwrite(foot, 1, 4, f), 4);
		long size = 16 + (long)payloads[i].n;
		if (ix)
			fprintf(ix, "%ld %ld\n", off, size);
		off += size;
	}
	cr_assert_eq(fclose(f), 0);
	if (ix)
		cr_assert_eq(fclose(ix), 0);
}

void tl_tfrecord_int64s(const char *path, const char *index, int first, int count)
{
	tl_buf_t *recs = calloc((size_t)count, sizeof *recs);
	cr_assert_not_null(recs);
	for (int k = 0; k < count; k++) {
		tl_buf_t ex = {0};
		int64_t v = first + k;
		tl_tfex_int64s(&ex, "label", &v, 1);
		recs[k] = tl_tfex_finish(&ex);
		tl_buf_free(&ex);
	}
	tl_tfrecord_write(path, index, recs, count);
	for (int k = 0; k < count; k++)
		tl_buf_free(&recs[k]);
	free(recs);
}

static void tl_tar_block(tl_tar_t *t, const void *data, size_t n)
{
	static const uint8_t zeros[512];
	cr_assert_eq(fwrite(data, 1, n, t->f), n);
	size_t pad = (512 - n % 512) % 512;
	cr_assert_eq(fwrite(zeros, 1, pad, t->f), pad);
	t->size += (long)(n + pad);
}

static void tl_tar_header(tl_tar_t *t, const char *name, size_t size, char type)
{
	uint8_t h[512] = {0};
	snprintf((char *)h, 100, "%s", name);
	snprintf((char *)h + 100, 8, "%07o", 0644);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011zo", size);
	snprintf((char *)h + 136, 12, "%011o", 1700000000);
	h[156] = (uint8_t)type;
	memcpy(h + 257, "ustar  ", 8); /* GNU's magic and version */
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	tl_tar_block(t, h, 512);
}

void tl_tar_open(tl_tar_t *t, const char *path)
{
	t->f = fopen(path, "wb");
	cr_assert_not_null(t->f, "%s", path);
	t->size = 0;
}

long tl_tar_add(tl_tar_t *t, const char *name, const void *data, size_t n)
{
	if (strlen(name) >= 100) {
		tl_tar_header(t, "././@LongLink", strlen(name) + 1, 'L');
		tl_tar_block(t, name, strlen(name) + 1);
	}
	tl_tar_header(t, name, n, '0');
	long at = t->size;
	tl_tar_block(t, data, n);
	return at;
}

void tl_tar_add_dir(tl_tar_t *t, const char *name)
{
	tl_tar_header(t, name, 0, '5');
}

long tl_tar_close(tl_tar_t *t)
{
	static const uint8_t zeros[1024];
	tl_tar_block(t, zeros, 1024);
	cr_assert_eq(fclose(t->f), 0);
	return t->size;
}

void tl_npy_write_raw(const char *path, int version, const char *dict, const void *data, size_t n)
{
	size_t fixed = version == 1 ? 10 : 12, len = strlen(dict);
	size_t total = (fixed + len + 1 + 63) / 64 * 64; /* dict, spaces, '\n', 64-aligned */
	uint8_t *h = malloc(total);
	cr_assert_not_null(h);
	memcpy(h, "\x93NUMPY", 6);
	h[6] = (uint8_t)version;
	h[7] = 0;
	tl_le(h + 8, total - fixed, (int)fixed - 8);
	memset(h + fixed, ' ', total - fixed);
	memcpy(h + fixed, dict, len);
	h[total - 1] = '\n';
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(h, 1, total, f), total);
	cr_assert_eq(fwrite(data, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
	free(h);
}

void tl_npy_write(const char *path, const char *descr, bool fortran, int ndim,
                  const int64_t *shape, const void *data, size_t elem_size)
{
	char dict[512], dims[256] = "";
	size_t at = 0, n = elem_size;
	for (int d = 0; d < ndim; d++) {
		at += (size_t)snprintf(dims + at, sizeof dims - at, "%lld%s", (long long)shape[d],
		                       ndim == 1 || d + 1 < ndim ? ", " : "");
		n *= (size_t)shape[d];
	}
	if (ndim == 1)
		dims[at - 1] = 0; /* numpy writes (3,) */
	snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", descr,
	         fortran ? "True" : "False", dims);
	tl_npy_write_raw(path, 1, dict, data, n);
}

void tl_recio_part(tl_buf_t *b, int cflag, const void *payload, size_t n)
{
	uint8_t head[8], pad[4] = {0};
	tl_le(head, 0xced7230au, 4);
	tl_le(head + 4, (uint64_t)cflag << 29 | n, 4);
	tl_buf_put(b, head, 8);
	tl_buf_put(b, payload, n);
	tl_buf_put(b, pad, (4 - n % 4) % 4);
}

void tl_recio_payload(tl_buf_t *b, float label, int nlabels, const float *labels,
                      const void *image, size_t n)
{
	uint8_t head[24] = {0};
	tl_le(head, (uint64_t)nlabels, 4);
	memcpy(head + 4, &label, 4);
	tl_buf_put(b, head, 24);
	tl_buf_put(b, labels, 4 * (size_t)nlabels);
	tl_buf_put(b, image, n);
}

void tl_lmdb_write(const char *dir, int n, const char *const *keys, const tl_buf_t *values)
{
	mkdir(dir, 0755);
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	cr_assert_eq(mdb_env_create(&env), 0);
	cr_assert_eq(mdb_env_set_mapsize(env, (size_t)64 << 20), 0);
	cr_assert_eq(mdb_env_open(env, dir, 0, 0664), 0, "%s", dir);
	cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
	cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
	for (int i = 0; i < n; i++) {
		MDB_val k = {strlen(keys[i]), (void *)keys[i]}, v = {values[i].n, values[i].p};
		cr_assert_eq(mdb_put(txn, dbi, &k, &v, 0), 0);
	}
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
}
