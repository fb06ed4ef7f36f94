/* The CUDA resize kernel's descriptors from the CPU resampler's plans (see img_resample_cu.h). */
#include "kernels/common/img_resample_cu.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

/* Room for `more` table entries. */
static int resample_cu_reserve_tables(img_resample_cu_batch_t *b, int64_t more)
{
	if (b->ntab + more <= b->tab_cap)
		return 0;
	int64_t cap = b->tab_cap ? b->tab_cap : 256;
	while (cap < b->ntab + more)
		cap *= 2;
	int32_t *idx = realloc(b->idx, sizeof *idx * (size_t)cap);
	if (idx)
		b->idx = idx;
	float *w = idx ? realloc(b->w, sizeof *w * (size_t)cap) : NULL;
	if (!w) {
		dalic_fail(DALIC_ENOMEM, "out of memory for %lld filter taps", (long long)cap);
		return -1;
	}
	b->w = w;
	b->tab_cap = cap;
	return 0;
}

/* Appends one axis' table; its offset. */
static int64_t resample_cu_put_table(img_resample_cu_batch_t *b, const img_resample_table_t *t)
{
	int64_t at = b->ntab, n = (int64_t)t->out * t->taps;
	memcpy(b->idx + at, t->idx, sizeof *b->idx * (size_t)n);
	memcpy(b->w + at, t->w, sizeof *b->w * (size_t)n);
	b->ntab += n;
	return at;
}

int dalic_img_resample_cu_add(img_resample_cu_batch_t *b, const img_resample_job_t *job,
                              int64_t planes)
{
	if (b->n == b->cap) {
		int64_t cap = b->cap ? 2 * b->cap : 16;
		dalic_cu_resize_sample_t *s = realloc(b->samples, sizeof *s * (size_t)cap);
		if (!s) {
			dalic_fail(DALIC_ENOMEM, "out of memory for %lld samples", (long long)cap);
			return -1;
		}
		b->samples = s;
		b->cap = cap;
	}
	dalic_cu_resize_sample_t *s = &b->samples[b->n];
	memset(s, 0, sizeof *s);
	s->in = job->in;
	s->out = job->out;
	s->in_type = job->in_type;
	s->out_type = job->out_type;
	s->channels = job->channels;
	s->out_h = job->out_h;
	s->out_w = job->out_w;
	s->in_row = (int64_t)job->in_w * job->channels;
	s->in_plane = job->in_h * s->in_row;
	s->out_plane = (int64_t)job->out_h * job->out_w * job->channels;
	b->n++;
	/* as the CPU operator: nothing to resample, nothing written */
	if (planes <= 0 || s->in_plane == 0 || s->out_plane == 0)
		return 0;
	img_resample_plan_t pl;
	if (dalic_img_resample_plan(&b->ws, job, &pl) ||
	    resample_cu_reserve_tables(b, (int64_t)pl.y.out * pl.y.taps +
	                                      (int64_t)pl.x.out * pl.x.taps)) {
		b->n--;
		return -1;
	}
	s->planes = planes;
	s->vert_first = pl.vert_first;
	s->y_lo = pl.y.lo;
	s->y_taps = pl.y.taps;
	s->x_lo = pl.x.lo;
	s->x_taps = pl.x.taps;
	s->y_tab = resample_cu_put_table(b, &pl.y);
	s->x_tab = resample_cu_put_table(b, &pl.x);
	s->inter_rows = pl.vert_first ? job->out_h : pl.y.hi - pl.y.lo;
	s->inter_row = (int64_t)(pl.vert_first ? pl.x.hi - pl.x.lo : job->out_w) * job->channels;
	s->tmp = b->ntmp;
	b->ntmp += planes * s->inter_rows * s->inter_row;
	b->orders[pl.vert_first]++;
	return 0;
}

dalic_cu_resize_params_t dalic_img_resample_cu_params(const img_resample_cu_batch_t *b, int pass)
{
	dalic_cu_resize_params_t p;
	memset(&p, 0, sizeof p);
	p.samples = b->samples;
	p.nsamples = b->n;
	p.pass = pass;
	p.idx = b->idx;
	p.w = b->w;
	p.ntab = b->ntab;
	p.ntmp = b->ntmp;
	return p;
}

void dalic_img_resample_cu_free(img_resample_cu_batch_t *b)
{
	free(b->samples);
	free(b->idx);
	free(b->w);
	dalic_img_resample_ws_free(&b->ws);
	memset(b, 0, sizeof *b);
}
