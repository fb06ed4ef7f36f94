/*
 * TensorListCPU / TensorCPU for prints rendered by debug mode (see sdtensor.h): len(), [i],
 * iteration, as_array(), at(i), shape(), layout(), dtype; numpy's __array__.
 */
#include "frontend/script/dali/sdtensor.h"

#include "engine/dtype.h"
#include "frontend/script/py/pynp.h"

#include <stdlib.h>
#include <string.h>

int dalic_sdtensor_get(pyinterp_t *I, const pynode_t *at, const char *node, pyval_t **out)
{
	const dalic_print_env_t *env = dalic_sdali_state(I)->replay;
	const dalic_batch_t *b = env->batch(env->ctx, node);
	if (!b)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "RuntimeError: DataNode \"%s\" has no data in this "
		                          "iteration",
		                          node);
	sdtlist_t *tl = dalic_pyarena_alloc(I->a, sizeof *tl);
	if (!tl)
		return dalic_pyeval_oom(I, at);
	tl->node = node;
	tl->b = b;
	tl->env = env;
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_sdtensor_list_type, tl));
}

/* Sample i of b as a new numpy array. */
static int sdtensor_sample_array(pyinterp_t *I, const pynode_t *at, const dalic_batch_t *b, int i,
                                 pyval_t **out)
{
	dalic_dtype_t t = dalic_batch_dtype(b);
	if (!dalic_dtype_is_numeric(t))
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: samples of type %s have no numpy form",
		                          dalic_dtype_name(t));
	DALIC_TRY(dalic_pynp_new(I, at, t, dalic_batch_ndim(b), dalic_batch_shape(b, i), out));
	pynp_array_t *a = dalic_pynp_array(*out);
	size_t n = dalic_batch_sample_bytes(b, i);
	if (n)
		memcpy(a->data, dalic_batch_data(b, i), n);
	return dalic_pynp_refresh(I, a);
}

static pyval_t *sdtensor_shape_list(pyinterp_t *I, const dalic_batch_t *b, int i)
{
	pyval_t *l = dalic_pyval_list(I->a, dalic_batch_ndim(b) + 1);
	for (int d = 0; l && d < dalic_batch_ndim(b); d++)
		if (dalic_pyval_list_append(I->a, l, dalic_pyval_int(I->a, dalic_batch_shape(b, i)[d])))
			return NULL;
	return l;
}

/* ---- TensorCPU ------------------------------------------------------------------------ */

static sdtensor_t *sdtensor_of(const pyval_t *v)
{
	return v->host.data;
}

static int sdtensor_array(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	sdtensor_t *t = sdtensor_of(v);
	return sdtensor_sample_array(I, at, t->tl->b, t->index, out);
}

static int sdtensor_m_as_array(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	return sdtensor_array(I, at, self, out);
}

static int sdtensor_m_shape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	sdtensor_t *t = sdtensor_of(self);
	PYEVAL_RET(sdtensor_shape_list(I, t->tl->b, t->index));
}

static int sdtensor_m_layout(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                             const pyargs_t *args, pyval_t **out)
{
	const dalic_batch_t *b = dalic_sdtensor_list(self) ? dalic_sdtensor_list(self)->b
	                                                   : sdtensor_of(self)->tl->b;
	PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_batch_layout(b)));
}

static pyval_t *sdtensor_dtype_value(pyinterp_t *I, const dalic_batch_t *b)
{
	return dalic_sdval_new_enum(I->a, SDVAL_ENUM_DTYPE, dalic_batch_dtype(b));
}

/* .dtype, or a bound method of the table (*out stays NULL for other names). */
static int sdtensor_attr(pyinterp_t *I, const pynode_t *at, const pyreg_t *methods,
                         const dalic_batch_t *b, pyval_t *v, const char *name, pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "dtype"))
		PYEVAL_RET(sdtensor_dtype_value(I, b));
	for (const pyreg_t *m = methods; m->name; m++)
		if (!strcmp(m->name, name))
			PYEVAL_RET(dalic_pybi_make(I, m->name, m->fn, v, NULL));
	return DALIC_OK;
}

static int sdtensor_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                            pyval_t **out)
{
	static const pyreg_t methods[] = {{"as_array", sdtensor_m_as_array},
	                                  {"shape", sdtensor_m_shape},
	                                  {"layout", sdtensor_m_layout},
	                                  {NULL, NULL}};
	return sdtensor_attr(I, at, methods, sdtensor_of(v)->tl->b, v, name, out);
}

static void sdtensor_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	sdtensor_t *t = sdtensor_of(v);
	char *text = t->tl->env->format_sample(t->tl->env->ctx, t->tl->b, t->index);
	dalic_pybuf_puts(b, text ? text : "TensorCPU(?)");
	free(text);
}

const pytype_t dalic_sdtensor_type = {
    .name = "TensorCPU",
    .format = sdtensor_format,
    .getattr = sdtensor_getattr,
    .array = sdtensor_array,
};

