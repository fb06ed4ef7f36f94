/* The registry-walk test's data sets for file readers and decoders, and the argument setups of
 * the audio, random-crop and reader operators (see registry_run.h). */
#include "tests/unit/registry_run.h"

#include "tests/testlib/audio.h"
#include "tests/testlib/formats.h"
#include "tests/testlib/video_clip.h"

#include <sys/stat.h>
#include <unistd.h>

/* A small MJPEG clip of `frames` frames in this test's temporary directory. */
const char *registry_run_clip(int frames)
{
	tl_clip_t c = {.codec = "mjpeg", .width = 48, .height = 32, .frames = frames, .gop = 1};
	tl_clip_defaults(&c);
	char name[32];
	snprintf(name, sizeof name, "clip%d.avi", frames);
	const char *path = tl_tmp_path(name);
	char err[512];
	if (access(path, F_OK))
		cr_assert_eq(tl_clip_write(path, &c, err, sizeof err), 0, "%s: %s", path, err);
	return path;
}

/* Two clips, sequences of 2 frames with stride 2 (and every frame's number). */
void registry_run_video_reader(dalic_op_t *op)
{
	const char *files[] = {registry_run_clip(5), registry_run_clip(7)};
	ASSERT_OK(dalic_op_set_strings(op, "filenames", 2, files));
	ASSERT_OK(dalic_op_set_ints(op, "labels", 2, (const int64_t[]){3, 4}));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", 2));
	ASSERT_OK(dalic_op_set_int(op, "stride", 2));
	ASSERT_OK(dalic_op_set_string(op, "enable_frame_num", "sequence"));
}

/* The reader's clips and sequences, each frame resized to 20x12 with cubic filters. */
void registry_run_video_resize(dalic_op_t *op)
{
	registry_run_video_reader(op);
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 20));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 12));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_CUBIC));
}

/* Five records: the photos' bytes and a label each. */
void registry_run_tfrecord(dalic_op_t *op)
{
	const char *path = tl_tmp_path("reg.tfrecord"), *idx = tl_tmp_path("reg.idx");
	tl_buf_t recs[5];
	for (int k = 0; k < 5; k++) {
		tl_buf_t ex = {0};
		size_t n;
		char *bytes = tl_read_file(registry_run_photos[k % 3], &n);
		int64_t label = 10 + k;
		tl_tfex_bytes(&ex, "image", bytes, n);
		tl_tfex_int64s(&ex, "label", &label, 1);
		recs[k] = tl_tfex_finish(&ex);
		tl_buf_free(&ex);
		free(bytes);
	}
	tl_tfrecord_write(path, idx, recs, 5);
	for (int k = 0; k < 5; k++)
		tl_buf_free(&recs[k]);
	const char *names[] = {"image", "label"};
	const char *feats[] = {"FixedLenFeature([], string, '')", "FixedLenFeature([1], int64, 0)"};
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &path));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", 1, &idx));
	ASSERT_OK(dalic_op_set_strings(op, "feature_names", 2, names));
	ASSERT_OK(dalic_op_set_strings(op, "features", 2, feats));
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 3));
}

/* Four samples: a photo and its label as text. */
void registry_run_webdataset(dalic_op_t *op)
{
	const char *path = tl_tmp_path("reg.tar");
	tl_tar_t t;
	tl_tar_open(&t, path);
	for (int k = 0; k < 4; k++) {
		size_t n;
		char *bytes = tl_read_file(registry_run_photos[k % 3], &n), name[32];
		snprintf(name, sizeof name, "s%d.%s", k, k % 3 == 2 ? "png" : "jpg");
		tl_tar_add(&t, name, bytes, n);
		snprintf(name, sizeof name, "s%d.cls", k);
		tl_tar_add(&t, name, "7", 1);
		free(bytes);
	}
	tl_tar_close(&t);
	ASSERT_OK(dalic_op_set_strings(op, "paths", 1, &path));
	ASSERT_OK(dalic_op_set_strings(op, "ext", 2, (const char *[]){"jpg;png", "cls"}));
}

