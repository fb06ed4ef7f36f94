/*
 * readers.caffe and readers.caffe2 through the public API on LMDB databases the tests write
 * (tests/testlib/formats.h) with Datum / TensorProtos records built from their wire bytes:
 * outputs and their shapes, sources "<db> at key <key>", several databases, the label types
 * of Caffe2, and the errors for malformed records, each naming the database and key.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

TestSuite(readers_caffe, .timeout = 30, .fini = tl_tmpdir_remove);

static void cf_varint_field(tl_buf_t *b, int field, uint64_t v)
{
	tl_buf_varint(b, (uint64_t)field << 3);
	tl_buf_varint(b, v);
}

/* caffe.Datum: data (raw as h x w x c when h > 0), label (when >= 0). */
static tl_buf_t cf_datum(const char *data, size_t n, int label, int h, int w, int c)
{
	tl_buf_t b = {0};
	if (h > 0) {
		cf_varint_field(&b, 1, (uint64_t)c);
		cf_varint_field(&b, 2, (uint64_t)h);
		cf_varint_field(&b, 3, (uint64_t)w);
	}
	tl_buf_field_bytes(&b, 4, data, n);
	if (label >= 0)
		cf_varint_field(&b, 5, (uint64_t)label);
	if (h > 0)
		cf_varint_field(&b, 7, 0);
	return b;
}

static dalic_op_t *cf_reader(dalic_pipeline_t *p, const char *op_name, int n,
                             const char *const *paths)
{
	dalic_op_t *op = tl_op(p, op_name);
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_strings(op, "path", n, paths));
	return op;
}

static void cf_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
}

static void cf_expect_text(const dalic_batch_t *b, int i, const char *text)
{
	tl_expect_shape(b, i, 1, (int64_t[]){(int64_t)strlen(text)});
	cr_expect_eq(memcmp(dalic_batch_data(b, i), text, strlen(text)), 0, "sample %d", i);
}

static void cf_free(tl_buf_t *v, int n)
{
	for (int k = 0; k < n; k++)
		tl_buf_free(&v[k]);
}

Test(readers_caffe, datums_labels_sources_and_databases)
{
	const char *a = tl_tmp_path("a.lmdb"), *b = tl_tmp_path("b.lmdb");
	/* LMDB orders keys: k1 before k2 whatever the order of writing */
	tl_buf_t va[2] = {cf_datum("JPEG-2", 6, 7, 0, 0, 0), cf_datum("JPEG-1", 6, 3, 0, 0, 0)};
	tl_lmdb_write(a, 2, (const char *[]){"k2", "k1"}, va);
	tl_buf_t vb[1] = {cf_datum("PNG", 3, 9, 0, 0, 0)};
	tl_lmdb_write(b, 1, (const char *[]){"x"}, vb);
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *op = cf_reader(p, "readers.caffe", 2, (const char *[]){a, b});
	cf_outputs(p, op);
	cr_expect_eq(dalic_op_num_outputs(op), 2);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *img = dalic_pipeline_output(p, 0), *lab = dalic_pipeline_output(p, 1);
	cf_expect_text(img, 0, "JPEG-1");
	cf_expect_text(img, 1, "JPEG-2");
	cf_expect_text(img, 2, "PNG");
	cf_expect_text(img, 3, "JPEG-1");
	tl_expect_values(lab, 0, 1, (double[]){3});
	tl_expect_values(lab, 2, 1, (double[]){9});
	cr_expect_eq(dalic_batch_dtype(lab), DALIC_INT32);
	char want[400];
	snprintf(want, sizeof want, "%s at key x", b);
	cr_expect_str_eq(dalic_batch_source(img, 2), want);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 3);
	dalic_pipeline_destroy(p);
	cf_free(va, 2);
	cf_free(vb, 1);
}

