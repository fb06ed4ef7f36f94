/* COCO run-length masks (coco_rle.h). */
#include "kernels/common/coco_rle.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COCO_RLE_SCALE 5.0
#define COCO_RLE_MAX_COORD 1e8          /* 5x stays an int */
#define COCO_RLE_MAX_POINTS (1u << 27) /* boundary points of one polygon */

static int coco_rle_oom(char *err, size_t errn)
{
	snprintf(err, errn, "out of memory for a pixelwise mask");
	return -1;
}

void dalic_coco_rle_free(coco_rle_t *r)
{
	free(r->cnts);
	memset(r, 0, sizeof *r);
}

int dalic_coco_rle_from_string(coco_rle_t *r, const char *s, uint32_t h, uint32_t w, char *err,
                               size_t errn)
{
	size_t n = strlen(s);
	*r = (coco_rle_t){.h = h, .w = w};
	if (n >= UINT32_MAX || !(r->cnts = malloc(sizeof *r->cnts * (n + 1))))
		return coco_rle_oom(err, errn);
	for (size_t p = 0; s[p];) {
		int64_t x = 0;
		int k = 0;
		for (bool more = true; more; k++) {
			int c = s[p] - 48;
			if (!s[p] || c < 0 || c > 63 || k > 6) {
				dalic_coco_rle_free(r);
				snprintf(err, errn, "malformed RLE 'counts' string at character %zu", p);
				return -1;
			}
			x |= (int64_t)(c & 0x1f) << (5 * k);
			more = c & 0x20;
			p++;
			if (!more && (c & 0x10))
				x |= (int64_t)-1 * (INT64_C(1) << (5 * (k + 1)));
		}
		if (r->m > 2)
			x += (int64_t)r->cnts[r->m - 2];
		r->cnts[r->m++] = (uint32_t)x;
	}
	return 0;
}

static int coco_rle_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x > y ? 1 : x < y ? -1 : 0;
}

/* The edge points of polygon xy (k vertices), 5x upsampled, into u, v (NULL: count only). */
static uint64_t coco_rle_edges(const int *x, const int *y, size_t k, int *u, int *v)
{
	uint64_t m = 0;
	for (size_t j = 0; j < k; j++) {
		int xs = x[j], xe = x[j + 1], ys = y[j], ye = y[j + 1], t;
		int dx = abs(xe - xs), dy = abs(ys - ye);
		if (!u) {
			m += (uint64_t)(dx > dy ? dx : dy) + 1;
			continue;
		}
		bool flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
		if (flip) {
			t = xs, xs = xe, xe = t;
			t = ys, ys = ye, ye = t;
		}
		double s = dx >= dy ? (double)(ye - ys) / dx : (double)(xe - xs) / dy;
		if (dx >= dy)
			for (int d = 0; d <= dx; d++) {
				t = flip ? dx - d : d;
				u[m] = t + xs;
				v[m++] = (int)(ys + s * t + .5);
			}
		else
			for (int d = 0; d <= dy; d++) {
				t = flip ? dy - d : d;
				v[m] = t + ys;
				u[m++] = (int)(xs + s * t + .5);
			}
	}
	return m;
}