/* The photos as encoded caffe.Datum records (data = 4, label = 5) in an LMDB database. */
void registry_run_caffe(dalic_op_t *op)
{
	const char *path = tl_tmp_path("reg_caffe.lmdb");
	tl_buf_t v[3] = {{0}};
	for (int k = 0; k < 3; k++) {
		size_t n;
		char *bytes = tl_read_file(registry_run_photos[k], &n);
		tl_buf_field_bytes(&v[k], 4, bytes, n);
		tl_buf_varint(&v[k], 5 << 3);
		tl_buf_varint(&v[k], (uint64_t)k);
		free(bytes);
	}
	tl_lmdb_write(path, 3, (const char *[]){"a", "b", "c"}, v);
	for (int k = 0; k < 3; k++)
		tl_buf_free(&v[k]);
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &path));
}

/* The photos as caffe2.TensorProtos: a STRING image proto (type 4, string_data = 6) and an
 * INT32 label proto (type 2, int32_data = 4). */
void registry_run_caffe2(dalic_op_t *op)
{
	const char *path = tl_tmp_path("reg_caffe2.lmdb");
	tl_buf_t v[3] = {{0}};
	for (int k = 0; k < 3; k++) {
		size_t n;
		char *bytes = tl_read_file(registry_run_photos[k], &n);
		tl_buf_t img = {0}, lab = {0};
		tl_buf_varint(&img, 2 << 3);
		tl_buf_varint(&img, 4);
		tl_buf_field_bytes(&img, 6, bytes, n);
		tl_buf_varint(&lab, 2 << 3);
		tl_buf_varint(&lab, 2);
		tl_buf_field_bytes(&lab, 4, (const uint8_t[]){(uint8_t)k}, 1);
		tl_buf_field_bytes(&v[k], 1, img.p, img.n);
		tl_buf_field_bytes(&v[k], 1, lab.p, lab.n);
		tl_buf_free(&img);
		tl_buf_free(&lab);
		free(bytes);
	}
	tl_lmdb_write(path, 3, (const char *[]){"a", "b", "c"}, v);
	for (int k = 0; k < 3; k++)
		tl_buf_free(&v[k]);
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &path));
}

/* Four records of the photos in one RecordIO file. */
void registry_run_mxnet(dalic_op_t *op)
{
	const char *path = tl_tmp_path("reg.rec"), *idx = tl_tmp_path("reg_rec.idx");
	tl_buf_t f = {0};
	char text[256];
	int at = 0;
	for (int k = 0; k < 4; k++) {
		size_t n;
		char *bytes = tl_read_file(registry_run_photos[k % 3], &n);
		tl_buf_t p = {0};
		tl_recio_payload(&p, (float)k, 0, NULL, bytes, n);
		at += snprintf(text + at, sizeof text - (size_t)at, "%d\t%zu\n", k, f.n);
		tl_recio_part(&f, 0, p.p, p.n);
		tl_buf_free(&p);
		free(bytes);
	}
	tl_write_file(path, f.p, f.n);
	tl_write_text(idx, text);
	tl_buf_free(&f);
	ASSERT_OK(dalic_op_set_strings(op, "path", 1, &path));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", 1, &idx));
}

/* Four [2, 3] int16 arrays, the second in Fortran order, with a ROI. */
void registry_run_numpy(dalic_op_t *op)
{
	const char *root = tl_tmp_path("npy");
	mkdir(root, 0755);
	for (int k = 0; k < 4; k++) {
		char path[512];
		int16_t v[6] = {1, 2, 3, 4, 5, (int16_t)k};
		snprintf(path, sizeof path, "%s/a%d.npy", root, k);
		tl_npy_write(path, "<i2", k == 1, 2, (const int64_t[]){2, 3}, v, 2);
	}
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (const int64_t[]){0, 1}));
}

