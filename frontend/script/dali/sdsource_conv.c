/*
 * What a script's external source gives, as batches (see sdsource.h): numpy arrays — a
 * batch as one array whose first axis is the samples or as a list of arrays, a sample as one
 * array — packed into malloc'd memory before the poll's Python values are collected; and
 * DALI's types.SampleInfo / types.BatchInfo, the arguments of callable sources.
 */
#include "frontend/script/dali/sdsource.h"

#include "engine/error.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pybuf.h"
#include "frontend/script/py/pymod.h"
#include "frontend/script/py/pynp.h"

#include <stdlib.h>
#include <string.h>

/* ---- packing -------------------------------------------------------------------------- */

static int sdsource_grow(sdsrc_batch_t *b, size_t bytes)
{
	if (bytes <= b->cap)
		return DALIC_OK;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < bytes)
		cap *= 2;
	unsigned char *d = realloc(b->data, cap);
	if (!d)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	b->data = d;
	b->cap = cap;
	return DALIC_OK;
}

static int sdsource_start(sdsrc_batch_t *b, dalic_dtype_t t, int ndim, int n)
{
	int64_t *sh = realloc(b->shapes, sizeof *sh * ((size_t)n * (size_t)ndim + 1));
	if (!sh)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	b->shapes = sh;
	b->dtype = t;
	b->ndim = ndim;
	b->n = n;
	b->bytes = 0;
	return DALIC_OK;
}

/* Appends sample s (shape: ndim values) of the batch. */
static int sdsource_append(sdsrc_batch_t *b, int s, const int64_t *shape, const unsigned char *data,
                           size_t bytes)
{
	DALIC_TRY(sdsource_grow(b, b->bytes + bytes));
	if (b->ndim)
		memcpy(&b->shapes[(size_t)s * b->ndim], shape, sizeof *shape * (size_t)b->ndim);
	if (bytes)
		memcpy(b->data + b->bytes, data, bytes);
	b->bytes += bytes;
	return DALIC_OK;
}

static int sdsource_not_array(pyinterp_t *I, const sdsource_t *src, pyval_t *v, const char *as)
{
	return dalic_pyeval_error(I, &src->at, DALIC_EINVAL,
	                          "TypeError: %s: the source gave %s '%s'; dalic takes numpy "
	                          "arrays (%s)",
	                          src->what, as, dalic_pyval_type_name(v),
	                          src->batch
	                              ? "a batch: one array whose first axis is the samples, "
	                                "or a list of arrays"
	                              : "one array per sample, batch=False");
}

static int sdsource_mismatch(pyinterp_t *I, const sdsource_t *src, const sdsrc_batch_t *b,
                             const pynp_array_t *a, int s)
{
	return dalic_pyeval_error(I, &src->at, DALIC_EINVAL,
	                          "TypeError: %s: sample %d is %s with %d dimensions, the batch's "
	                          "first sample %s with %d: all samples of a batch must have the "
	                          "same type and number of dimensions",
	                          src->what, s, dalic_dtype_name(a->dtype), a->ndim,
	                          dalic_dtype_name(b->dtype), b->ndim);
}

static int sdsource_too_many(pyinterp_t *I, const sdsource_t *src, int n)
{
	return dalic_pyeval_error(I, &src->at, DALIC_EINVAL,
	                          "RuntimeError: %s: the source gave a batch of %d samples, more "
	                          "than the pipeline's max_batch_size %d",
	                          src->what, n, src->batch_size);
}

int dalic_sdsource_put_sample(pyinterp_t *I, const sdsource_t *src, pyval_t *v, int s, int n,
                              sdsrc_batch_t *b)
{
	const pynp_array_t *a = dalic_pynp_array(v);
	if (!a)
		return sdsource_not_array(I, src, v, "a sample of type");
	if (s == 0)
		DALIC_TRY(sdsource_start(b, a->dtype, a->ndim, n));
	else if (a->dtype != b->dtype || a->ndim != b->ndim)
		return sdsource_mismatch(I, src, b, a, s);
	return sdsource_append(b, s, a->shape, a->data,
	                       (size_t)a->size * dalic_dtype_size(a->dtype));
}

int dalic_sdsource_put_batch(pyinterp_t *I, const sdsource_t *src, pyval_t *v, sdsrc_batch_t *b)
{
	const pynp_array_t *a = dalic_pynp_array(v);
	if (a) {
		if (a->ndim < 1 || a->scalar)
			return sdsource_not_array(I, src, v, "a 0-d array of type");
		if (a->shape[0] > src->batch_size)
			return sdsource_too_many(I, src, (int)a->shape[0]);
		int n = (int)a->shape[0];
		DALIC_TRY(sdsource_start(b, a->dtype, a->ndim - 1, n));
		size_t bytes = dalic_dtype_size(a->dtype);
		for (int d = 1; d < a->ndim; d++)
			bytes *= (size_t)a->shape[d];
		for (int s = 0; s < n; s++)
			DALIC_TRY(sdsource_append(b, s, a->shape + 1, a->data + (size_t)s * bytes,
			                          bytes));
		return DALIC_OK;
	}
	if (v->kind != PV_LIST && v->kind != PV_TUPLE)
		return sdsource_not_array(I, src, v, "a batch of type");
	int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
	pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
	if (n > src->batch_size)
		return sdsource_too_many(I, src, n);
	if (n == 0)
		return dalic_pyeval_error(I, &src->at, DALIC_EINVAL,
		                          "RuntimeError: %s: the source gave an empty batch",
		                          src->what);
	for (int s = 0; s < n; s++)
		DALIC_TRY(dalic_sdsource_put_sample(I, src, items[s], s, n, b));
	return DALIC_OK;
}

