/*
 * Checkpoints and seeks of every reader of the reader core besides readers.file (which
 * test_checkpoint_pipeline covers against DALI's golden files): after k iterations, a pipeline
 * restored from the checkpoint and one sought k iterations on give the batches an
 * uninterrupted run gives next, byte for byte, and the same checkpoint. The data sets are
 * small and shuffled so that k crosses epoch ends (and per-epoch reshuffles where the reader
 * has them).
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

TestSuite(checkpoint_readers, .timeout = 60, .fini = tl_tmpdir_remove);

#define CKR_BATCH 3
#define CKR_NEXT 3

typedef void (*ckr_build_fn)(dalic_pipeline_t *p);

static dalic_pipeline_t *ckr_pipeline(ckr_build_fn build, const uint8_t *ck, size_t n)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = CKR_BATCH;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 77;
	params.enable_checkpointing = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	build(p);
	if (ck)
		ASSERT_OK(dalic_pipeline_set_checkpoint(p, ck, n, "the test's checkpoint"));
	ASSERT_OK(dalic_pipeline_build(p));
	return p;
}

static void ckr_expect_same_checkpoint(dalic_pipeline_t *p, const uint8_t *want, size_t n,
				       const char *what)
{
	uint8_t *got = NULL;
	size_t m = 0;
	ASSERT_OK(dalic_pipeline_checkpoint(p, &got, &m));
	cr_expect(m == n && !memcmp(got, want, n), "%s: checkpoint differs (%zu vs %zu bytes)",
		  what, m, n);
	free(got);
}

/* Uninterrupted run vs restored after k vs sought k; the restored run must not simply
 * start over (its first batch differs from a fresh pipeline's). */
static void ckr_expect_resumes(const char *reader, ckr_build_fn build, int k)
{
	dalic_pipeline_t *ref = ckr_pipeline(build, NULL, 0);
	tl_snapshot_t first;
	ASSERT_OK(dalic_pipeline_run(ref));
	tl_snap(&first, dalic_pipeline_output(ref, 0));
	for (int i = 1; i < k; i++)
		ASSERT_OK(dalic_pipeline_run(ref));
	uint8_t *ck = NULL;
	size_t n = 0;
	ASSERT_OK(dalic_pipeline_checkpoint(ref, &ck, &n));

	dalic_pipeline_t *restored = ckr_pipeline(build, ck, n);
	cr_expect_eq(dalic_pipeline_position(restored), k, "%s: restored position", reader);
	dalic_pipeline_t *sought = ckr_pipeline(build, NULL, 0);
	char *why = (char *)"unset";
	ASSERT_OK(dalic_pipeline_seek(sought, k, &why));
	cr_expect(why == NULL, "%s: the seek ran iterations: %s", reader, why ? why : "");
	free(why == (char *)"unset" ? NULL : why);
	ckr_expect_same_checkpoint(sought, ck, n, reader);

	char what[128];
	for (int it = 0; it < CKR_NEXT; it++) {
		ASSERT_OK(dalic_pipeline_run(ref));
		ASSERT_OK(dalic_pipeline_run(restored));
		ASSERT_OK(dalic_pipeline_run(sought));
		if (it == 0)
			cr_expect(!tl_snap_equal(&first, dalic_pipeline_output(restored, 0)),
				  "%s: the batch after the checkpoint is the first batch again "
				  "(pick another k)", reader);
		for (int o = 0; o < dalic_pipeline_num_outputs(ref); o++) {
			snprintf(what, sizeof what, "%s restored, iteration %d output %d", reader,
				 k + it, o);
			tl_expect_same_batch(dalic_pipeline_output(restored, o),
					     dalic_pipeline_output(ref, o), what);
			snprintf(what, sizeof what, "%s sought, iteration %d output %d", reader,
				 k + it, o);
			tl_expect_same_batch(dalic_pipeline_output(sought, o),
					     dalic_pipeline_output(ref, o), what);
		}
	}
	free(ck);
	ASSERT_OK(dalic_pipeline_checkpoint(ref, &ck, &n));
	ckr_expect_same_checkpoint(restored, ck, n, reader);
	ckr_expect_same_checkpoint(sought, ck, n, reader);
	free(ck);
	tl_snap_free(&first);
	dalic_pipeline_destroy(sought);
	dalic_pipeline_destroy(restored);
	dalic_pipeline_destroy(ref);
}

