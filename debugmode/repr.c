/*
 * Printing batches and samples as DALI's debug mode shows them:
 *  - a sample (optionally sliced with numpy syntax) as print(np.array(batch[i])) would;
 *  - a batch as DALI's TensorList repr (nvidia/dali/tensors.py, _tensorlist_to_string): one
 *    stacked array when all samples share a shape, else the samples one after another (only
 *    the first and last two when there are more than five and over 1000 elements), then
 *    dtype, layout, num_samples and the shapes;
 *  - a data node as DataNodeDebug(name=..., data=<TensorList repr>), what print(node) shows.
 */
#include "debugmode/format.h"
#include "debugmode/session.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- slices ---- */

typedef struct dim_slice {
	bool index; /* a single index: the dimension goes away */
	int64_t start, step, count;
} dim_slice_t;

static int repr_slice_error(const char *slice, const char *what)
{
	return dalic_fail(DALIC_EINVAL, "slice [%s]: %s", slice, what);
}

/* Parses an optional integer; *given says whether one was there. */
static bool repr_parse_int(const char **p, int64_t *out, bool *given)
{
	while (isspace((unsigned char)**p))
		(*p)++;
	char *end;
	long long v = strtoll(*p, &end, 10);
	*given = end != *p;
	if (*given)
		*out = v;
	*p = end;
	while (isspace((unsigned char)**p))
		(*p)++;
	return true;
}

/* Python's slice.indices: clamps start/stop for the step's direction and counts items. */
static void repr_adjust(int64_t len, bool has_start, int64_t start, bool has_stop, int64_t stop,
                   int64_t step, dim_slice_t *out)
{
	if (!has_start)
		start = step < 0 ? len - 1 : 0;
	else if (start < 0 && (start += len) < 0)
		start = step < 0 ? -1 : 0;
	else if (start >= len)
		start = step < 0 ? len - 1 : len;
	if (!has_stop)
		stop = step < 0 ? -1 : len;
	else if (stop < 0 && (stop += len) < 0)
		stop = step < 0 ? -1 : 0;
	else if (stop >= len)
		stop = step < 0 ? len - 1 : len;
	int64_t count = 0;
	if (step < 0 && stop < start)
		count = (start - stop - 1) / (-step) + 1;
	else if (step > 0 && start < stop)
		count = (stop - start - 1) / step + 1;
	*out = (dim_slice_t){.start = start, .step = step, .count = count};
}

static int repr_parse_slice(const char *text, int ndim, const int64_t *shape, dim_slice_t *dims)
{
	const char *p = text;
	int d = 0;
	for (; d < ndim; d++)
		repr_adjust(shape[d], false, 0, false, 0, 1, &dims[d]);
	d = 0;
	while (*p) {
		if (d >= ndim)
			return repr_slice_error(text, "too many indices for the sample's dimensions");
		int64_t a = 0, b = 0, c = 1;
		bool ha, hb, hc = false;
		repr_parse_int(&p, &a, &ha);
		if (*p != ':') {
			if (!ha)
				return repr_slice_error(text, "expected an index or a range a:b:c");
			if (a < 0)
				a += shape[d];
			if (a < 0 || a >= shape[d])
				return dalic_fail(
				    DALIC_EINVAL,
				    "index %lld is out of bounds for axis %d with size "
				    "%lld",
				    (long long)a, d, (long long)shape[d]);
			dims[d] = (dim_slice_t){.index = true, .start = a, .step = 1, .count = 1};
		} else {
			p++;
			repr_parse_int(&p, &b, &hb);
			if (*p == ':') {
				p++;
				repr_parse_int(&p, &c, &hc);
				if (hc && c == 0)
					return repr_slice_error(text, "slice step cannot be zero");
			}
			repr_adjust(shape[d], ha, a, hb, b, hc ? c : 1, &dims[d]);
		}
		d++;
		if (*p == ',')
			p++;
		else if (*p)
			return repr_slice_error(text, "unexpected character");
	}
	return DALIC_OK;
}

