/* readers.coco's preprocessed annotation files (coco_meta.h). */
#include "kernels/common/coco_meta.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-sample files: which value, how wide. */
typedef enum {
	COCO_META_BOX0,
	COCO_META_NBOX,
	COCO_META_POLY0,
	COCO_META_NPOLY,
	COCO_META_VERT0,
	COCO_META_NVERT,
	COCO_META_RLE0,
	COCO_META_NRLE,
	COCO_META_HEIGHT,
	COCO_META_WIDTH,
	COCO_META_ID,
} coco_meta_field_t;

/* Each per-sample file: its name, element bytes, and the sample's field (int64 or int32). */
static const struct {
	const char *name;
	int width;
	size_t off;
	bool field64;
} coco_meta_fields[] = {
#define COCO_META_F(name, w, field, f64) {name, w, offsetof(coco_sample_t, field), f64}
    COCO_META_F("offsets.dat", 4, box0, true),
    COCO_META_F("counts.dat", 4, nbox, true),
    COCO_META_F("polygon_offset.dat", 8, poly0, true),
    COCO_META_F("polygons_count.dat", 8, npoly, true),
    COCO_META_F("vertices_offset.dat", 8, vert0, true),
    COCO_META_F("vertices_count.dat", 8, nvert, true),
    COCO_META_F("masks_offset.dat", 8, rle0, true),
    COCO_META_F("mask_count.dat", 8, nrle, true),
    COCO_META_F("heights.dat", 4, height, false),
    COCO_META_F("widths.dat", 4, width, false),
    COCO_META_F("original_ids.dat", 4, id, false),
#undef COCO_META_F
};

static int64_t coco_meta_get(const coco_sample_t *s, coco_meta_field_t f)
{
	const char *p = (const char *)s + coco_meta_fields[f].off;
	int64_t w;
	int32_t n;
	if (coco_meta_fields[f].field64)
		return memcpy(&w, p, 8), w;
	return memcpy(&n, p, 4), n;
}

static void coco_meta_set(coco_sample_t *s, coco_meta_field_t f, int64_t v)
{
	char *p = (char *)s + coco_meta_fields[f].off;
	if (coco_meta_fields[f].field64)
		memcpy(p, &v, 8);
	else
		memcpy(p, &(int32_t){(int32_t)v}, 4);
}

static int coco_meta_fail(char *err, size_t errn, const char *dir, const char *name,
                          const char *what)
{
	snprintf(err, errn, "preprocessed annotations '%s/%s': %s", dir, name, what);
	return -1;
}

/* Creates dir/name for writing; NULL with DALI's message when it cannot. */
static FILE *coco_meta_create(const char *dir, const char *name, char *err, size_t errn)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		snprintf(err, errn, "CocoReader meta file error while saving: %s (%s)", path,
		         strerror(errno));
	return f;
}

/* One array file: its count, then n elements of `size` bytes (none: no file, as DALI). */
static int coco_meta_write(const char *dir, const char *name, const void *v, int64_t n,
                           size_t size, char *err, size_t errn)
{
	if (n <= 0)
		return 0;
	if (n > UINT32_MAX)
		return coco_meta_fail(err, errn, dir, name, "more than 2^32 entries");
	FILE *f = coco_meta_create(dir, name, err, errn);
	if (!f)
		return -1;
	uint32_t count = (uint32_t)n;
	bool ok = fwrite(&count, 4, 1, f) == 1 && fwrite(v, size, (size_t)n, f) == (size_t)n;
	ok = !fclose(f) && ok;
	return ok ? 0 : coco_meta_fail(err, errn, dir, name, "cannot write");
}

