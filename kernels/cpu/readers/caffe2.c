/*
 * readers.caffe2 (DALI's readers__Caffe2 / Caffe2Reader): caffe2.TensorProtos records of
 * Caffe2 LMDB databases (lmdb_reader.h), read from the wire bytes in place (caffe2_pb.h) as
 * DALI's Caffe2Parser reads them; the image samples borrow the value's bytes in the
 * database's map (read-only, valid while the reader lives). Outputs, in order:
 *  - image (image_available): a STRING proto's first string (encoded bytes, 1-D uint8) or a
 *    BYTE proto's bytes as [dims0, dims1, dims2 or 1];
 *  - label (label_type != 4), from a FLOAT or INT32 proto: 0 single (one value, [1]),
 *    1 sparse (a [num_labels] vector with 1 at the listed indices), 2 dense (the values),
 *    3 weighted sparse (float [num_labels]: the next proto's weights at the indices);
 *  - additional_inputs protos (FLOAT, INT32 or INT64 values), starting one proto later for
 *    sparse labels as DALI does;
 *  - bbox: the record's last proto when it follows those, INT32 with 4 values;
 *  - for sparse and weighted sparse labels, one more output: DALI 2.4 declares two label
 *    outputs for them but fills one (and then fails on the other); dalic gives it empty,
 *    [0] of the label's type, last as the unfilled one is in DALI.
 * Every record of a batch must give each output the same type. Records DALI would read past
 * or leave outputs unwritten for are errors naming the database and key.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/caffe2_pb.h"
#include "kernels/common/lmdb_reader.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAFFE2_MAX_OUT 16

typedef dalic_c2pb_t caffe2_proto_t;

/* A record's protos (pointing into its bytes), per sample slot. */
typedef struct caffe2_rec {
	dalic_c2pb_t *protos;
	int64_t n, cap;
} caffe2_rec_t;

typedef struct caffe2_reader {
	dalic_lmdb_reader_t lr;
	bool image, bbox;
	int label_type, num_labels, additional;
	caffe2_rec_t *recs; /* per sample slot */
} caffe2_reader_t;
_Static_assert(offsetof(caffe2_reader_t, lr) == 0, "the state starts with the reader core");

enum { CAFFE2_SINGLE, CAFFE2_SPARSE, CAFFE2_DENSE, CAFFE2_WEIGHTED, CAFFE2_NO_LABEL };

static int64_t caffe2_def_int(const dalic_opdef_t *def, const char *name, int64_t dflt)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, name);
	if (!v || v->n < 1)
		return dflt;
	return v->kind == DALIC_V_INT ? v->i[0] : v->kind == DALIC_V_BOOL ? v->b[0] : dflt;
}

/* DALI's output count: the image, 0, 1 or 2 label outputs, the additional ones, the bbox. */
static int caffe2_count(int64_t image, int64_t label_type, int64_t additional, int64_t bbox)
{
	int64_t labels = label_type == CAFFE2_NO_LABEL                                    ? 0
	                 : label_type == CAFFE2_SPARSE || label_type == CAFFE2_WEIGHTED ? 2
	                                                                                : 1;
	int64_t n = image + labels + additional + bbox;
	return n < 1 ? 1 : n > CAFFE2_MAX_OUT ? CAFFE2_MAX_OUT : (int)n;
}

static int caffe2_outputs_for(const dalic_opdef_t *def)
{
	return caffe2_count(caffe2_def_int(def, "image_available", 1),
	                    caffe2_def_int(def, "label_type", 0),
	                    caffe2_def_int(def, "additional_inputs", 0), caffe2_def_int(def, "bbox", 0));
}

static void caffe2_fini(dalic_op_ctx_t *ctx)
{
	caffe2_reader_t *r = ctx->state;
	for (int i = 0; r->recs && i < ctx->max_batch_size; i++)
		free(r->recs[i].protos);
	free(r->recs);
	dalic_lmdb_reader_fini(&r->lr);
}