/* Copies the selected elements of sample i, row-major, into a new buffer. */
static int repr_gather(const dalic_batch_t *b, int i, const dim_slice_t *dims, dalic_debug_np_view_t *v,
                  void **buf)
{
	int ndim = b->ndim;
	const int64_t *shape = dalic_batch_shape(b, i);
	int64_t stride[DALIC_MAX_NDIM + 1], total = 1, s = 1;
	for (int d = ndim - 1; d >= 0; d--) {
		stride[d] = s;
		s *= shape[d];
	}
	v->ndim = 0;
	for (int d = 0; d < ndim; d++) {
		total *= dims[d].count;
		if (!dims[d].index)
			v->shape[v->ndim++] = dims[d].count;
	}
	size_t elem = dalic_dtype_size(b->dtype);
	*buf = malloc((size_t)total * elem + 1);
	if (!*buf)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	const char *src = b->ptrs[i];
	int64_t idx[DALIC_MAX_NDIM] = {0};
	for (int64_t k = 0; k < total; k++) {
		int64_t off = 0;
		for (int d = 0; d < ndim; d++)
			off += (dims[d].start + idx[d] * dims[d].step) * stride[d];
		memcpy((char *)*buf + (size_t)k * elem, src + (size_t)off * elem, elem);
		for (int d = ndim - 1; d >= 0; d--) {
			if (++idx[d] < dims[d].count)
				break;
			idx[d] = 0;
		}
	}
	v->dtype = b->dtype;
	v->num_parts = 1;
	v->part_elems = total;
	return DALIC_OK;
}

int dalic_debug_format_sample(const dalic_batch_t *b, int sample, const char *slice, char **out)
{
	*out = NULL;
	if (sample < 0 || sample >= b->num_samples)
		return dalic_fail(DALIC_EINVAL, "sample %d out of range (batch of %d)", sample,
		                  b->num_samples);
	if (!dalic_dtype_is_numeric(b->dtype))
		return dalic_fail(DALIC_EUNSUPPORTED, "cannot print %s data",
		                  dalic_dtype_name(b->dtype));
	dim_slice_t dims[DALIC_MAX_NDIM];
	int rc = repr_parse_slice(slice ? slice : "", b->ndim, dalic_batch_shape(b, sample), dims);
	dalic_debug_np_view_t v = {0};
	void *buf = NULL;
	if (!rc)
		rc = repr_gather(b, sample, dims, &v, &buf);
	const void *parts[1] = {buf};
	v.parts = parts;
	dalic_debug_sb_t s = {0};
	if (!rc)
		rc = dalic_debug_array2string(&s, &v, 0, DALIC_NP_EDGEITEMS);
	free(buf);
	if (!rc && !(*out = dalic_debug_sb_take(&s)))
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	free(s.s);
	return rc;
}

/* ---- batches ---- */

static void repr_shape_tuple(dalic_debug_sb_t *s, const dalic_batch_t *b, int i)
{
	const int64_t *sh = dalic_batch_shape(b, i);
	dalic_debug_sb_add(s, "(");
	for (int d = 0; d < b->ndim; d++)
		dalic_debug_sb_printf(s, "%s%lld", d ? ", " : "", (long long)sh[d]);
	dalic_debug_sb_add(s, b->ndim == 1 ? ",)" : ")");
}

/* Python's _join_string: items joined by sep, the middle replaced by "..." when cropped. */
static void repr_join_shapes(dalic_debug_sb_t *s, const dalic_batch_t *b, bool crop, const char *sep)
{
	int n = b->num_samples;
	for (int i = 0; i < n; i++) {
		if (crop && i == 2) {
			dalic_debug_sb_add(s, "...");
			dalic_debug_sb_add(s, sep);
			i = n - 2;
		}
		repr_shape_tuple(s, b, i);
		if (i + 1 < n)
			dalic_debug_sb_add(s, sep);
	}
}

static int repr_sample_view(const dalic_batch_t *b, int i, dalic_debug_np_view_t *v)
{
	v->dtype = b->dtype;
	v->ndim = b->ndim;
	memcpy(v->shape, dalic_batch_shape(b, i), sizeof(int64_t) * (size_t)b->ndim);
	v->parts = (const void *const *)&b->ptrs[i];
	v->num_parts = 1;
	v->part_elems = dalic_batch_sample_elems(b, i);
	return DALIC_OK;
}

static int repr_data_string(dalic_debug_sb_t *s, const dalic_batch_t *b, int indent)
{
	int n = b->num_samples;
	if (n == 0) {
		dalic_debug_sb_add(s, "[]");
		return DALIC_OK;
	}
	if (dalic_batch_uniform_shape(b)) {
		dalic_debug_np_view_t v = {.dtype = b->dtype, .ndim = b->ndim + 1};
		v.shape[0] = n;
		memcpy(v.shape + 1, dalic_batch_shape(b, 0), sizeof(int64_t) * (size_t)b->ndim);
		v.parts = (const void *const *)b->ptrs;
		v.num_parts = n;
		v.part_elems = dalic_batch_sample_elems(b, 0);
		return dalic_debug_array2string(s, &v, indent, 2);
	}
	int64_t total = 0;
	for (int i = 0; i < n; i++) {
		int64_t e = dalic_batch_sample_elems(b, i);
		total += e > 1 ? e : 1;
	}
	bool crop = n > 5 && total > 1000;
	dalic_debug_sb_add(s, "[");
	for (int i = 0; i < n; i++) {
		if (crop && i == 2) {
			dalic_debug_sb_add(s, "...");
			for (int k = 0; k < b->ndim; k++)
				dalic_debug_sb_add(s, "\n");
			dalic_debug_sb_spaces(s, indent);
			i = n - 2;
		}
		dalic_debug_np_view_t v;
		repr_sample_view(b, i, &v);
		int rc = dalic_debug_array2string(s, &v, indent, 2);
		if (rc)
			return rc;
		if (i + 1 < n) {
			for (int k = 0; k < b->ndim; k++)
				dalic_debug_sb_add(s, "\n");
			dalic_debug_sb_spaces(s, indent);
		}
	}
	dalic_debug_sb_add(s, "]");
	return DALIC_OK;
}