/* The COCO API's rleFrPoly over k vertices (2 floats each). */
static int coco_rle_from_poly(coco_rle_t *r, const float *xy, size_t k, uint32_t h, uint32_t w,
                              bool ratio, char *err, size_t errn)
{
	*r = (coco_rle_t){.h = h, .w = w};
	int *x = malloc(sizeof(int) * (k + 1)), *y = malloc(sizeof(int) * (k + 1));
	int *u = NULL, *v = NULL;
	uint32_t *a = NULL;
	int rc = -1;
	if (!x || !y)
		goto oom;
	for (size_t j = 0; j < k; j++) {
		float fx = ratio ? xy[2 * j] * (float)w : xy[2 * j];
		float fy = ratio ? xy[2 * j + 1] * (float)h : xy[2 * j + 1];
		double px = fx, py = fy;
		if (!(fabs(px) <= COCO_RLE_MAX_COORD && fabs(py) <= COCO_RLE_MAX_COORD)) {
			snprintf(err, errn, "polygon vertex (%g, %g) is too far out to rasterise", px,
			         py);
			goto out;
		}
		x[j] = (int)(COCO_RLE_SCALE * px + .5);
		y[j] = (int)(COCO_RLE_SCALE * py + .5);
	}
	x[k] = k ? x[0] : 0;
	y[k] = k ? y[0] : 0;
	uint64_t m = coco_rle_edges(x, y, k, NULL, NULL);
	if (m > COCO_RLE_MAX_POINTS) {
		snprintf(err, errn, "a polygon too large to rasterise");
		goto out;
	}
	u = malloc(sizeof(int) * (m + 1));
	v = malloc(sizeof(int) * (m + 1));
	a = malloc(sizeof(uint32_t) * (m + 1));
	if (!u || !v || !a)
		goto oom;
	m = coco_rle_edges(x, y, k, u, v);
	/* the y-boundary points, taken back down to pixels */
	size_t n = 0;
	for (size_t j = 1; j < m; j++) {
		if (u[j] == u[j - 1])
			continue;
		double xd = (double)(u[j] < u[j - 1] ? u[j] : u[j] - 1);
		xd = (xd + .5) / COCO_RLE_SCALE - .5;
		if (floor(xd) != xd || xd < 0 || xd > (double)((uint64_t)w - 1))
			continue;
		double yd = (double)(v[j] < v[j - 1] ? v[j] : v[j - 1]);
		yd = (yd + .5) / COCO_RLE_SCALE - .5;
		yd = ceil(yd < 0 ? 0 : yd > h ? h : yd);
		a[n++] = (uint32_t)(int)xd * h + (uint32_t)(int)yd;
	}
	a[n++] = h * w;
	qsort(a, n, sizeof *a, coco_rle_cmp);
	for (size_t j = 0, p = 0; j < n; j++) {
		uint32_t t = a[j];
		a[j] -= (uint32_t)p;
		p = t;
	}
	/* zero deltas join their neighbours */
	size_t j = 0;
	r->m = 0;
	a[r->m++] = a[j++];
	while (j < n)
		if (a[j] > 0) {
			a[r->m++] = a[j++];
		} else if (++j < n) {
			a[r->m - 1] += a[j++];
		}
	r->cnts = a;
	a = NULL;
	rc = 0;
	goto out;
oom:
	coco_rle_oom(err, errn);
out:
	free(x);
	free(y);
	free(u);
	free(v);
	free(a);
	return rc;
}

/* The COCO API's rleMerge (union) of n >= 1 masks of one size into *out (new). */
static int coco_rle_union(const coco_rle_t *rs, size_t n, coco_rle_t *out, char *err,
                          size_t errn)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += rs[i].m;
	*out = (coco_rle_t){.h = rs[0].h, .w = rs[0].w, .m = rs[0].m};
	uint32_t *cnts = malloc(sizeof *cnts * (total + 2)), *prev = malloc(sizeof *prev * (total + 2));
	if (!cnts || !prev) {
		free(cnts);
		free(prev);
		return coco_rle_oom(err, errn);
	}
	memcpy(cnts, rs[0].cnts, sizeof *cnts * rs[0].m);
	uint32_t m = rs[0].m;
	for (size_t i = 1; i < n; i++) {
		const coco_rle_t *b = &rs[i];
		uint32_t am = m;
		memcpy(prev, cnts, sizeof *cnts * am);
		uint32_t ca = am ? prev[0] : 0, cb = b->m ? b->cnts[0] : 0, cc = 0, ia = 1, ib = 1;
		bool v = false, va = false, vb = false;
		m = 0;
		for (uint64_t ct = 1, it = 0; ct > 0; it++) {
			if (it > (uint64_t)am + b->m + 1) { /* runs of different totals never end */
				free(cnts);
				free(prev);
				snprintf(err, errn, "polygon masks of different sizes");
				return -1;
			}
			uint32_t c = ca < cb ? ca : cb;
			cc += c;
			ct = 0;
			ca -= c;
			if (!ca && ia < am)
				ca = prev[ia++], va = !va;
			ct += ca;
			cb -= c;
			if (!cb && ib < b->m)
				cb = b->cnts[ib++], vb = !vb;
			ct += cb;
			bool vp = v;
			v = va || vb;
			if (v != vp || ct == 0) {
				cnts[m++] = cc;
				cc = 0;
			}
		}
	}
	free(prev);
	out->m = m;
	out->cnts = cnts;
	return 0;
}