static int caffe2_init_state(dalic_op_ctx_t *ctx)
{
	caffe2_reader_t *r = ctx->state;
	r->image = dalic_arg_bool(ctx, "image_available");
	r->bbox = dalic_arg_bool(ctx, "bbox");
	r->label_type = (int)dalic_arg_int(ctx, "label_type");
	r->num_labels = (int)dalic_arg_int(ctx, "num_labels");
	r->additional = (int)dalic_arg_int(ctx, "additional_inputs");
	if (r->label_type < 0 || r->label_type > CAFFE2_NO_LABEL)
		return dalic_op_fail(ctx, NULL, -1, "Unsupported label type");
	int64_t nout = r->image + (r->label_type != CAFFE2_NO_LABEL) + (int64_t)r->additional +
	               r->bbox + (r->label_type == CAFFE2_SPARSE || r->label_type == CAFFE2_WEIGHTED);
	if (r->additional < 0 || nout < 1 || nout > CAFFE2_MAX_OUT || r->num_labels < 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "additional_inputs %d and num_labels %d: the reader takes 0 to %d "
		                     "outputs in all and at least one label",
		                     r->additional, r->num_labels, CAFFE2_MAX_OUT);
	r->recs = calloc((size_t)ctx->max_batch_size, sizeof *r->recs);
	if (!r->recs)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return dalic_lmdb_reader_init(&r->lr, ctx);
}

static int caffe2_init(dalic_op_ctx_t *ctx)
{
	int rc = caffe2_init_state(ctx);
	if (rc)
		caffe2_fini(ctx);
	return rc;
}

/* One output of a record: its type and shape, and where its values come from. */
typedef struct caffe2_out {
	dalic_dtype_t t;
	int ndim;
	int64_t dims[3];
	const caffe2_proto_t *p, *weights; /* the proto (and the weights' one) */
	int kind;                          /* 0 copy, 1 sparse, 2 weighted, 3 image string */
} caffe2_out_t;

static const caffe2_proto_t *caffe2_proto(const caffe2_rec_t *rec, int64_t k, char *err,
                                          size_t errn)
{
	if (k < rec->n)
		return &rec->protos[k];
	snprintf(err, errn, "the record has %lld protos; proto %lld is needed", (long long)rec->n,
	         (long long)k);
	return NULL;
}

/* The values of a FLOAT / INT32 / INT64 proto as an output. */
static int caffe2_values(const caffe2_proto_t *p, caffe2_out_t *o, char *err, size_t errn)
{
	o->p = p;
	o->ndim = 1;
	switch (p->data_type) {
	case DALIC_C2PB_FLOAT:
		o->t = DALIC_FLOAT;
		o->dims[0] = p->n_floats;
		return 0;
	case DALIC_C2PB_INT32:
		o->t = DALIC_INT32;
		o->dims[0] = p->n_int32s;
		return 0;
	case DALIC_C2PB_INT64:
		o->t = DALIC_INT64;
		o->dims[0] = p->n_int64s;
		return 0;
	default:
		snprintf(err, errn, "Unsupported data type in additional proto");
		return -1;
	}
}

static int caffe2_image(const caffe2_proto_t *p, caffe2_out_t *o, char *err, size_t errn)
{
	o->p = p;
	o->t = DALIC_UINT8;
	if (p->data_type == DALIC_C2PB_STRING && p->n_strings > 0) {
		o->ndim = 1;
		o->kind = 3;
		o->dims[0] = (int64_t)p->string0_len;
		return 0;
	}
	if (p->data_type == DALIC_C2PB_BYTE && p->n_dims >= 2) {
		o->ndim = 3;
		o->dims[0] = p->dims[0];
		o->dims[1] = p->dims[1];
		o->dims[2] = p->n_dims == 3 ? p->dims[2] : 1;
		if (o->dims[0] >= 0 && o->dims[1] >= 0 && o->dims[2] >= 0 &&
		    o->dims[0] * o->dims[1] * o->dims[2] == (int64_t)p->n_bytes)
			return 0;
		snprintf(err, errn, "the image proto's dims do not match its %zu bytes",
		         p->n_bytes);
		return -1;
	}
	snprintf(err, errn, "the image proto is neither STRING (encoded) nor BYTE with dims");
	return -1;
}

