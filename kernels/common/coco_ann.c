/* COCO annotation files (see coco_ann.h). */
#include "kernels/common/coco_ann.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct coco_info {
	const char *name; /* in the cJSON tree */
	int32_t id, width, height;
	int index; /* in the file */
} coco_info_t;

typedef struct coco_raw {
	int32_t image_id, category, index;
	float box[4];
	int64_t meta0, nmeta;     /* polygon (start, end) coordinate pairs in the pool */
	int64_t coord0, ncoord;   /* coordinates in the pool */
	int64_t rle;              /* its RLE mask in the pool, or -1 */
} coco_raw_t;

typedef struct coco_parse {
	const char *path;
	char *err;
	size_t errn;
	coco_info_t *infos;
	int64_t ninfos, cinfos;
	int32_t (*cats)[2]; /* (id, new id), in file order */
	int64_t ncats, ccats;
	coco_raw_t *anns;
	int64_t nanns, canns;
	int32_t *meta;
	int64_t nmeta, cmeta;
	float *coords;
	int64_t ncoords, ccoords;
	coco_rle_t *rles;
	int64_t nrles, crles;
	int64_t caps[7]; /* of the result's samples, boxes, labels, polys, verts */
} coco_parse_t;

/* Room for one more element of `size` bytes in *v (n used, *cap allocated). */
static int coco_grow(coco_parse_t *p, void **v, int64_t n, int64_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	int64_t c = *cap ? *cap * 2 : 16;
	void *nv = c < (INT64_C(1) << 40) / (int64_t)size ? realloc(*v, (size_t)c * size) : NULL;
	if (!nv) {
		snprintf(p->err, p->errn, "out of memory reading '%s'", p->path);
		return -1;
	}
	*v = nv;
	*cap = c;
	return 0;
}

static int coco_fail(coco_parse_t *p, const char *what, int index, const char *msg)
{
	snprintf(p->err, p->errn, "%s (%s %d of '%s')", msg, what, index, p->path);
	return -1;
}

/* An integer member of an entry (DALI's GetInt); missing or not a number is an error. */
static int coco_int(coco_parse_t *p, const cJSON *o, const char *key, const char *what, int index,
                    int32_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsNumber(v)) {
		char msg[96];
		snprintf(msg, sizeof msg, "'%s' is missing or not a number", key);
		return coco_fail(p, what, index, msg);
	}
	double d = v->valuedouble;
	*out = d >= INT32_MAX ? INT32_MAX : d <= INT32_MIN ? INT32_MIN : (int32_t)d;
	return 0;
}

static int coco_images(coco_parse_t *p, const cJSON *arr)
{
	int k = -1;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		k++;
		if (!cJSON_IsObject(o))
			continue;
		if (coco_grow(p, (void **)&p->infos, p->ninfos, &p->cinfos, sizeof *p->infos))
			return -1;
		coco_info_t *in = &p->infos[p->ninfos];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "file_name");
		if (!cJSON_IsString(name))
			return coco_fail(p, "image", k, "'file_name' is missing or not a string");
		in->name = name->valuestring;
		in->index = k;
		if (coco_int(p, o, "id", "image", k, &in->id) ||
		    coco_int(p, o, "width", "image", k, &in->width) ||
		    coco_int(p, o, "height", "image", k, &in->height))
			return -1;
		p->ninfos++;
	}
	return 0;
}

static int coco_categories(coco_parse_t *p, const cJSON *arr)
{
	int k = -1;
	int32_t next = 1;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		k++;
		if (!cJSON_IsObject(o))
			continue;
		int32_t id;
		if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "id")))
			return coco_fail(p, "category", k,
			                 "Missing category ID in the JSON annotations file");
		coco_int(p, o, "id", "category", k, &id);
		bool seen = false; /* std::map::emplace keeps the first */
		for (int64_t c = 0; c < p->ncats && !seen; c++)
			seen = p->cats[c][0] == id;
		if (!seen) {
			if (coco_grow(p, (void **)&p->cats, p->ncats, &p->ccats, sizeof *p->cats))
				return -1;
			p->cats[p->ncats][0] = id;
			p->cats[p->ncats++][1] = next;
		}
		next++;
	}
	return 0;
}