Test(readers_caffe, raw_images_without_labels)
{
	const char *a = tl_tmp_path("raw.lmdb");
	char px[12];
	for (int k = 0; k < 12; k++)
		px[k] = (char)(k * 3);
	tl_buf_t v[2] = {cf_datum(px, 12, -1, 2, 2, 3), cf_datum(px, 6, -1, 1, 2, 3)};
	tl_lmdb_write(a, 2, (const char *[]){"0", "1"}, v);
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = cf_reader(p, "readers.caffe", 1, &a);
	ASSERT_OK(dalic_op_set_bool(op, "label_available", false));
	cf_outputs(p, op);
	cr_expect_eq(dalic_op_num_outputs(op), 1);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *img = dalic_pipeline_output(p, 0);
	tl_expect_shape(img, 0, 3, (int64_t[]){2, 2, 3});
	tl_expect_shape(img, 1, 3, (int64_t[]){1, 2, 3});
	tl_expect_values(img, 1, 6, (double[]){0, 3, 6, 9, 12, 15});
	dalic_pipeline_destroy(p);
	cf_free(v, 2);
}

static const char *cf_error(const char *op_name, const char *path, const char *flag)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = cf_reader(p, op_name, 1, &path);
	if (flag)
		ASSERT_OK(dalic_op_set_bool(op, flag, true));
	cf_outputs(p, op);
	static char msg[2048];
	snprintf(msg, sizeof msg, "%s", tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_caffe, malformed_datums_name_the_key)
{
	const char *a = tl_tmp_path("bad.lmdb");
	tl_buf_t v[2] = {cf_datum("ok", 2, 1, 0, 0, 0), {0}};
	tl_buf_put(&v[1], "\x0a\x20zz", 4); /* field 1 as bytes of 32: cut short */
	tl_lmdb_write(a, 2, (const char *[]){"a", "b"}, v);
	char want[400];
	snprintf(want, sizeof want, "Error while parsing Caffe file: %s at key b (raw data length: 4 "
	                            "bytes).",
	         a);
	EXPECT_HAS(cf_error("readers.caffe", a, NULL), want);
	tl_buf_free(&v[1]);
	v[1] = cf_datum("nolabel", 7, -1, 0, 0, 0);
	tl_lmdb_write(a, 2, (const char *[]){"a", "b"}, v);
	const char *e = cf_error("readers.caffe", a, NULL);
	EXPECT_HAS(e, "the Datum has no label");
	EXPECT_HAS(e, "at key b");
	tl_buf_free(&v[1]);
	v[1] = cf_datum("12345", 5, 1, 2, 2, 1);
	tl_lmdb_write(a, 2, (const char *[]){"a", "b"}, v);
	EXPECT_HAS(cf_error("readers.caffe", a, NULL),
	           "encoded and raw (encoded: false) images in one batch");
	EXPECT_HAS(cf_error("readers.caffe", tl_tmp_path("none.lmdb"), NULL), "LMDB Error: ");
	EXPECT_HAS(cf_error("readers.caffe", tl_tmp_path("none.lmdb"), NULL), "with file: ");
	cf_free(v, 2);
}

/* The Datum read from its wire bytes as protobuf reads it: unknown fields skipped, float_data
 * packed or not, a later field winning, a negative label as its 10-byte varint; the image
 * samples borrow the database's bytes; a known field of another wire type is skipped (as in
 * DALI: the Datum then has no label). */