static void ckr_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
}

/* random_shuffle over a small buffer, so that picks straddle the files */
static void ckr_shuffled_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 3));
	ckr_outputs(p, op);
}

/* ---- readers.numpy: 7 files, shuffle_after_epoch (the list reshuffles every epoch) ---- */

static const char *ckr_numpy_root;

static void ckr_numpy_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.numpy");
	ASSERT_OK(dalic_op_set_string(op, "file_root", ckr_numpy_root));
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	ckr_outputs(p, op);
}

Test(checkpoint_readers, numpy)
{
	static char root[300];
	snprintf(root, sizeof root, "%s", tl_tmp_path("npy"));
	mkdir(root, 0755);
	for (int f = 0; f < 7; f++) {
		char path[400];
		snprintf(path, sizeof path, "%s/f%d.npy", root, f);
		int16_t v[2] = {(int16_t)f, (int16_t)(10 * f)};
		tl_npy_write(path, "<i2", false, 1, (int64_t[]){2}, v, 2);
	}
	ckr_numpy_root = root;
	ckr_expect_resumes("readers.numpy", ckr_numpy_build, 5);
}

/* ---- readers.tfrecord: two files, random_shuffle with a small initial_fill ---- */

static const char *ckr_tf_paths[2], *ckr_tf_index[2];

static void ckr_tfrecord_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.tfrecord");
	ASSERT_OK(dalic_op_set_strings(op, "path", 2, ckr_tf_paths));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", 2, ckr_tf_index));
	ASSERT_OK(dalic_op_set_strings(op, "feature_names", 1, (const char *[]){"label"}));
	ASSERT_OK(dalic_op_set_strings(op, "features", 1,
				       (const char *[]){"FixedLenFeature([1], int64, -1)"}));
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 4));
	ckr_outputs(p, op);
}

Test(checkpoint_readers, tfrecord)
{
	static char paths[4][300];
	const char *names[4] = {"a.tfrecord", "a.idx", "b.tfrecord", "b.idx"};
	for (int i = 0; i < 4; i++)
		snprintf(paths[i], sizeof paths[i], "%s", tl_tmp_path(names[i]));
	tl_tfrecord_int64s(paths[0], paths[1], 0, 4);
	tl_tfrecord_int64s(paths[2], paths[3], 100, 4);
	ckr_tf_paths[0] = paths[0];
	ckr_tf_index[0] = paths[1];
	ckr_tf_paths[1] = paths[2];
	ckr_tf_index[1] = paths[3];
	ckr_expect_resumes("readers.tfrecord", ckr_tfrecord_build, 7);
}

/* ---- readers.webdataset: two archives, shuffle_after_epoch (the archives reshuffle) ---- */

static const char *ckr_wds_paths[2];

static void ckr_webdataset_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.webdataset");
	ASSERT_OK(dalic_op_set_strings(op, "paths", 2, ckr_wds_paths));
	ASSERT_OK(dalic_op_set_strings(op, "ext", 2, (const char *[]){"txt", "cls"}));
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	ckr_outputs(p, op);
}

static void ckr_wds_archive(const char *path, int first, int count)
{
	tl_tar_t t;
	tl_tar_open(&t, path);
	for (int k = first; k < first + count; k++) {
		char name[32], text[32];
		snprintf(name, sizeof name, "s%02d.txt", k);
		snprintf(text, sizeof text, "sample %d", k);
		tl_tar_add(&t, name, text, strlen(text));
		snprintf(name, sizeof name, "s%02d.cls", k);
		snprintf(text, sizeof text, "%d", k);
		tl_tar_add(&t, name, text, strlen(text));
	}
	tl_tar_close(&t);
}