static int coco_meta_write_field(const coco_ann_t *a, const char *dir, coco_meta_field_t f, char *err,
                                 size_t errn)
{
	int w = coco_meta_fields[f].width;
	char *v = malloc((size_t)a->nsamples * (size_t)w + 1);
	if (!v)
		return coco_meta_fail(err, errn, dir, coco_meta_fields[f].name, "out of memory");
	for (int64_t k = 0; k < a->nsamples; k++) {
		int64_t x = coco_meta_get(&a->samples[k], f);
		if (w == 8)
			memcpy(v + 8 * k, &x, 8);
		else
			memcpy(v + 4 * k, &(int32_t){(int32_t)x}, 4);
	}
	int rc = coco_meta_write(dir, coco_meta_fields[f].name, v, a->nsamples, (size_t)w, err, errn);
	free(v);
	return rc;
}

static int coco_meta_write_names(const coco_ann_t *a, const char *dir, char *err, size_t errn)
{
	if (a->nsamples == 0)
		return 0;
	FILE *f = coco_meta_create(dir, "filenames.dat", err, errn);
	if (!f)
		return -1;
	bool ok = true;
	for (int64_t k = 0; k < a->nsamples; k++)
		ok = ok && fprintf(f, "%s\n", a->samples[k].file_name) > 0;
	ok = !fclose(f) && ok;
	return ok ? 0 : coco_meta_fail(err, errn, dir, "filenames.dat", "cannot write");
}

static int coco_meta_write_rles(const coco_ann_t *a, const char *dir, char *err, size_t errn)
{
	if (a->nrles == 0)
		return 0;
	FILE *f = coco_meta_create(dir, "masks_rles.dat", err, errn);
	if (!f)
		return -1;
	uint32_t n = (uint32_t)a->nrles;
	bool ok = fwrite(&n, 4, 1, f) == 1;
	for (int64_t k = 0; ok && k < a->nrles; k++) {
		const coco_rle_t *r = &a->pool[a->rle_ref[k]];
		uint64_t dims[3] = {r->h, r->w, r->m};
		ok = fwrite(dims, 8, 3, f) == 3 && fwrite(r->cnts, 4, r->m, f) == r->m;
	}
	ok = !fclose(f) && ok;
	return ok ? 0 : coco_meta_fail(err, errn, dir, "masks_rles.dat", "cannot write");
}

int dalic_coco_meta_save(const coco_ann_t *a, const char *dir, coco_meta_parts_t parts,
                         char *err, size_t errn)
{
	const coco_ann_t *m = a;
	int rc = coco_meta_write_field(m, dir, COCO_META_BOX0, err, errn) ||
	         coco_meta_write(dir, "boxes.dat", a->boxes, 4 * a->nboxes, 4, err, errn) ||
	         coco_meta_write(dir, "labels.dat", a->labels, a->nboxes, 4, err, errn) ||
	         coco_meta_write_field(m, dir, COCO_META_NBOX, err, errn) ||
	         coco_meta_write_names(a, dir, err, errn);
	if (!rc && (parts.polygons || parts.masks))
		rc = coco_meta_write(dir, "polygon_data.dat", a->polys, a->npolys, 12, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_POLY0, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_NPOLY, err, errn) ||
		     coco_meta_write(dir, "vertices.dat", a->verts, a->nverts, 8, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_VERT0, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_NVERT, err, errn);
	if (!rc && parts.masks)
		rc = coco_meta_write_rles(a, dir, err, errn) ||
		     coco_meta_write(dir, "masks_rles_idx.dat", a->rle_idx, a->nrles, 4, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_RLE0, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_NRLE, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_HEIGHT, err, errn) ||
		     coco_meta_write_field(m, dir, COCO_META_WIDTH, err, errn);
	if (!rc && parts.ids)
		rc = coco_meta_write_field(m, dir, COCO_META_ID, err, errn);
	return rc ? -1 : 0;
}