Test(readers_caffe, datum_wire_forms)
{
	const char *a = tl_tmp_path("wire.lmdb");
	tl_buf_t v[2] = {{0}, {0}};
	cf_varint_field(&v[0], 5, 4);                 /* label 4, overridden below */
	tl_buf_field_bytes(&v[0], 4, "old", 3);       /* data, overridden below */
	tl_buf_field_bytes(&v[0], 6, "\0\0\x80\x3f", 4); /* packed float_data */
	tl_buf_varint(&v[0], 6 << 3 | 5);             /* one float_data */
	tl_buf_put(&v[0], "\0\0\0\x40", 4);
	tl_buf_field_bytes(&v[0], 99, "skip", 4);     /* unknown */
	tl_buf_field_bytes(&v[0], 4, "IMG", 3);
	cf_varint_field(&v[0], 5, (uint64_t)(int64_t)-3);
	tl_buf_t d = cf_datum("abcd", 4, 2, 0, 0, 0);
	tl_buf_put(&v[1], d.p, d.n);
	tl_buf_free(&d);
	tl_lmdb_write(a, 2, (const char *[]){"0", "1"}, v);
	dalic_pipeline_t *p = tl_pipeline(2);
	cf_outputs(p, cf_reader(p, "readers.caffe", 1, &a));
	ASSERT_OK(dalic_pipeline_run(p));
	cf_expect_text(dalic_pipeline_output(p, 0), 0, "IMG");
	cf_expect_text(dalic_pipeline_output(p, 0), 1, "abcd");
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 1, (double[]){-3});
	tl_expect_values(dalic_pipeline_output(p, 1), 1, 1, (double[]){2});
	dalic_pipeline_destroy(p);
	tl_buf_free(&v[0]);
	tl_buf_field_bytes(&v[0], 4, "x", 1);
	tl_buf_field_bytes(&v[0], 5, "x", 1); /* label as bytes */
	tl_lmdb_write(a, 2, (const char *[]){"0", "1"}, v);
	EXPECT_HAS(cf_error("readers.caffe", a, NULL), "the Datum has no label");
	tl_buf_free(&v[0]);
	tl_buf_field_bytes(&v[0], 6, "abc", 3); /* packed floats of 3 bytes */
	tl_lmdb_write(a, 2, (const char *[]){"0", "1"}, v);
	EXPECT_HAS(cf_error("readers.caffe", a, NULL), "at key 0 (raw data length: 5 bytes)");
	cf_free(v, 2);
}

/* caffe2.TensorProto wire bytes. */
static void c2_proto(tl_buf_t *rec, int type, int ndims, const int64_t *dims, int nf,
                     const float *f, int ni, const int32_t *ints, const char *str, size_t slen)
{
	tl_buf_t p = {0}, packed = {0};
	for (int d = 0; d < ndims; d++)
		cf_varint_field(&p, 1, (uint64_t)dims[d]);
	cf_varint_field(&p, 2, (uint64_t)type);
	if (nf) {
		tl_buf_field_bytes(&p, 3, f, 4 * (size_t)nf);
	}
	for (int k = 0; k < ni; k++)
		tl_buf_varint(&packed, (uint64_t)(int64_t)ints[k]);
	if (ni)
		tl_buf_field_bytes(&p, 4, packed.p, packed.n);
	if (str && type == 3)
		tl_buf_field_bytes(&p, 5, str, slen);
	else if (str)
		tl_buf_field_bytes(&p, 6, str, slen);
	tl_buf_field_bytes(rec, 1, p.p, p.n);
	tl_buf_free(&p);
	tl_buf_free(&packed);
}