/* Runs with a label value each: DALI's merged encoding. */
typedef struct coco_runs {
	uint32_t m;
	uint32_t *cnts;
	int32_t *vals;
} coco_runs_t;

static int coco_rle_cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x > y ? 1 : x < y ? -1 : 0;
}

/* DALI's merge of label `lab`'s mask b into the runs of a. */
static int coco_runs_merge(coco_runs_t *a, const coco_rle_t *b, int32_t lab, char *err,
                           size_t errn)
{
	uint64_t cap = (uint64_t)a->m + b->m + 2;
	uint32_t *cnts = malloc(sizeof *cnts * cap);
	int32_t *vals = malloc(sizeof *vals * cap);
	if (!cnts || !vals) {
		free(cnts);
		free(vals);
		return coco_rle_oom(err, errn);
	}
	uint32_t cnt_a = a->m ? a->cnts[0] : 0, cnt_b = b->cnts[0], na = 1, nb = 1, m = 0;
	int32_t next_val_a = a->m ? a->vals[0] : 0, val_a = next_val_a;
	bool next_vb = false, vb = false;
	for (uint64_t tot = 1; tot > 0;) {
		if (m + 1 >= cap) {
			free(cnts);
			free(vals);
			snprintf(err, errn, "masks of different sizes in one image");
			return -1;
		}
		uint32_t c = cnt_a < cnt_b ? cnt_a : cnt_b;
		tot = 0;
		cnt_a -= c;
		if (!cnt_a && na < a->m) {
			cnt_a = a->cnts[na];
			next_val_a = a->vals[na++];
		}
		tot += cnt_a;
		cnt_b -= c;
		if (!cnt_b && nb < b->m) {
			cnt_b = b->cnts[nb++];
			next_vb = !next_vb;
		}
		tot += cnt_b;
		/* where both have a label, the later one wins unless a's run ends here */
		vals[m] = val_a && vb ? (!cnt_a ? val_a : lab) : val_a ? val_a : vb ? lab : 0;
		cnts[m++] = c;
		val_a = next_val_a;
		vb = next_vb;
		if (!cnt_a)
			break;
	}
	free(a->cnts);
	free(a->vals);
	*a = (coco_runs_t){.m = m, .cnts = cnts, .vals = vals};
	return 0;
}

/* Label index of mask k, checked. */
static int coco_mask_label(const coco_mask_in_t *in, const int32_t *ul, int nl, int64_t k,
                           char *err, size_t errn)
{
	if (k < 0 || k >= in->nbox) {
		snprintf(err, errn, "a mask names annotation %lld of %lld", (long long)k,
		         (long long)in->nbox);
		return -1;
	}
	const int32_t *f = bsearch(&in->labels[k], ul, (size_t)nl, sizeof *ul, coco_rle_cmp_i32);
	return (int)(f - ul);
}