Test(checkpoint_readers, webdataset)
{
	static char paths[2][300];
	snprintf(paths[0], sizeof paths[0], "%s", tl_tmp_path("a.tar"));
	snprintf(paths[1], sizeof paths[1], "%s", tl_tmp_path("b.tar"));
	ckr_wds_archive(paths[0], 0, 3);
	ckr_wds_archive(paths[1], 3, 4);
	ckr_wds_paths[0] = paths[0];
	ckr_wds_paths[1] = paths[1];
	ckr_expect_resumes("readers.webdataset", ckr_webdataset_build, 5);
}

/* ---- readers.mxnet: one RecordIO file of 6 records, random_shuffle ---- */

static const char *ckr_mx_rec, *ckr_mx_idx;

static void ckr_mxnet_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.mxnet");
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &ckr_mx_rec));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", 1, &ckr_mx_idx));
	ckr_shuffled_outputs(p, op);
}

Test(checkpoint_readers, mxnet)
{
	static char rec[300], idx[300];
	snprintf(rec, sizeof rec, "%s", tl_tmp_path("a.rec"));
	snprintf(idx, sizeof idx, "%s", tl_tmp_path("a.idx"));
	tl_buf_t file = {0};
	char text[512] = "", line[64];
	for (int k = 0; k < 6; k++) {
		snprintf(line, sizeof line, "%d\t%zu\n", k, file.n);
		strcat(text, line);
		char img[32];
		snprintf(img, sizeof img, "image %d", k);
		tl_buf_t payload = {0};
		tl_recio_payload(&payload, (float)k, 0, NULL, img, strlen(img));
		tl_recio_part(&file, 0, payload.p, payload.n);
		tl_buf_free(&payload);
	}
	tl_write_file(rec, file.p, file.n);
	tl_write_text(idx, text);
	tl_buf_free(&file);
	ckr_mx_rec = rec;
	ckr_mx_idx = idx;
	ckr_expect_resumes("readers.mxnet", ckr_mxnet_build, 5);
}

/* ---- readers.caffe and readers.caffe2: LMDB databases of 5 records, random_shuffle ---- */

static const char *ckr_lmdb_path, *ckr_lmdb_op;

static void ckr_lmdb_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, ckr_lmdb_op);
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &ckr_lmdb_path));
	ckr_shuffled_outputs(p, op);
}

static void ckr_varint_field(tl_buf_t *b, int field, uint64_t v)
{
	tl_buf_varint(b, (uint64_t)field << 3);
	tl_buf_varint(b, v);
}

static void ckr_lmdb(const char *op_name, const char *dir)
{
	tl_buf_t v[5];
	const char *keys[5] = {"k0", "k1", "k2", "k3", "k4"};
	for (int k = 0; k < 5; k++) {
		char img[16];
		snprintf(img, sizeof img, "IMG-%d", k);
		v[k] = (tl_buf_t){0};
		if (!strcmp(op_name, "readers.caffe")) {
			/* caffe.Datum {data = 4, label = 5} */
			tl_buf_field_bytes(&v[k], 4, img, strlen(img));
			ckr_varint_field(&v[k], 5, (uint64_t)(10 + k));
		} else {
			/* caffe2 TensorProtos {protos = 1: TensorProto {data_type = 2, byte_data = 6
			 * (BYTE) | int32_data = 4 (INT32)}} */
			tl_buf_t t = {0}, packed = {0};
			ckr_varint_field(&t, 2, 4);
			tl_buf_field_bytes(&t, 6, img, strlen(img));
			tl_buf_field_bytes(&v[k], 1, t.p, t.n);
			tl_buf_free(&t);
			ckr_varint_field(&t, 2, 2);
			tl_buf_varint(&packed, (uint64_t)(10 + k));
			tl_buf_field_bytes(&t, 4, packed.p, packed.n);
			tl_buf_field_bytes(&v[k], 1, t.p, t.n);
			tl_buf_free(&t);
			tl_buf_free(&packed);
		}
	}
	tl_lmdb_write(dir, 5, keys, v);
	for (int k = 0; k < 5; k++)
		tl_buf_free(&v[k]);
}