Test(readers_caffe, caffe2_images_labels_additional_and_bbox)
{
	const char *a = tl_tmp_path("c2.lmdb");
	tl_buf_t v[2] = {{0}, {0}};
	c2_proto(&v[0], 4, 0, NULL, 0, NULL, 0, NULL, "JPEG", 4);
	c2_proto(&v[0], 2, 0, NULL, 0, NULL, 1, (const int32_t[]){5}, NULL, 0);
	c2_proto(&v[0], 1, 0, NULL, 2, (const float[]){0.5f, -1}, 0, NULL, NULL, 0);
	c2_proto(&v[0], 2, 0, NULL, 0, NULL, 4, (const int32_t[]){1, 2, 3, 4}, NULL, 0);
	c2_proto(&v[1], 3, 2, (const int64_t[]){2, 3}, 0, NULL, 0, NULL, "abcdef", 6);
	c2_proto(&v[1], 2, 0, NULL, 0, NULL, 1, (const int32_t[]){-2}, NULL, 0);
	c2_proto(&v[1], 1, 0, NULL, 1, (const float[]){8}, 0, NULL, NULL, 0);
	c2_proto(&v[1], 2, 0, NULL, 0, NULL, 4, (const int32_t[]){5, 6, 7, 8}, NULL, 0);
	tl_lmdb_write(a, 2, (const char *[]){"0", "1"}, v);
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = cf_reader(p, "readers.caffe2", 1, &a);
	ASSERT_OK(dalic_op_set_int(op, "additional_inputs", 1));
	ASSERT_OK(dalic_op_set_bool(op, "bbox", true));
	cf_outputs(p, op);
	cr_expect_eq(dalic_op_num_outputs(op), 4);
	/* a STRING image and a BYTE one cannot share the image output */
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "output 0 is uint8 with 3 dims here");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = cf_reader(p, "readers.caffe2", 1, &a);
	ASSERT_OK(dalic_op_set_int(op, "additional_inputs", 1));
	ASSERT_OK(dalic_op_set_bool(op, "bbox", true));
	cf_outputs(p, op);
	for (int it = 0; it < 2; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *img = dalic_pipeline_output(p, 0);
		if (it == 0) {
			cf_expect_text(img, 0, "JPEG");
			tl_expect_values(dalic_pipeline_output(p, 1), 0, 1, (double[]){5});
			tl_expect_values(dalic_pipeline_output(p, 2), 0, 2, (double[]){0.5, -1});
			tl_expect_values(dalic_pipeline_output(p, 3), 0, 4, (double[]){1, 2, 3, 4});
		} else {
			tl_expect_shape(img, 0, 3, (int64_t[]){2, 3, 1});
			tl_expect_values(dalic_pipeline_output(p, 1), 0, 1, (double[]){-2});
			tl_expect_values(dalic_pipeline_output(p, 3), 0, 4, (double[]){5, 6, 7, 8});
		}
	}
	dalic_pipeline_destroy(p);
	cf_free(v, 2);
}

Test(readers_caffe, caffe2_sparse_and_weighted_labels)
{
	const char *a = tl_tmp_path("sp.lmdb");
	tl_buf_t v[1] = {{0}};
	c2_proto(&v[0], 2, 0, NULL, 0, NULL, 2, (const int32_t[]){3, 1}, NULL, 0);
	c2_proto(&v[0], 1, 0, NULL, 2, (const float[]){0.25f, 0.75f}, 0, NULL, NULL, 0);
	tl_lmdb_write(a, 1, (const char *[]){"r"}, v);
	for (int type = 1; type <= 3; type += 2) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = cf_reader(p, "readers.caffe2", 1, &a);
		ASSERT_OK(dalic_op_set_bool(op, "image_available", false));
		ASSERT_OK(dalic_op_set_int(op, "label_type", type));
		ASSERT_OK(dalic_op_set_int(op, "num_labels", 5));
		cf_outputs(p, op);
		cr_expect_eq(dalic_op_num_outputs(op), 2, "DALI's count: two label outputs");
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *lab = dalic_pipeline_output(p, 0);
		if (type == 1) {
			cr_expect_eq(dalic_batch_dtype(lab), DALIC_INT32);
			tl_expect_values(lab, 0, 5, (double[]){0, 1, 0, 1, 0});
		} else {
			cr_expect_eq(dalic_batch_dtype(lab), DALIC_FLOAT);
			tl_expect_values(lab, 0, 5, (double[]){0, 0.75, 0, 0.25, 0});
		}
		tl_expect_shape(dalic_pipeline_output(p, 1), 0, 1, (int64_t[]){0});
		dalic_pipeline_destroy(p);
	}
	/* an index outside num_labels */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = cf_reader(p, "readers.caffe2", 1, &a);
	ASSERT_OK(dalic_op_set_bool(op, "image_available", false));
	ASSERT_OK(dalic_op_set_int(op, "label_type", 1));
	ASSERT_OK(dalic_op_set_int(op, "num_labels", 3));
	cf_outputs(p, op);
	const char *e = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(e, "label index 3 is outside [0, num_labels = 3)");
	EXPECT_HAS(e, "at key r");
	dalic_pipeline_destroy(p);
	/* an image asked for where the record has labels */
	EXPECT_HAS(cf_error("readers.caffe2", a, "bbox"),
	           "the image proto is neither STRING (encoded) nor BYTE with dims");
	cf_free(v, 1);
}
