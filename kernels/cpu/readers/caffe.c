/*
 * readers.caffe (DALI's readers__Caffe / CaffeReader): caffe.Datum records of Caffe LMDB
 * databases (lmdb_reader.h), read from the wire bytes in place (pb_wire.h). The image
 * samples are not copied: they borrow the value's bytes in the database's map, which stay
 * valid (read-only) while the reader lives. Outputs, as image_available and
 * label_available ask: the image (uint8: the encoded bytes, 1-D; or, for `encoded: false`,
 * the raw values as [height, width, channels], the shape DALI gives them) and the label
 * (int32, [1]). A record without the data or label asked for, or with raw data whose size is
 * not height * width * channels, is an error naming the database and key (DALI would leave
 * the output unwritten or copy past it).
 */
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/lmdb_reader.h"
#include "kernels/common/pb_wire.h"

#include <stddef.h>
#include <stdlib.h>

/* The Datum fields read (caffe.proto's numbers); data points into the database's map. */
typedef struct caffe_datum {
	bool ok;                       /* the bytes are a Datum */
	bool has_data, has_label, raw; /* raw: `encoded` is present and false */
	int32_t channels, height, width, label;
	const uint8_t *data;
	size_t len;
} caffe_datum_t;

typedef struct caffe_reader {
	dalic_lmdb_reader_t lr;
	bool image, label;
	caffe_datum_t *datums; /* per sample slot */
} caffe_reader_t;
_Static_assert(offsetof(caffe_reader_t, lr) == 0, "the state starts with the reader core");

static bool caffe_def_flag(const dalic_opdef_t *def, const char *name)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, name);
	if (!v || v->n < 1)
		return true; /* both default to True */
	return v->kind == DALIC_V_BOOL ? v->b[0] : v->kind == DALIC_V_INT ? v->i[0] != 0 : true;
}

static int caffe_outputs_for(const dalic_opdef_t *def)
{
	int n = caffe_def_flag(def, "image_available") + caffe_def_flag(def, "label_available");
	return n ? n : 1;
}

/* A Datum from its wire bytes, as protobuf's C++ parser (DALI's) reads it: a later field
 * wins; unknown fields and known fields of another wire type are skipped. d->ok is false
 * when the bytes are not a Datum. */
static void caffe_datum_parse(const uint8_t *p, size_t n, caffe_datum_t *d)
{
	pbw_cur_t c = {p, p + n, p};
	pbw_field_t f;
	bool has_encoded = false, encoded = false;
	*d = (caffe_datum_t){0};
	while (c.p < c.end) {
		if (!dalic_pbw_next(&c, &f))
			return;
		if (f.num == 4) {
			if (f.wt != PBW_LEN)
				continue;
			d->has_data = true;
			d->data = f.data;
			d->len = f.len;
		} else if (f.num == 6) { /* float_data: not read, but checked */
			if ((f.wt == PBW_I32 || f.wt == PBW_LEN) && dalic_pbw_count_fixed32(&f) < 0)
				return;
		} else if (f.num <= 7) {
			if (f.wt != PBW_VARINT)
				continue;
			int32_t v = (int32_t)(uint32_t)f.v;
			if (f.num == 1)
				d->channels = v;
			else if (f.num == 2)
				d->height = v;
			else if (f.num == 3)
				d->width = v;
			else if (f.num == 5)
				d->label = v, d->has_label = true;
			else
				encoded = f.v != 0, has_encoded = true;
		}
	}
	d->raw = has_encoded && !encoded;
	d->ok = true;
}

static void caffe_fini(dalic_op_ctx_t *ctx)
{
	caffe_reader_t *r = ctx->state;
	free(r->datums);
	dalic_lmdb_reader_fini(&r->lr);
}

static int caffe_init_state(dalic_op_ctx_t *ctx)
{
	caffe_reader_t *r = ctx->state;
	r->image = dalic_arg_bool(ctx, "image_available");
	r->label = dalic_arg_bool(ctx, "label_available");
	if (!r->image && !r->label)
		return dalic_op_fail(ctx, NULL, -1,
		                     "image_available and label_available are both False: the "
		                     "reader has nothing to output");
	r->datums = calloc((size_t)ctx->max_batch_size, sizeof *r->datums);
	if (!r->datums)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return dalic_lmdb_reader_init(&r->lr, ctx);
}