/* A polygon segmentation: arrays of coordinates. */
static int coco_polygons(coco_parse_t *p, const cJSON *seg, int k, coco_raw_t *a)
{
	a->meta0 = p->nmeta;
	a->coord0 = p->ncoords;
	const cJSON *poly, *c;
	cJSON_ArrayForEach(poly, seg)
	{
		if (!cJSON_IsArray(poly))
			return coco_fail(p, "annotation", k, "a polygon of 'segmentation' is not a list");
		int64_t start = p->ncoords - a->coord0;
		cJSON_ArrayForEach(c, poly)
		{
			if (!cJSON_IsNumber(c))
				return coco_fail(p, "annotation", k,
				                 "a polygon coordinate is not a number");
			if (coco_grow(p, (void **)&p->coords, p->ncoords, &p->ccoords,
			              sizeof *p->coords))
				return -1;
			p->coords[p->ncoords++] = (float)c->valuedouble;
		}
		int64_t end = p->ncoords - a->coord0;
		if ((end - start) % 2)
			return coco_fail(p, "annotation", k,
			                 "a polygon has an odd number of coordinates");
		for (int e = 0; e < 2; e++) {
			if (coco_grow(p, (void **)&p->meta, p->nmeta, &p->cmeta, sizeof *p->meta))
				return -1;
			p->meta[p->nmeta++] = (int32_t)(e ? end : start);
		}
	}
	a->nmeta = p->nmeta - a->meta0;
	a->ncoord = p->ncoords - a->coord0;
	return 0;
}

/* An RLE segmentation {"size": [h, w], "counts": string or list} (DALI's checks). */
static int coco_rle(coco_parse_t *p, const cJSON *seg, int k, coco_raw_t *a)
{
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(seg, "size");
	const cJSON *counts = cJSON_GetObjectItemCaseSensitive(seg, "counts");
	int32_t hw[2] = {-1, -1};
	for (int d = 0; d < 2 && cJSON_IsArray(size); d++) {
		const cJSON *v = cJSON_GetArrayItem(size, d);
		hw[d] = cJSON_IsNumber(v) ? (int32_t)v->valuedouble : -1;
	}
	if (hw[0] <= 0 || hw[1] <= 0)
		return coco_fail(p, "annotation", k, "Invalid or missing mask sizes");
	if (coco_grow(p, (void **)&p->rles, p->nrles, &p->crles, sizeof *p->rles))
		return -1;
	coco_rle_t *r = &p->rles[p->nrles];
	char msg[160];
	if (cJSON_IsString(counts) && counts->valuestring[0]) {
		if (dalic_coco_rle_from_string(r, counts->valuestring, (uint32_t)hw[0],
		                               (uint32_t)hw[1], msg, sizeof msg))
			return coco_fail(p, "annotation", k, msg);
	} else if (cJSON_IsArray(counts) && cJSON_GetArraySize(counts) > 0) {
		int n = cJSON_GetArraySize(counts);
		*r = (coco_rle_t){.h = (uint32_t)hw[0], .w = (uint32_t)hw[1], .m = (uint32_t)n,
		                  .cnts = malloc(sizeof(uint32_t) * (size_t)n)};
		if (!r->cnts)
			return coco_fail(p, "annotation", k, "out of memory");
		const cJSON *c;
		int j = 0;
		cJSON_ArrayForEach(c, counts)
		{
			if (!cJSON_IsNumber(c)) {
				dalic_coco_rle_free(r);
				return coco_fail(p, "annotation", k, "an RLE count is not a number");
			}
			r->cnts[j++] = (uint32_t)(int32_t)c->valuedouble;
		}
	} else {
		return coco_fail(p, "annotation", k, "Missing or invalid ``counts`` attribute.");
	}
	a->rle = p->nrles++;
	return 0;
}