static int caffe2_label(const caffe2_reader_t *r, const caffe2_rec_t *rec, int ci,
                        caffe2_out_t *o, char *err, size_t errn)
{
	const caffe2_proto_t *p = caffe2_proto(rec, ci, err, errn);
	if (!p)
		return -1;
	bool is_float = p->data_type == DALIC_C2PB_FLOAT;
	if (!is_float && p->data_type != DALIC_C2PB_INT32) {
		snprintf(err, errn, "Unsupported label data type");
		return -1;
	}
	caffe2_values(p, o, err, errn);
	if (r->label_type == CAFFE2_SINGLE && o->dims[0] != 1) {
		snprintf(err, errn, "a single label proto holds %lld values", (long long)o->dims[0]);
		return -1;
	}
	if (r->label_type == CAFFE2_SPARSE || r->label_type == CAFFE2_WEIGHTED) {
		uint32_t num = is_float ? DALIC_C2PB_FLOATS : DALIC_C2PB_INT32S;
		dalic_c2pb_it_t it;
		uint64_t bits;
		dalic_c2pb_it_init(&it, p, num);
		while (dalic_c2pb_it_next(&it, &bits)) {
			double v = dalic_c2pb_it_double(num, bits);
			if (!(v >= 0 && (int64_t)v < r->num_labels)) {
				snprintf(err, errn, "label index %g is outside [0, num_labels = %d)", v,
				         r->num_labels);
				return -1;
			}
		}
		o->kind = r->label_type == CAFFE2_SPARSE ? 1 : 2;
		o->dims[0] = r->num_labels;
	}
	if (r->label_type == CAFFE2_WEIGHTED) {
		o->t = DALIC_FLOAT;
		if (!(o->weights = caffe2_proto(rec, ci + 1, err, errn)))
			return -1;
		if (o->weights->n_floats < (is_float ? p->n_floats : p->n_int32s)) {
			snprintf(err, errn, "fewer weights than label indices");
			return -1;
		}
	}
	return 0;
}

/* The outputs of record `rec` into o[]. */
static int caffe2_plan(const caffe2_reader_t *r, const caffe2_rec_t *rec, caffe2_out_t *o,
                       char *err, size_t errn)
{
	int ci = 0;
	const caffe2_proto_t *p;
	if (r->image && (!(p = caffe2_proto(rec, 0, err, errn)) || caffe2_image(p, &o[ci++], err, errn)))
		return -1;
	if (r->label_type != CAFFE2_NO_LABEL && caffe2_label(r, rec, ci, &o[ci], err, errn))
		return -1;
	ci += r->label_type != CAFFE2_NO_LABEL;
	int start = ci + (r->label_type == CAFFE2_SPARSE); /* DALI's offset for sparse labels */
	for (int k = 0; k < r->additional; k++, ci++)
		if (!(p = caffe2_proto(rec, start + k, err, errn)) || caffe2_values(p, &o[ci], err, errn))
			return -1;
	if (!r->bbox)
		return 0;
	if (rec->n != start + r->additional + 1) {
		snprintf(err, errn, "bbox: the record has no bounding box proto after the others");
		return -1;
	}
	p = &rec->protos[start + r->additional];
	if (p->data_type != DALIC_C2PB_INT32 || p->n_int32s != 4) {
		snprintf(err, errn, "the bounding box proto is not INT32 with 4 values");
		return -1;
	}
	return caffe2_values(p, &o[ci], err, errn);
}

/* The empty output DALI 2.4 declares and never fills (sparse and weighted labels). */
static void caffe2_unfilled(const caffe2_reader_t *r, caffe2_out_t *o, int nout)
{
	if (r->label_type != CAFFE2_SPARSE && r->label_type != CAFFE2_WEIGHTED)
		return;
	caffe2_out_t *last = &o[nout - 1];
	*last = (caffe2_out_t){.t = o[r->image].t, .ndim = 1, .kind = 4};
}

static int caffe2_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	caffe2_reader_t *r = ctx->state;
	int n = ws->batch_size, nout = ws->num_outputs;
	DALIC_TRY(dalic_lmdb_reader_next(&r->lr, ctx, ws, 0));
	for (int i = 0; i < n; i++) {
		int32_t e = r->lr.core.selected[i];
		const lmdb_record_t *rec = &r->lr.recs[i];
		caffe2_out_t o[CAFFE2_MAX_OUT] = {0};
		char err[512] = "";
		caffe2_rec_t *slot = &r->recs[i];
		slot->n = dalic_c2pb_parse_protos(rec->value, rec->len, &slot->protos, &slot->cap);
		if (slot->n == -2)
			return dalic_op_fail(ctx, ws, i, "out of memory");
		if (slot->n < 0)
			snprintf(err, sizeof err,
			         "Error while parsing Caffe2 file: %s (raw data length: %zu bytes).",
			         r->lr.core.sources[e], rec->len);
		int rc = slot->n >= 0 ? caffe2_plan(r, slot, o, err, sizeof err) : -1;
		if (!rc)
			caffe2_unfilled(r, o, nout);
		for (int k = 0; k < nout; k++) {
			dalic_batch_t *b = ws->outputs[k];
			if (i == 0 && !rc)
				DALIC_TRY(dalic_batch_set_meta(b, n, o[k].t, o[k].ndim));
			if (i == 0 && !rc)
				dalic_batch_set_layout(b, "");
			if (i == 0 && rc)
				DALIC_TRY(dalic_batch_set_meta(b, n, DALIC_UINT8, 1));
			b->sources[i] = r->lr.core.sources[e];
			if (!rc && (o[k].t != b->dtype || o[k].ndim != b->ndim)) {
				snprintf(err, sizeof err,
				         "output %d is %s with %d dims here, %s with %d in the batch's first "
				         "record",
				         k, dalic_dtype_cname(o[k].t), o[k].ndim, dalic_dtype_cname(b->dtype),
				         b->ndim);
				rc = -1;
			}
			if (!rc)
				memcpy(dalic_batch_shape_mut(b, i), o[k].dims, sizeof(int64_t) * 3);
			if (!rc && k == 0 && r->image) { /* borrowed: the output is never written */
				const caffe2_proto_t *p = o[0].p;
				b->ptrs[i] = (void *)(o[0].kind == 3 ? p->string0 : p->bytes ? p->bytes : p->msg);
				b->borrowed[i] = true;
			}
		}
		if (rc)
			return dalic_op_fail(ctx, ws, i, "%s", err);
	}
	return DALIC_OK;
}