/* _tensorlist_to_string(batch, indent): `indent` spaces before the nested lines. */
static int repr_tensorlist_string(dalic_debug_sb_t *s, const dalic_batch_t *b, int indent)
{
	int spaces = indent + 4;
	dalic_debug_sb_printf(s, "TensorList%s(\n", b->gpu ? "GPU" : "CPU");
	dalic_debug_sb_spaces(s, spaces);
	int rc = repr_data_string(s, b, spaces);
	if (rc)
		return rc;
	dalic_debug_sb_add(s, ",\n");
	dalic_debug_sb_spaces(s, spaces);
	dalic_debug_sb_printf(s, "dtype=DALIDataType.%s,\n", dalic_dtype_name(b->dtype));
	if (b->layout[0]) {
		dalic_debug_sb_spaces(s, spaces);
		dalic_debug_sb_printf(s, "layout=\"%s\",\n", b->layout);
	}
	dalic_debug_sb_spaces(s, spaces);
	dalic_debug_sb_printf(s, "num_samples=%d,\n", b->num_samples);
	dalic_debug_sb_spaces(s, spaces);
	int n = b->num_samples;
	bool crop = n > 16 || (n > 5 && n * b->ndim > 100);
	dalic_debug_sb_t shapes = {0};
	repr_join_shapes(&shapes, b, crop, ", ");
	dalic_debug_sb_add(s, "shape=[");
	if (shapes.n > 75) {
		dalic_debug_sb_t sep = {0};
		dalic_debug_sb_add(&sep, ", \n");
		dalic_debug_sb_spaces(&sep, spaces + 7); /* under the first shape, past "shape=[" */
		shapes.n = 0;
		repr_join_shapes(&shapes, b, crop, sep.s ? sep.s : ", ");
		free(sep.s);
	}
	dalic_debug_sb_addn(s, shapes.s ? shapes.s : "", shapes.n);
	free(shapes.s);
	dalic_debug_sb_add(s, "])");
	return DALIC_OK;
}

/* DALI's format_tensor: str(TensorCPU), sample i of b. */
int dalic_debug_format_tensor(const dalic_batch_t *b, int i, char **out)
{
	*out = NULL;
	dalic_debug_sb_t s = {0};
	dalic_debug_np_view_t v;
	repr_sample_view(b, i, &v);
	dalic_debug_sb_printf(&s, "Tensor%s(\n    ", b->gpu ? "GPU" : "CPU");
	int rc = dalic_debug_array2string(&s, &v, 4, 2);
	if (rc) {
		free(s.s);
		return rc;
	}
	dalic_debug_sb_printf(&s, ",\n    dtype=DALIDataType.%s,\n", dalic_dtype_name(b->dtype));
	if (b->layout[0])
		dalic_debug_sb_printf(&s, "    layout=\"%s\",\n", b->layout);
	dalic_debug_sb_printf(&s, "    device=\"%s\",\n    shape=", b->gpu ? "gpu" : "cpu");
	repr_shape_tuple(&s, b, i);
	dalic_debug_sb_add(&s, ")");
	*out = dalic_debug_sb_take(&s);
	return *out ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
}

int dalic_debug_format_batch(const dalic_batch_t *b, const char *node_name, char **out)
{
	*out = NULL;
	dalic_debug_sb_t s = {0};
	int rc;
	if (node_name) {
		dalic_debug_sb_printf(&s, "DataNodeDebug(\n    name=\"%s\",\n    data=", node_name);
		rc = repr_tensorlist_string(&s, b, 9);
		dalic_debug_sb_add(&s, ")");
	} else {
		rc = repr_tensorlist_string(&s, b, 0);
	}
	if (rc) {
		free(s.s);
		return rc;
	}
	*out = dalic_debug_sb_take(&s);
	return *out ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
}