/* Each label's mask: its RLE segmentation (the last), or the union of its polygons. */
static int coco_label_masks(const coco_mask_in_t *in, const int32_t *ul, int nl, coco_rle_t *r,
                            char *err, size_t errn)
{
	uint64_t px = (uint64_t)in->h * in->w;
	for (int64_t k = 0; k < in->nrle; k++) {
		const coco_rle_t *s = &in->pool[in->rle_ref[k]];
		uint64_t sum = 0;
		for (uint32_t j = 0; j < s->m; j++)
			sum += s->cnts[j];
		if (sum != px || s->m == 0) {
			snprintf(err, errn,
			         "an RLE segmentation covers %llu pixels, the image %u x %u has %llu",
			         (unsigned long long)sum, in->h, in->w, (unsigned long long)px);
			return -1;
		}
		int li = coco_mask_label(in, ul, nl, in->rle_idx[k], err, errn);
		if (li < 0)
			return -1;
		dalic_coco_rle_free(&r[li]);
		r[li] = (coco_rle_t){.h = s->h, .w = s->w, .m = s->m,
		                     .cnts = malloc(sizeof *s->cnts * s->m)};
		if (!r[li].cnts)
			return coco_rle_oom(err, errn);
		memcpy(r[li].cnts, s->cnts, sizeof *s->cnts * s->m);
	}
	coco_rle_t *polys = calloc((size_t)in->npoly + 1, sizeof *polys);
	if (!polys)
		return coco_rle_oom(err, errn);
	int rc = 0;
	for (int li = 0; !rc && li < nl; li++) {
		size_t n = 0;
		for (int64_t p = 0; !rc && p < in->npoly; p++) {
			const int32_t *row = &in->polys[3 * p];
			int pl = coco_mask_label(in, ul, nl, row[0], err, errn);
			if (pl < 0 || row[1] < 0 || row[2] < row[1] || row[2] > in->nvert) {
				if (pl >= 0)
					snprintf(err, errn, "a polygon's vertices [%d, %d) are not in the %lld",
					         row[1], row[2], (long long)in->nvert);
				rc = -1;
			} else if (pl == li) {
				rc = coco_rle_from_poly(&polys[n++], in->verts + 2 * row[1],
				                        (size_t)(row[2] - row[1]), in->h, in->w, in->ratio,
				                        err, errn);
			}
		}
		if (!rc && n) {
			dalic_coco_rle_free(&r[li]);
			if (n == 1) {
				r[li] = polys[0];
				polys[0] = (coco_rle_t){0};
			} else {
				rc = coco_rle_union(polys, n, &r[li], err, errn);
			}
		}
		for (size_t j = 0; j < n; j++)
			dalic_coco_rle_free(&polys[j]);
	}
	free(polys);
	return rc;
}

/* The merged runs written out, column by column, into the row-major mask. */
static int coco_runs_write(const coco_runs_t *a, const coco_mask_in_t *in, int32_t *mask,
                           char *err, size_t errn)
{
	uint64_t x = 0, y = 0;
	for (uint32_t i = 0; i < a->m; i++)
		for (uint32_t j = 0; j < a->cnts[i]; j++) {
			if (x >= in->w) {
				snprintf(err, errn, "the masks cover more than the image's %u x %u pixels",
				         in->h, in->w);
				return -1;
			}
			mask[x + y * in->w] = a->vals[i];
			if (++y >= in->h)
				y = 0, x++;
		}
	return 0;
}

int dalic_coco_pixelwise(const coco_mask_in_t *in, int32_t *mask, char *err, size_t errn)
{
	if (in->h == 0 || in->w == 0)
		return 0;
	memset(mask, 0, sizeof *mask * in->h * in->w);
	if (in->nbox == 0)
		return 0;
	int32_t *ul = malloc(sizeof *ul * (size_t)in->nbox);
	coco_rle_t *r = calloc((size_t)in->nbox, sizeof *r);
	coco_runs_t a = {0};
	int rc = -1;
	if (!ul || !r) {
		coco_rle_oom(err, errn);
		goto out;
	}
	memcpy(ul, in->labels, sizeof *ul * (size_t)in->nbox);
	qsort(ul, (size_t)in->nbox, sizeof *ul, coco_rle_cmp_i32);
	int nl = 0;
	for (int64_t k = 0; k < in->nbox; k++)
		if (nl == 0 || ul[nl - 1] != ul[k])
			ul[nl++] = ul[k];
	if (ul[0] < 0) {
		snprintf(err, errn, "negative label %d: pixelwise masks hold labels >= 0", ul[0]);
		goto out;
	}
	if (coco_label_masks(in, ul, nl, r, err, errn))
		goto out;
	/* the smallest label's runs, then the others merged in ascending order */
	a.m = r[0].m;
	a.cnts = malloc(sizeof *a.cnts * (a.m + 1));
	a.vals = malloc(sizeof *a.vals * (a.m + 1));
	if (!a.cnts || !a.vals) {
		coco_rle_oom(err, errn);
		goto out;
	}
	for (uint32_t j = 0; j < a.m; j++) {
		a.cnts[j] = r[0].cnts[j];
		a.vals[j] = j % 2 ? ul[0] : 0;
	}
	for (int li = 1; li < nl; li++)
		if (r[li].m && coco_runs_merge(&a, &r[li], ul[li], err, errn))
			goto out;
	rc = coco_runs_write(&a, in, mask, err, errn);
out:
	for (int64_t k = 0; r && k < in->nbox; k++)
		dalic_coco_rle_free(&r[k]);
	free(r);
	free(ul);
	free(a.cnts);
	free(a.vals);
	return rc;
}