static void caffe2_fill(const caffe2_out_t *o, void *dst)
{
	const caffe2_proto_t *p = o->p;
	uint32_t num = o->t == DALIC_FLOAT ? DALIC_C2PB_FLOATS
	               : o->t == DALIC_INT32 ? DALIC_C2PB_INT32S
	                                     : DALIC_C2PB_INT64S;
	if (o->kind != 1 && o->kind != 2) {
		dalic_c2pb_copy(p, num, dst);
		return;
	}
	/* sparse: the indices are the proto's own values, float or int32 */
	uint32_t inum = p->data_type == DALIC_C2PB_FLOAT ? DALIC_C2PB_FLOATS : DALIC_C2PB_INT32S;
	dalic_c2pb_it_t it, wt;
	uint64_t bits, wbits = 0;
	memset(dst, 0, 4 * (size_t)o->dims[0]); /* float or int32 */
	dalic_c2pb_it_init(&it, p, inum);
	if (o->kind == 2)
		dalic_c2pb_it_init(&wt, o->weights, DALIC_C2PB_FLOATS);
	while (dalic_c2pb_it_next(&it, &bits)) {
		int64_t at = (int64_t)dalic_c2pb_it_double(inum, bits);
		if (o->kind == 2 && dalic_c2pb_it_next(&wt, &wbits))
			((float *)dst)[at] = (float)dalic_c2pb_it_double(DALIC_C2PB_FLOATS, wbits);
		else if (o->t == DALIC_FLOAT)
			((float *)dst)[at] = 1.0f;
		else
			((int32_t *)dst)[at] = 1;
	}
}

static int caffe2_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	caffe2_reader_t *r = ctx->state;
	caffe2_out_t o[CAFFE2_MAX_OUT] = {0};
	char err[256];
	if (caffe2_plan(r, &r->recs[i], o, err, sizeof err)) /* checked in setup */
		return dalic_op_fail(ctx, ws, i, "%s", err);
	caffe2_unfilled(r, o, ws->num_outputs);
	for (int k = r->image; k < ws->num_outputs; k++) /* the image is borrowed */
		if (o[k].kind != 4)
			caffe2_fill(&o[k], ws->outputs[k]->ptrs[i]);
	(void)thread;
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"path", DALIC_ARG_STRING_LIST, NULL, "Caffe2 LMDB database directories."},
	{"image_available", DALIC_ARG_BOOL, "True", "The first proto is an image to output."},
	{"label_type", DALIC_ARG_INT, "0",
	 "0 single label, 1 sparse indices, 2 dense values, 3 weighted sparse, 4 no label."},
	{"num_labels", DALIC_ARG_INT, "1", "Length of sparse label vectors."},
	{"additional_inputs", DALIC_ARG_INT, "0", "Further protos to output, after the label."},
	{"bbox", DALIC_ARG_BOOL, "False", "Output the record's last proto, a bounding box."},
	DALIC_READER_COMMON_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(caffe2_reader_t),
	.init = caffe2_init,
	.setup = caffe2_setup,
	.run_sample = caffe2_run_sample,
	.fini = caffe2_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__Caffe2) = {
	.name = "readers__Caffe2",
	.fn = "readers.caffe2",
	.aliases = {"Caffe2Reader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads images, labels and further tensors from Caffe2 LMDB databases of "
	       "TensorProtos records.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 2,
	.outputs_for = caffe2_outputs_for,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