Test(checkpoint_readers, caffe)
{
	static char dir[300];
	snprintf(dir, sizeof dir, "%s", tl_tmp_path("caffe.lmdb"));
	ckr_lmdb("readers.caffe", dir);
	ckr_lmdb_path = dir;
	ckr_lmdb_op = "readers.caffe";
	ckr_expect_resumes("readers.caffe", ckr_lmdb_build, 4);
}

Test(checkpoint_readers, caffe2)
{
	static char dir[300];
	snprintf(dir, sizeof dir, "%s", tl_tmp_path("caffe2.lmdb"));
	ckr_lmdb("readers.caffe2", dir);
	ckr_lmdb_path = dir;
	ckr_lmdb_op = "readers.caffe2";
	ckr_expect_resumes("readers.caffe2", ckr_lmdb_build, 4);
}

/* ---- readers.coco: 5 images with one box each, random_shuffle ---- */

static const char *ckr_coco_root, *ckr_coco_ann;

static void ckr_coco_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.coco");
	ASSERT_OK(dalic_op_set_string(op, "file_root", ckr_coco_root));
	ASSERT_OK(dalic_op_set_string(op, "annotations_file", ckr_coco_ann));
	ckr_shuffled_outputs(p, op);
}

Test(checkpoint_readers, coco)
{
	static char root[300], ann[300];
	snprintf(root, sizeof root, "%s", tl_tmp_path("coco"));
	snprintf(ann, sizeof ann, "%s", tl_tmp_path("ann.json"));
	mkdir(root, 0755);
	char json[2048] = "{\"images\": [", part[256];
	for (int k = 0; k < 5; k++) {
		char path[400], name[16];
		snprintf(name, sizeof name, "i%d.jpg", k);
		snprintf(path, sizeof path, "%s/%s", root, name);
		tl_write_text(path, name);
		snprintf(part, sizeof part, "%s{\"id\": %d, \"file_name\": \"%s\", \"width\": 100, "
			 "\"height\": 50}", k ? ", " : "", k + 1, name);
		strcat(json, part);
	}
	strcat(json, "], \"categories\": [{\"id\": 1, \"name\": \"x\"}], \"annotations\": [");
	for (int k = 0; k < 5; k++) {
		snprintf(part, sizeof part, "%s{\"image_id\": %d, \"category_id\": 1, \"bbox\": "
			 "[%d, 2, 3, 4], \"iscrowd\": 0}", k ? ", " : "", k + 1, k);
		strcat(json, part);
	}
	strcat(json, "]}");
	tl_write_text(ann, json);
	ckr_coco_root = root;
	ckr_coco_ann = ann;
	ckr_expect_resumes("readers.coco", ckr_coco_build, 4);
}

/* ---- readers.sequence: one stream of 6 frames, sequences of 2, random_shuffle ---- */

static const char *ckr_seq_root;

static void ckr_sequence_build(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "readers.sequence");
	ASSERT_OK(dalic_op_set_string(op, "file_root", ckr_seq_root));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", 2));
	ckr_shuffled_outputs(p, op);
}

Test(checkpoint_readers, sequence)
{
	static char root[300];
	snprintf(root, sizeof root, "%s", tl_tmp_path("seq"));
	mkdir(root, 0755);
	char dir[400], to[450];
	snprintf(dir, sizeof dir, "%s/s", root);
	mkdir(dir, 0755);
	const char *photos[] = {"chelsea.jpg", "chelsea_411.jpg", "chelsea_440.jpg"};
	for (int k = 0; k < 6; k++) {
		char from[300];
		snprintf(from, sizeof from, "samples/images/cat/%s", photos[k % 3]);
		snprintf(to, sizeof to, "%s/%d.jpg", dir, k);
		tl_copy_file(from, to);
	}
	ckr_seq_root = root;
	ckr_expect_resumes("readers.sequence", ckr_sequence_build, 3);
}