/* ---- TensorListCPU -------------------------------------------------------------------- */

static int sdtlist_item(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t i, pyval_t **out)
{
	sdtlist_t *tl = dalic_sdtensor_list(v);
	int n = dalic_batch_num_samples(tl->b);
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "IndexError: index out of range (the batch has %d samples)",
		                          n);
	sdtensor_t *t = dalic_pyarena_alloc(I->a, sizeof *t);
	if (!t)
		return dalic_pyeval_oom(I, at);
	t->tl = tl;
	t->index = (int)i;
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_sdtensor_type, t));
}

static int sdtlist_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *idx,
                           pyval_t **out)
{
	int64_t i;
	if (!dalic_pyval_as_int(idx, &i))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: TensorList indices must be integers");
	return sdtlist_item(I, at, v, i, out);
}

static int sdtlist_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out)
{
	*out = dalic_batch_num_samples(dalic_sdtensor_list(v)->b);
	return DALIC_OK;
}

static int sdtlist_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n)
{
	*n = dalic_batch_num_samples(dalic_sdtensor_list(v)->b);
	*items = dalic_pyarena_alloc(I->a, sizeof **items * (size_t)(*n + 1));
	if (!*items)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < *n; i++)
		DALIC_TRY(sdtlist_item(I, at, v, i, &(*items)[i]));
	return DALIC_OK;
}

/* as_array(): the samples stacked (uniform shapes only, as DALI) */
static int sdtlist_array(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	const dalic_batch_t *b = dalic_sdtensor_list(v)->b;
	int n = dalic_batch_num_samples(b), nd = dalic_batch_ndim(b);
	if (nd + 1 > DALIC_MAX_NDIM)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: too many dimensions");
	int64_t shape[DALIC_MAX_NDIM];
	shape[0] = n;
	for (int d = 0; d < nd; d++)
		shape[d + 1] = n ? dalic_batch_shape(b, 0)[d] : 0;
	for (int i = 1; i < n; i++)
		if (memcmp(dalic_batch_shape(b, i), dalic_batch_shape(b, 0), sizeof(int64_t) * nd))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "RuntimeError: Tensors in the list must have the same "
			                          "shape");
	if (!dalic_dtype_is_numeric(dalic_batch_dtype(b)))
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "TypeError: samples of type %s have no numpy form",
		                          dalic_dtype_name(dalic_batch_dtype(b)));
	DALIC_TRY(dalic_pynp_new(I, at, dalic_batch_dtype(b), nd + 1, shape, out));
	pynp_array_t *a = dalic_pynp_array(*out);
	size_t off = 0;
	for (int i = 0; i < n; i++) {
		size_t k = dalic_batch_sample_bytes(b, i);
		if (k)
			memcpy(a->data + off, dalic_batch_data(b, i), k);
		off += k;
	}
	return dalic_pynp_refresh(I, a);
}

static int sdtlist_m_as_array(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return sdtlist_array(I, at, self, out);
}

static int sdtlist_m_at(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	int64_t i;
	if (args->npos != 1 || !dalic_pyval_as_int(args->pos[0], &i))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: at() takes an index");
	pyval_t *t;
	DALIC_TRY(sdtlist_item(I, at, self, i, &t));
	return sdtensor_array(I, at, t, out);
}

static int sdtlist_m_shape(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                           const pyargs_t *args, pyval_t **out)
{
	const dalic_batch_t *b = dalic_sdtensor_list(self)->b;
	pyval_t *l = dalic_pyval_list(I->a, dalic_batch_num_samples(b) + 1);
	for (int i = 0; l && i < dalic_batch_num_samples(b); i++) {
		pyval_t *s = sdtensor_shape_list(I, b, i), *t;
		if (!s || !(t = dalic_pybi_tuple(I, s->list->items, s->list->n)) ||
		    dalic_pyval_list_append(I->a, l, t))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

static int sdtlist_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                           pyval_t **out)
{
	static const pyreg_t methods[] = {{"as_array", sdtlist_m_as_array},
	                                  {"at", sdtlist_m_at},
	                                  {"shape", sdtlist_m_shape},
	                                  {"layout", sdtensor_m_layout},
	                                  {NULL, NULL}};
	return sdtensor_attr(I, at, methods, dalic_sdtensor_list(v)->b, v, name, out);
}

/* as debug mode prints a batch (DALI's TensorListCPU repr) */
static void sdtlist_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	sdtlist_t *tl = dalic_sdtensor_list(v);
	char *text = tl->env->format(tl->env->ctx, tl->b, NULL);
	dalic_pybuf_puts(b, text ? text : "TensorListCPU(?)");
	free(text);
}

const pytype_t dalic_sdtensor_list_type = {
    .name = "TensorListCPU",
    .format = sdtlist_format,
    .getattr = sdtlist_getattr,
    .getitem = sdtlist_getitem,
    .items = sdtlist_items,
    .len = sdtlist_len,
    .array = sdtlist_array,
};
