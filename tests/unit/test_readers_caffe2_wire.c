/*
 * readers.caffe2 reading TensorProtos wire bytes as protobuf does, through the public API on
 * LMDB databases the tests write: a later singular field wins (data_type, byte_data), the
 * first string_data is the image, repeated numbers packed and one by one concatenate in
 * order, unknown fields, unknown enum values and known fields of another wire type are
 * skipped; broken packed runs and cut-off protos are errors naming the database and key.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

TestSuite(readers_caffe2_wire, .timeout = 30, .fini = tl_tmpdir_remove);

static void c2w_varint(tl_buf_t *b, int field, uint64_t v)
{
	tl_buf_varint(b, (uint64_t)field << 3);
	tl_buf_varint(b, v);
}

static void c2w_float(tl_buf_t *b, float v) /* one unpacked float_data */
{
	tl_buf_varint(b, 3 << 3 | 5);
	tl_buf_put(b, &v, 4);
}

static void c2w_packed_varints(tl_buf_t *b, int field, int n, const int64_t *v)
{
	tl_buf_t run = {0};
	for (int k = 0; k < n; k++)
		tl_buf_varint(&run, (uint64_t)v[k]);
	tl_buf_field_bytes(b, field, run.p, run.n);
	tl_buf_free(&run);
}

/* proto into record rec as field 1 (TensorProtos.protos); frees proto */
static void c2w_add(tl_buf_t *rec, tl_buf_t *proto)
{
	tl_buf_field_bytes(rec, 1, proto->p, proto->n);
	tl_buf_free(proto);
}

static dalic_pipeline_t *c2w_pipeline(const char *db, int batch, int label_type,
                                      int additional)
{
	dalic_pipeline_t *p = tl_pipeline(batch);
	dalic_op_t *op = tl_op(p, "readers.caffe2");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &db));
	ASSERT_OK(dalic_op_set_int(op, "label_type", label_type));
	ASSERT_OK(dalic_op_set_int(op, "additional_inputs", additional));
	ASSERT_OK(dalic_op_set_int(op, "num_labels", 6));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return p;
}

Test(readers_caffe2_wire, later_fields_win_and_repeated_runs_concatenate)
{
	const char *db = tl_tmp_path("wire.lmdb");
	tl_buf_t rec = {0}, p = {0};
	/* the image: BYTE then STRING (the later wins); 11 is no DataType (skipped); a
	 * data_type as bytes is another wire type (skipped); the first string is the image */
	c2w_varint(&p, 2, 3);
	tl_buf_field_bytes(&p, 6, "IMG", 3);
	c2w_varint(&p, 2, 4);
	c2w_varint(&p, 2, 11);
	tl_buf_field_bytes(&p, 2, "\x03", 1);
	tl_buf_field_bytes(&p, 99, "unknown", 7);
	tl_buf_field_bytes(&p, 7, "name", 4);
	tl_buf_field_bytes(&p, 6, "second", 6);
	c2w_add(&rec, &p);
	c2w_varint(&rec, 2, 7); /* an unknown field between the protos */
	/* the dense label: INT32 values packed, one by one, packed again */
	c2w_varint(&p, 2, 2);
	c2w_packed_varints(&p, 4, 2, (const int64_t[]){1, -2});
	c2w_varint(&p, 4, 3);
	c2w_packed_varints(&p, 4, 1, (const int64_t[]){4});
	c2w_add(&rec, &p);
	/* FLOAT (the default type) values one by one and packed; doubles are not read */
	c2w_float(&p, 0.5f);
	tl_buf_field_bytes(&p, 3, (const float[]){1.5f, 2.5f}, 8);
	tl_buf_field_bytes(&p, 9, (const double[]){7.0}, 8);
	c2w_float(&p, -4);
	c2w_add(&rec, &p);
	/* INT64 values: one then a packed run; a float_data as a varint is skipped */
	c2w_varint(&p, 2, 10);
	c2w_varint(&p, 10, (uint64_t)(int64_t)-5);
	c2w_packed_varints(&p, 10, 2, (const int64_t[]){(int64_t)1 << 40, 9});
	c2w_varint(&p, 3, 1);
	c2w_add(&rec, &p);
	tl_lmdb_write(db, 1, (const char *[]){"r"}, &rec);
	dalic_pipeline_t *pl = c2w_pipeline(db, 1, 2, 2);
	ASSERT_OK(dalic_pipeline_run(pl));
	const dalic_batch_t *img = dalic_pipeline_output(pl, 0);
	tl_expect_shape(img, 0, 1, (int64_t[]){3});
	cr_expect_eq(memcmp(dalic_batch_data(img, 0), "IMG", 3), 0);
	cr_expect_eq(dalic_batch_dtype(dalic_pipeline_output(pl, 1)), DALIC_INT32);
	tl_expect_values(dalic_pipeline_output(pl, 1), 0, 4, (double[]){1, -2, 3, 4});
	cr_expect_eq(dalic_batch_dtype(dalic_pipeline_output(pl, 2)), DALIC_FLOAT);
	tl_expect_values(dalic_pipeline_output(pl, 2), 0, 4, (double[]){0.5, 1.5, 2.5, -4});
	const dalic_batch_t *i64 = dalic_pipeline_output(pl, 3);
	cr_expect_eq(dalic_batch_dtype(i64), DALIC_INT64);
	tl_expect_shape(i64, 0, 1, (int64_t[]){3});
	const int64_t *v = dalic_batch_data(i64, 0);
	cr_expect(v[0] == -5 && v[1] == (int64_t)1 << 40 && v[2] == 9);
	dalic_pipeline_destroy(pl);
	tl_buf_free(&rec);
}