/* Three photos with a box each, as a COCO annotations file. */
void registry_run_coco(dalic_op_t *op)
{
	char json[2048];
	int at = snprintf(json, sizeof json, "{\"images\": [");
	for (int k = 0; k < 3; k++)
		at += snprintf(json + at, sizeof json - (size_t)at,
		               "%s{\"id\": %d, \"file_name\": \"%s\", \"width\": 9, "
		               "\"height\": 9}",
		               k ? ", " : "", k, registry_run_photos[k]);
	at += snprintf(json + at, sizeof json - (size_t)at,
	               "], \"categories\": [{\"id\": 4}], \"annotations\": [");
	for (int k = 0; k < 3; k++)
		at += snprintf(json + at, sizeof json - (size_t)at,
		               "%s{\"image_id\": %d, \"category_id\": 4, \"bbox\": [1, 2, 3, 4]}",
		               k ? ", " : "", k);
	snprintf(json + at, sizeof json - (size_t)at, "]}");
	const char *path = tl_tmp_path("reg_coco.json");
	tl_write_text(path, json);
	ASSERT_OK(dalic_op_set_string(op, "annotations_file", path));
}

void registry_run_resample(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "scale", 0.75));
}

void registry_run_audio_decoder(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "sample_rate", 12000));
	ASSERT_OK(dalic_op_set_bool(op, "downmix", true));
}

/* Four 16-bit WAVs (mono 8 kHz, stereo 11.025 kHz) in a manifest with offsets and texts,
 * read as int16 without downmixing, resampled to 16 kHz, with shuffling. */
void registry_run_nemo_asr(dalic_op_t *op)
{
	char manifest[2048] = "";
	for (int k = 0; k < 4; k++) {
		int channels = 1 + k % 2, rate = k % 2 ? 11025 : 8000, frames = 300 + 50 * k;
		int16_t v[2 * 450];
		for (int i = 0; i < frames * channels; i++)
			v[i] = (int16_t)((i * 37 + k * 1000) % 20000 - 10000);
		size_t n;
		void *bytes = tl_audio_wav16(v, frames, channels, rate, &n);
		char name[32], line[512];
		snprintf(name, sizeof name, "nemo%d.wav", k);
		tl_write_file(tl_tmp_path(name), bytes, n);
		free(bytes);
		snprintf(line, sizeof line,
		         "{\"audio_filepath\": \"%s\", \"offset\": %g, \"duration\": 0.02, "
		         "\"text\": \"sample %d\"}\n",
		         tl_tmp_path(name), 0.001 * k, k);
		strcat(manifest, line);
	}
	const char *path = tl_tmp_path("nemo.json");
	tl_write_text(path, manifest);
	ASSERT_OK(dalic_op_set_strings(op, "manifest_filepaths", 1, &path));
	ASSERT_OK(dalic_op_set_float(op, "sample_rate", 16000));
	ASSERT_OK(dalic_op_set_bool(op, "downmix", false));
	ASSERT_OK(dalic_op_set_bool(op, "read_idxs", true));
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 3));
}

void registry_run_nonsilent(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "window_length", 64));
	ASSERT_OK(dalic_op_set_float(op, "cutoff_db", -20));
}

void registry_run_spectrogram(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "nfft", 64));
	ASSERT_OK(dalic_op_set_int(op, "window_length", 40));
	ASSERT_OK(dalic_op_set_int(op, "window_step", 25));
}

void registry_run_mel(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "nfilter", 4));
	ASSERT_OK(dalic_op_set_float(op, "sample_rate", 16000));
}

void registry_run_mfcc(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "n_mfcc", 5));
	ASSERT_OK(dalic_op_set_float(op, "lifter", 10));
}

void registry_run_roi(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 3, (const int64_t[]){2, 5, 3}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 3, (const int64_t[]){1, 1, 0}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 3, (const int64_t[]){4, 3, 3}));
}

void registry_run_mask_pixel(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "foreground", 1));
	ASSERT_OK(dalic_op_set_float(op, "threshold", 100));
}

void registry_run_reader(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "file_root", "samples/images"));
}

/* One stream of two copies of a photo. */
void registry_run_sequence(dalic_op_t *op)
{
	const char *root = tl_tmp_path("reg_seq");
	char dir[400], path[450];
	mkdir(root, 0755);
	snprintf(dir, sizeof dir, "%s/s", root);
	mkdir(dir, 0755);
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/%d.jpg", dir, k);
		tl_copy_file("samples/images/cat/chelsea.jpg", path);
	}
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", 2));
}