static int caffe_init(dalic_op_ctx_t *ctx)
{
	int rc = caffe_init_state(ctx);
	if (rc)
		caffe_fini(ctx);
	return rc;
}

static int caffe_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	caffe_reader_t *r = ctx->state;
	int n = ws->batch_size, nout = r->image + r->label;
	dalic_batch_t *img = r->image ? ws->outputs[0] : NULL;
	dalic_batch_t *lab = r->label ? ws->outputs[r->image] : NULL;
	DALIC_TRY(dalic_lmdb_reader_prepare(&r->lr, ctx));
	/* raw images have 3 dims; the first record decides (all must agree) */
	DALIC_TRY(dalic_lmdb_reader_next(&r->lr, ctx, ws, 0));
	for (int i = 0; i < n; i++)
		caffe_datum_parse(r->lr.recs[i].value, r->lr.recs[i].len, &r->datums[i]);
	int ndim = r->datums[0].ok && r->datums[0].raw ? 3 : 1;
	if (img) {
		DALIC_TRY(dalic_batch_set_meta(img, n, DALIC_UINT8, ndim));
		dalic_batch_set_layout(img, "");
	}
	if (lab) {
		DALIC_TRY(dalic_batch_set_meta(lab, n, DALIC_INT32, 1));
		dalic_batch_set_layout(lab, "");
	}
	for (int i = 0; i < n; i++) {
		int32_t e = r->lr.core.selected[i];
		for (int k = 0; k < nout; k++)
			ws->outputs[k]->sources[i] = r->lr.core.sources[e];
		const caffe_datum_t *d = &r->datums[i];
		if (!d->ok)
			return dalic_op_fail(ctx, ws, i,
			                     "Error while parsing Caffe file: %s (raw data length: %zu "
			                     "bytes).",
			                     r->lr.core.sources[e], r->lr.recs[i].len);
		if (img && !d->has_data)
			return dalic_op_fail(ctx, ws, i, "the Datum has no data (image)");
		if (lab && !d->has_label)
			return dalic_op_fail(ctx, ws, i, "the Datum has no label");
		if (!img)
			continue;
		if ((d->raw ? 3 : 1) != ndim)
			return dalic_op_fail(ctx, ws, i,
			                     "encoded and raw (encoded: false) images in one batch");
		int64_t *dims = dalic_batch_shape_mut(img, i);
		img->ptrs[i] = (void *)d->data; /* borrowed: the output is never written */
		img->borrowed[i] = true;
		if (!d->raw) {
			dims[0] = (int64_t)d->len;
			continue;
		}
		dims[0] = d->height;
		dims[1] = d->width;
		dims[2] = d->channels;
		if (d->height < 0 || d->width < 0 || d->channels < 0 ||
		    (int64_t)d->height * d->width * d->channels != (int64_t)d->len)
			return dalic_op_fail(ctx, ws, i,
			                     "raw image of %d x %d x %d values holds %zu bytes", d->height,
			                     d->width, d->channels, d->len);
	}
	for (int i = 0; lab && i < n; i++)
		dalic_batch_shape_mut(lab, i)[0] = 1;
	return DALIC_OK;
}

static int caffe_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	caffe_reader_t *r = ctx->state;
	if (r->label)
		*(int32_t *)ws->outputs[r->image]->ptrs[i] = r->datums[i].label;
	(void)thread;
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"path", DALIC_ARG_STRING_LIST, NULL, "Caffe LMDB database directories."},
	{"image_available", DALIC_ARG_BOOL, "True", "Output the image."},
	{"label_available", DALIC_ARG_BOOL, "True", "Output the label."},
	DALIC_READER_COMMON_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(caffe_reader_t),
	.init = caffe_init,
	.setup = caffe_setup,
	.run_sample = caffe_run_sample,
	.fini = caffe_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__Caffe) = {
	.name = "readers__Caffe",
	.fn = "readers.caffe",
	.aliases = {"CaffeReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads (image, label) pairs from Caffe LMDB databases of Datum records.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 2,
	.outputs_for = caffe_outputs_for,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