/* A BYTE image: dims packed then one more; byte_data twice (the later wins). Sparse and
 * weighted labels whose indices and weights come in several runs. */
Test(readers_caffe2_wire, byte_images_and_sparse_runs)
{
	const char *db = tl_tmp_path("byte.lmdb");
	tl_buf_t rec = {0}, p = {0};
	c2w_varint(&p, 2, 3);
	c2w_packed_varints(&p, 1, 2, (const int64_t[]){2, 1});
	c2w_varint(&p, 1, 3);
	tl_buf_field_bytes(&p, 5, "old", 3);
	tl_buf_field_bytes(&p, 5, "abcdef", 6);
	c2w_add(&rec, &p);
	c2w_float(&p, 4); /* float indices 4, then 0 and 2 packed */
	tl_buf_field_bytes(&p, 3, (const float[]){0, 2}, 8);
	c2w_add(&rec, &p);
	tl_buf_field_bytes(&p, 3, (const float[]){0.25f, 0.5f}, 8); /* the weights */
	c2w_float(&p, 0.125f);
	c2w_add(&rec, &p);
	tl_lmdb_write(db, 1, (const char *[]){"r"}, &rec);
	for (int type = 1; type <= 3; type += 2) {
		dalic_pipeline_t *pl = c2w_pipeline(db, 1, type, 0);
		ASSERT_OK(dalic_pipeline_run(pl));
		const dalic_batch_t *img = dalic_pipeline_output(pl, 0);
		tl_expect_shape(img, 0, 3, (int64_t[]){2, 1, 3});
		cr_expect_eq(memcmp(dalic_batch_data(img, 0), "abcdef", 6), 0);
		const dalic_batch_t *lab = dalic_pipeline_output(pl, 1);
		cr_expect_eq(dalic_batch_dtype(lab), DALIC_FLOAT);
		if (type == 1)
			tl_expect_values(lab, 0, 6, (double[]){1, 0, 1, 0, 1, 0});
		else
			tl_expect_values(lab, 0, 6, (double[]){0.5, 0, 0.125, 0, 0.25, 0});
		dalic_pipeline_destroy(pl);
	}
	tl_buf_free(&rec);
}

static void c2w_expect_broken(const char *db, tl_buf_t *proto, const char *why)
{
	tl_buf_t rec[2] = {{0}, {0}};
	tl_buf_field_bytes(&rec[0], 1, "\x10\x04\x32\x01x", 5); /* a good record: STRING "x" */
	c2w_add(&rec[1], proto);
	tl_lmdb_write(db, 2, (const char *[]){"a", "b"}, rec);
	dalic_pipeline_t *pl = c2w_pipeline(db, 2, 4, 0);
	const char *e = tl_run_fails(pl, DALIC_EOP);
	char want[512];
	snprintf(want, sizeof want, "Error while parsing Caffe2 file: %s at key b", db);
	EXPECT_HAS(e, want, "%s", why);
	dalic_pipeline_destroy(pl);
	tl_buf_free(&rec[0]);
	tl_buf_free(&rec[1]);
}

Test(readers_caffe2_wire, broken_runs_and_cut_protos_name_the_key)
{
	const char *db = tl_tmp_path("bad.lmdb");
	tl_buf_t p = {0};
	tl_buf_field_bytes(&p, 3, "abc", 3);
	c2w_expect_broken(db, &p, "packed floats of 3 bytes");
	tl_buf_field_bytes(&p, 4, "\x80", 1);
	c2w_expect_broken(db, &p, "a cut-off varint in packed int32_data");
	tl_buf_field_bytes(&p, 9, "\0\0\0\0", 4);
	c2w_expect_broken(db, &p, "packed doubles of 4 bytes");
	tl_buf_put(&p, "\x32\x09" "short", 7);
	c2w_expect_broken(db, &p, "string_data longer than the proto");
}