static int coco_bbox(coco_parse_t *p, const cJSON *bbox, int k, float *box)
{
	int i = 0;
	const cJSON *v;
	char msg[128];
	if (!cJSON_IsArray(bbox))
		return coco_fail(p, "annotation", k, "'bbox' is missing or not a list");
	cJSON_ArrayForEach(v, bbox)
	{
		if (i >= 4) {
			snprintf(msg, sizeof msg,
			         "Invalid COCO annotation: `bbox` must contain exactly 4 values, got at "
			         "least %d.",
			         i + 1);
			return coco_fail(p, "annotation", k, msg);
		}
		if (!cJSON_IsNumber(v))
			return coco_fail(p, "annotation", k, "a 'bbox' value is not a number");
		box[i++] = (float)v->valuedouble;
	}
	if (i != 4) {
		snprintf(msg, sizeof msg,
		         "Invalid COCO annotation: `bbox` must contain exactly 4 values, got %d.", i);
		return coco_fail(p, "annotation", k, msg);
	}
	return 0;
}

static int coco_annotations(coco_parse_t *p, const cJSON *arr, const coco_opts_t *o)
{
	int k = -1;
	const cJSON *e;
	cJSON_ArrayForEach(e, arr)
	{
		k++;
		if (!cJSON_IsObject(e))
			continue;
		coco_raw_t a = {.index = k, .rle = -1};
		int32_t crowd = 0;
		if (coco_int(p, e, "image_id", "annotation", k, &a.image_id) ||
		    coco_int(p, e, "category_id", "annotation", k, &a.category) ||
		    (cJSON_GetObjectItemCaseSensitive(e, "iscrowd") &&
		     coco_int(p, e, "iscrowd", "annotation", k, &crowd)) ||
		    coco_bbox(p, cJSON_GetObjectItemCaseSensitive(e, "bbox"), k, a.box))
			return -1;
		const cJSON *seg = cJSON_GetObjectItemCaseSensitive(e, "segmentation");
		if (o->rles && cJSON_IsObject(seg) && coco_rle(p, seg, k, &a))
			return -1;
		if (o->polygons && cJSON_IsArray(seg) && coco_polygons(p, seg, k, &a))
			return -1;
		if (crowd != 0 && !o->include_iscrowd)
			continue;
		if (!(a.box[2] >= o->size_threshold && a.box[3] >= o->size_threshold))
			continue;
		if (o->ltrb) {
			a.box[2] += a.box[0];
			a.box[3] += a.box[1];
		}
		if (coco_grow(p, (void **)&p->anns, p->nanns, &p->canns, sizeof *p->anns))
			return -1;
		p->anns[p->nanns++] = a;
	}
	return 0;
}

static int coco_cmp_info_id(const void *a, const void *b)
{
	const coco_info_t *x = a, *y = b;
	return x->id != y->id ? (x->id < y->id ? -1 : 1) : x->index - y->index;
}

static int coco_cmp_ann(const void *a, const void *b)
{
	const coco_raw_t *x = a, *y = b;
	return x->image_id != y->image_id ? (x->image_id < y->image_id ? -1 : 1)
	                                  : x->index - y->index;
}