/* Reads an array file: *n elements of `size` bytes into *v (new); no file: none. */
static int coco_meta_read(const char *dir, const char *name, size_t size, void **v, int64_t *n,
                          char *err, size_t errn)
{
	char path[4096], msg[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	*v = NULL;
	*n = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	uint32_t count = 0;
	size_t got = fread(&count, 1, 4, f), want = 4;
	if (got == 4) {
		want = (size_t)count * size;
		*v = malloc(want + 1);
		got = *v ? fread(*v, 1, want, f) : 0;
	}
	fclose(f);
	if (got != want || !*v) {
		free(*v);
		*v = NULL;
		snprintf(msg, sizeof msg, "Read %zu bytes but requested %zu bytes", got, want);
		return coco_meta_fail(err, errn, dir, name, msg);
	}
	*n = count;
	return 0;
}

static int coco_meta_read_rles(coco_ann_t *a, const char *dir, char *err, size_t errn)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/masks_rles.dat", dir);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	uint32_t n = 0;
	bool ok = fread(&n, 4, 1, f) == 1;
	a->pool = ok ? calloc((size_t)n + 1, sizeof *a->pool) : NULL;
	ok = ok && a->pool;
	for (uint32_t k = 0; ok && k < n; k++, a->npool++) {
		uint64_t dims[3];
		ok = fread(dims, 8, 3, f) == 3 && dims[0] <= UINT32_MAX && dims[1] <= UINT32_MAX &&
		     dims[2] <= (1u << 30);
		coco_rle_t *r = &a->pool[k];
		if (ok)
			*r = (coco_rle_t){.h = (uint32_t)dims[0], .w = (uint32_t)dims[1],
			                  .m = (uint32_t)dims[2], .cnts = malloc(4 * dims[2] + 4)};
		ok = ok && r->cnts && fread(r->cnts, 4, r->m, f) == r->m;
	}
	fclose(f);
	if (!ok)
		return coco_meta_fail(err, errn, dir, "masks_rles.dat", "truncated or malformed");
	return 0;
}