/* ---- SampleInfo / BatchInfo ------------------------------------------------------------ */

typedef struct sdsrc_info {
	bool sample;
	int64_t v[4]; /* idx_in_epoch, idx_in_batch, iteration, epoch_idx / iteration, epoch_idx */
} sdsrc_info_t;

static const char *const sdsource_sample_fields[] = {"idx_in_epoch", "idx_in_batch", "iteration",
                                                     "epoch_idx"};
static const char *const sdsource_batch_fields[] = {"iteration", "epoch_idx"};

static const char *sdsource_info_type_name(const pyval_t *v)
{
	return ((const sdsrc_info_t *)v->host.data)->sample ? "SampleInfo" : "BatchInfo";
}

static void sdsource_info_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	/* as DALI's classes, which define no __repr__ */
	(void)repr;
	dalic_pybuf_printf(b, "<nvidia.dali.types.%s object at %p>", sdsource_info_type_name(v),
	                   v->host.data);
}

static int sdsource_info_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                                 pyval_t **out)
{
	const sdsrc_info_t *x = v->host.data;
	const char *const *f = x->sample ? sdsource_sample_fields : sdsource_batch_fields;
	*out = NULL;
	for (int i = 0; i < (x->sample ? 4 : 2); i++)
		if (!strcmp(name, f[i]))
			PYEVAL_RET(dalic_pyval_int(I->a, x->v[i]));
	return DALIC_OK;
}

static const pytype_t sdsource_info_type = {
    .name = "SampleInfo",
    .type_name = sdsource_info_type_name,
    .format = sdsource_info_format,
    .getattr = sdsource_info_getattr,
};

static pyval_t *sdsource_info(pyinterp_t *I, bool sample, const int64_t *v)
{
	sdsrc_info_t *x = dalic_pyarena_alloc(I->a, sizeof *x);
	if (!x)
		return NULL;
	x->sample = sample;
	memcpy(x->v, v, sizeof x->v);
	return dalic_pyval_host(I->a, &sdsource_info_type, x);
}

pyval_t *dalic_sdsource_sample_info(pyinterp_t *I, int64_t idx_in_epoch, int64_t idx_in_batch,
                                    int64_t iteration, int64_t epoch_idx)
{
	return sdsource_info(I, true,
	                     (int64_t[4]){idx_in_epoch, idx_in_batch, iteration, epoch_idx});
}

pyval_t *dalic_sdsource_batch_info(pyinterp_t *I, int64_t iteration, int64_t epoch_idx)
{
	return sdsource_info(I, false, (int64_t[4]){iteration, epoch_idx, 0, 0});
}

/* types.SampleInfo(idx_in_epoch, idx_in_batch, iteration, epoch_idx) / BatchInfo(...). */
static int sdsource_info_new(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out, bool sample)
{
	const char *const *f = sample ? sdsource_sample_fields : sdsource_batch_fields;
	int n = sample ? 4 : 2;
	int64_t v[4] = {0};
	bool set[4] = {0};
	if (args->npos > n)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: %s.__init__() takes %d positional arguments but "
		    "%d were given",
		    sample ? "SampleInfo" : "BatchInfo", n + 1, args->npos + 1);
	for (int i = 0; i < args->npos + args->nkw; i++) {
		int k = i;
		if (i >= args->npos)
			for (k = 0; k < n && strcmp(f[k], args->kwnames[i - args->npos]); k++)
				;
		if (k == n)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s.__init__() got an unexpected keyword "
			    "argument '%s'",
			    sample ? "SampleInfo" : "BatchInfo", args->kwnames[i - args->npos]);
		pyval_t *x = i < args->npos ? args->pos[i] : args->kwvals[i - args->npos];
		if (x->kind != PV_INT)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: %s must be an int", f[k]);
		v[k] = x->i;
		set[k] = true;
	}
	for (int k = 0; k < n; k++)
		if (!set[k])
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s.__init__() missing required argument "
			    "'%s'",
			    sample ? "SampleInfo" : "BatchInfo", f[k]);
	PYEVAL_RET(sdsource_info(I, sample, v));
}

static int sdsource_sample_info_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	return sdsource_info_new(I, at, self, args, out, true);
}

static int sdsource_batch_info_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	return sdsource_info_new(I, at, self, args, out, false);
}

int dalic_sdsource_types(pyinterp_t *I, pyval_t *types)
{
	if (dalic_pymod_set(
	        I, types, "SampleInfo",
	        dalic_pybi_make(I, "SampleInfo", sdsource_sample_info_fn, NULL, NULL)) ||
	    dalic_pymod_set(I, types, "BatchInfo",
	                    dalic_pybi_make(I, "BatchInfo", sdsource_batch_info_fn, NULL, NULL)))
		return DALIC_ENOMEM;
	return DALIC_OK;
}