static int coco_cmp_info_name(const void *a, const void *b)
{
	const coco_info_t *x = *(const coco_info_t *const *)a, *y = *(const coco_info_t *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->index - y->index;
}

/* The info DALI's map gives `name`: the last image of that name in the file (by_name sorted
 * by name, then position). */
static const coco_info_t *coco_find_info(coco_info_t *const *by_name, int64_t n, const char *name)
{
	int64_t lo = 0, hi = n;
	while (lo < hi) { /* past the last entry <= name */
		int64_t mid = (lo + hi) / 2;
		if (strcmp(by_name[mid]->name, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && !strcmp(by_name[lo - 1]->name, name) ? by_name[lo - 1] : NULL;
}

static int32_t coco_label(const coco_parse_t *p, int32_t cat, bool remap)
{
	if (!remap)
		return cat;
	for (int64_t c = 0; c < p->ncats; c++)
		if (p->cats[c][0] == cat)
			return p->cats[c][1];
	return 0;
}

/* Room for `need` elements in *v (*cap allocated), growing geometrically. */
static int coco_reserve(coco_parse_t *p, void **v, int64_t need, size_t size, int64_t *cap)
{
	if (need <= *cap)
		return 0;
	int64_t c = need > 2 * *cap ? need : 2 * *cap;
	void *nv = c < (INT64_C(1) << 40) / (int64_t)size ? realloc(*v, (size_t)c * size) : NULL;
	if (!nv) {
		snprintf(p->err, p->errn, "out of memory reading '%s'", p->path);
		return -1;
	}
	*v = nv;
	*cap = c;
	return 0;
}

/* Appends the sample of image `in` with its annotations. */
static int coco_add_sample(coco_parse_t *p, coco_ann_t *a, const coco_info_t *in,
                           const coco_opts_t *o)
{
	coco_raw_t key = {.image_id = in->id, .index = -1};
	int64_t lo = 0, hi = p->nanns;
	while (lo < hi) { /* the first annotation of the image */
		int64_t mid = (lo + hi) / 2;
		if (coco_cmp_ann(&p->anns[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t end = lo;
	int64_t nverts = 0, npolys = 0, nrles = 0;
	while (end < p->nanns && p->anns[end].image_id == in->id) {
		nverts += p->anns[end].ncoord / 2;
		npolys += p->anns[end].nmeta / 2;
		nrles += p->anns[end].rle >= 0;
		end++;
	}
	if (o->skip_empty && end == lo)
		return 0;
	int64_t *cap = p->caps;
	if (coco_reserve(p, (void **)&a->samples, a->nsamples + 1, sizeof *a->samples, &cap[0]) ||
	    coco_reserve(p, (void **)&a->boxes, 4 * (a->nboxes + end - lo), sizeof(float), &cap[1]) ||
	    coco_reserve(p, (void **)&a->labels, a->nboxes + end - lo, sizeof(int32_t), &cap[2]) ||
	    coco_reserve(p, (void **)&a->polys, 3 * (a->npolys + npolys), sizeof(int32_t), &cap[3]) ||
	    coco_reserve(p, (void **)&a->verts, 2 * (a->nverts + nverts), sizeof(float), &cap[4]) ||
	    coco_reserve(p, (void **)&a->rle_ref, a->nrles + nrles, sizeof(int64_t), &cap[5]) ||
	    coco_reserve(p, (void **)&a->rle_idx, a->nrles + nrles, sizeof(int32_t), &cap[6]))
		return -1;
	coco_sample_t *s = &a->samples[a->nsamples];
	*s = (coco_sample_t){.id = in->id, .width = in->width, .height = in->height,
	                     .box0 = a->nboxes, .poly0 = a->npolys, .vert0 = a->nverts,
	                     .rle0 = a->nrles};
	if (!(s->file_name = strdup(in->name))) {
		snprintf(p->err, p->errn, "out of memory reading '%s'", p->path);
		return -1;
	}
	a->nsamples++;
	float w = (float)in->width, h = (float)in->height;
	for (int64_t k = lo; k < end; k++) {
		const coco_raw_t *r = &p->anns[k];
		float *b = &a->boxes[4 * a->nboxes];
		for (int c = 0; c < 4; c++)
			b[c] = o->ratio ? r->box[c] / (c % 2 ? h : w) : r->box[c];
		a->labels[a->nboxes] = coco_label(p, r->category, o->remap);
		int32_t obj = (int32_t)(a->nboxes - s->box0);
		a->nboxes++;
		if (r->rle >= 0) {
			a->rle_ref[a->nrles] = r->rle;
			a->rle_idx[a->nrles++] = obj;
		}
		for (int64_t m = 0; m < r->nmeta; m += 2) {
			int32_t *row = &a->polys[3 * a->npolys++];
			int32_t base = (int32_t)(a->nverts - s->vert0);
			row[0] = obj;
			row[1] = base + p->meta[r->meta0 + m] / 2;
			row[2] = base + p->meta[r->meta0 + m + 1] / 2;
		}
		for (int64_t c = 0; c < r->ncoord; c += 2) {
			float x = p->coords[r->coord0 + c], y = p->coords[r->coord0 + c + 1];
			a->verts[2 * a->nverts] = o->ratio ? x / w : x;
			a->verts[2 * a->nverts + 1] = o->ratio ? y / h : y;
			a->nverts++;
		}
	}
	s->nbox = a->nboxes - s->box0;
	s->npoly = a->npolys - s->poly0;
	s->nvert = a->nverts - s->vert0;
	s->nrle = a->nrles - s->rle0;
	return 0;
}

static int coco_build(coco_parse_t *p, coco_ann_t *a, const coco_opts_t *o)
{
	if (p->nanns > 1) /* qsort takes no NULL, even for nothing */
		qsort(p->anns, (size_t)p->nanns, sizeof *p->anns, coco_cmp_ann);
	if (p->ninfos > 1)
		qsort(p->infos, (size_t)p->ninfos, sizeof *p->infos, coco_cmp_info_id);
	coco_info_t **by_name = malloc(sizeof *by_name * (size_t)(p->ninfos + 1));
	if (!by_name) {
		snprintf(p->err, p->errn, "out of memory reading '%s'", p->path);
		return -1;
	}
	for (int64_t i = 0; i < p->ninfos; i++)
		by_name[i] = &p->infos[i];
	if (p->ninfos > 1)
		qsort(by_name, (size_t)p->ninfos, sizeof *by_name, coco_cmp_info_name);
	int rc = 0;
	int64_t n = o->images ? o->nimages : p->ninfos;
	for (int64_t k = 0; !rc && k < n; k++) {
		const char *name = o->images ? o->images[k] : p->infos[k].name;
		const coco_info_t *in = coco_find_info(by_name, p->ninfos, name);
		if (in)
			rc = coco_add_sample(p, a, in, o);
	}
	free(by_name);
	return rc;
}

static char *coco_read_file(const char *path, size_t *n, char *err, size_t errn)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1)) && fread(buf, 1, (size_t)size, f) == (size_t)size) {
		buf[size] = 0;
		*n = (size_t)size;
	} else {
		free(buf);
		buf = NULL;
		snprintf(err, errn, "Could not open JSON annotations file: \"%s\"", path);
	}
	if (f)
		fclose(f);
	return buf;
}

int dalic_coco_ann_load(coco_ann_t *a, const char *path, const coco_opts_t *o, char *err,
                        size_t errn)
{
	memset(a, 0, sizeof *a);
	size_t n;
	char *text = coco_read_file(path, &n, err, errn);
	if (!text)
		return -1;
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, n, &end, false);
	int rc = 0;
	coco_parse_t p = {.path = path, .err = err, .errn = errn};
	if (!root || !cJSON_IsObject(root)) {
		snprintf(err, errn, "Error parsing JSON file '%s'%s at byte %ld", path,
		         root ? ": the top level is not an object" : "",
		         root ? 0L : (long)(end ? end - text : 0));
		rc = -1;
	}
	const cJSON *key;
	if (!rc)
		cJSON_ArrayForEach(key, root)
		{
			bool list = cJSON_IsArray(key);
			if (!strcmp(key->string, "images") && list)
				rc = coco_images(&p, key);
			else if (!strcmp(key->string, "categories") && list)
				rc = coco_categories(&p, key);
			else if (!strcmp(key->string, "annotations") && list)
				rc = coco_annotations(&p, key, o);
			if (rc)
				break;
		}
	if (!rc)
		rc = coco_build(&p, a, o);
	a->pool = p.rles; /* the masks stay with the result */
	a->npool = p.nrles;
	free(p.infos);
	free(p.cats);
	free(p.anns);
	free(p.meta);
	free(p.coords);
	cJSON_Delete(root);
	free(text);
	if (rc)
		dalic_coco_ann_free(a);
	return rc;
}

void dalic_coco_ann_free(coco_ann_t *a)
{
	for (int64_t i = 0; a->samples && i < a->nsamples; i++)
		free(a->samples[i].file_name);
	free(a->samples);
	free(a->boxes);
	free(a->labels);
	free(a->polys);
	free(a->verts);
	for (int64_t k = 0; a->pool && k < a->npool; k++)
		dalic_coco_rle_free(&a->pool[k]);
	free(a->pool);
	free(a->rle_ref);
	free(a->rle_idx);
	memset(a, 0, sizeof *a);
}