static int coco_meta_read_names(coco_ann_t *a, const char *dir, char *err, size_t errn)
{
	char path[4096], word[4096];
	snprintf(path, sizeof path, "%s/filenames.dat", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0; /* no files: the reader says so */
	int64_t cap = 0;
	int rc = 0;
	while (!rc && fscanf(f, "%4095s", word) == 1) { /* DALI reads words */
		if (a->nsamples == cap) {
			cap = cap ? 2 * cap : 64;
			coco_sample_t *s = realloc(a->samples, sizeof *s * (size_t)cap);
			if (!s) {
				rc = coco_meta_fail(err, errn, dir, "filenames.dat", "out of memory");
				break;
			}
			a->samples = s;
		}
		coco_sample_t *s = &a->samples[a->nsamples];
		*s = (coco_sample_t){.file_name = strdup(word)};
		if (!s->file_name)
			rc = coco_meta_fail(err, errn, dir, "filenames.dat", "out of memory");
		else
			a->nsamples++;
	}
	fclose(f);
	return rc;
}

/* The per-sample file f into the samples; it must have one value per file name. */
static int coco_meta_read_field(coco_ann_t *a, const char *dir, coco_meta_field_t f, char *err,
                                size_t errn)
{
	void *v;
	int64_t n;
	int w = coco_meta_fields[f].width;
	if (coco_meta_read(dir, coco_meta_fields[f].name, (size_t)w, &v, &n, err, errn))
		return -1;
	if (n != a->nsamples) {
		free(v);
		char msg[128];
		snprintf(msg, sizeof msg, "%lld entries for the %lld files of filenames.dat",
		         (long long)n, (long long)a->nsamples);
		return coco_meta_fail(err, errn, dir, coco_meta_fields[f].name, msg);
	}
	for (int64_t k = 0; k < n; k++) {
		int64_t x;
		int32_t y;
		if (w == 8)
			memcpy(&x, (char *)v + 8 * k, 8);
		else
			x = (memcpy(&y, (char *)v + 4 * k, 4), y);
		coco_meta_set(&a->samples[k], f, x);
	}
	free(v);
	return 0;
}

/* Every sample's ranges inside the arrays. */
static int coco_meta_check(const coco_ann_t *a, const char *dir, coco_meta_parts_t parts,
                           char *err, size_t errn)
{
	for (int64_t k = 0; k < a->nsamples; k++) {
		const coco_sample_t *s = &a->samples[k];
		const char *bad = s->box0 < 0 || s->nbox < 0 || s->box0 + s->nbox > a->nboxes
		                      ? "offsets.dat"
		                  : (parts.polygons || parts.masks) &&
		                          (s->poly0 < 0 || s->npoly < 0 ||
		                           s->poly0 + s->npoly > a->npolys)
		                      ? "polygon_offset.dat"
		                  : (parts.polygons || parts.masks) &&
		                          (s->vert0 < 0 || s->nvert < 0 ||
		                           s->vert0 + s->nvert > a->nverts)
		                      ? "vertices_offset.dat"
		                  : parts.masks && (s->rle0 < 0 || s->nrle < 0 ||
		                                    s->rle0 + s->nrle > a->nrles || s->height < 0 ||
		                                    s->width < 0)
		                      ? "masks_offset.dat"
		                      : NULL;
		if (bad) {
			char msg[160];
			snprintf(msg, sizeof msg, "the ranges of sample %lld ('%s') run past the data",
			         (long long)k, s->file_name);
			return coco_meta_fail(err, errn, dir, bad, msg);
		}
	}
	return 0;
}

int dalic_coco_meta_load(coco_ann_t *a, const char *dir, coco_meta_parts_t parts, char *err,
                         size_t errn)
{
	memset(a, 0, sizeof *a);
	int64_t n;
	void *v;
	int rc = coco_meta_read_names(a, dir, err, errn) ||
	         coco_meta_read_field(a, dir, COCO_META_BOX0, err, errn) ||
	         coco_meta_read_field(a, dir, COCO_META_NBOX, err, errn) ||
	         coco_meta_read(dir, "boxes.dat", 4, &v, &n, err, errn);
	if (!rc) {
		a->boxes = v;
		a->nboxes = n / 4;
		rc = coco_meta_read(dir, "labels.dat", 4, &v, &n, err, errn);
		a->labels = v;
		if (!rc && n < a->nboxes)
			rc = coco_meta_fail(err, errn, dir, "labels.dat", "fewer labels than boxes");
	}
	if (!rc && (parts.polygons || parts.masks)) {
		rc = coco_meta_read(dir, "polygon_data.dat", 12, &v, &a->npolys, err, errn);
		a->polys = v;
		rc = rc || coco_meta_read(dir, "vertices.dat", 8, &v, &a->nverts, err, errn);
		a->verts = rc ? a->verts : v;
		rc = rc || coco_meta_read_field(a, dir, COCO_META_POLY0, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_NPOLY, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_VERT0, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_NVERT, err, errn);
	}
	if (!rc && parts.masks) {
		rc = coco_meta_read_rles(a, dir, err, errn) ||
		     coco_meta_read(dir, "masks_rles_idx.dat", 4, &v, &n, err, errn);
		if (!rc && n != a->npool) {
			free(v);
			rc = coco_meta_fail(err, errn, dir, "masks_rles_idx.dat",
			                    "not one mask index per mask of masks_rles.dat");
		} else if (!rc) {
			a->rle_idx = v;
			a->nrles = n;
			a->rle_ref = malloc(sizeof *a->rle_ref * (size_t)(a->nrles + 1));
			for (int64_t k = 0; a->rle_ref && k < a->nrles; k++)
				a->rle_ref[k] = k;
			if (!a->rle_ref)
				rc = coco_meta_fail(err, errn, dir, "masks_rles.dat", "out of memory");
		}
		rc = rc || coco_meta_read_field(a, dir, COCO_META_RLE0, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_NRLE, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_HEIGHT, err, errn) ||
		     coco_meta_read_field(a, dir, COCO_META_WIDTH, err, errn);
	}
	if (!rc && parts.ids)
		rc = coco_meta_read_field(a, dir, COCO_META_ID, err, errn);
	rc = rc || coco_meta_check(a, dir, parts, err, errn);
	if (rc)
		dalic_coco_ann_free(a);
	return rc ? -1 : 0;
}
