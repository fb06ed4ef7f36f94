/*
 * readers.sequence through the public API on streams of frames copied from the sample
 * photos: which sequences a stream gives (sequence_length, step, stride, streams too short,
 * non-frame files left out), the frames in order (each equal to decoders.image's decode of
 * its file), shape, layout and source, epoch size; and the errors: frames of different sizes
 * in one sequence, a frame that is not an image, bad arguments.
 */
#include "tests/testlib.h"
#include "tests/testlib/image.h"

#include <sys/stat.h>

TestSuite(readers_sequence, .timeout = 60, .fini = tl_tmpdir_remove);

static const char *sq_photos[] = {"cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg",
                                  "cat/chelsea_progressive.jpg", "cat/chelsea_gray.jpg"};

/* stream a: frames 0..4 (the five photos), stream b: two frames, plus files left out. */
static const char *sq_streams(void)
{
	static char root[300];
	char from[400], to[400];
	snprintf(root, sizeof root, "%s", tl_tmp_path("seq"));
	mkdir(root, 0755);
	snprintf(to, sizeof to, "%s/a", root);
	mkdir(to, 0755);
	snprintf(to, sizeof to, "%s/b", root);
	mkdir(to, 0755);
	for (int k = 0; k < 5; k++) {
		snprintf(from, sizeof from, "samples/images/%s", sq_photos[k]);
		snprintf(to, sizeof to, "%s/a/%d.jpg", root, k);
		tl_copy_file(from, to);
		snprintf(to, sizeof to, "%s/b/%d.JPG", root, k);
		if (k < 2)
			tl_copy_file(from, to);
	}
	snprintf(to, sizeof to, "%s/a/notes.txt", root);
	tl_write_text(to, "not a frame");
	snprintf(to, sizeof to, "%s/loose.jpg", root);
	tl_write_text(to, "not in a stream");
	return root;
}

static dalic_pipeline_t *sq_pipeline(const char *root, int batch, int length, int step,
                                     int stride)
{
	dalic_pipeline_t *p = tl_pipeline(batch);
	dalic_op_t *op = tl_op(p, "readers.sequence");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", length));
	ASSERT_OK(dalic_op_set_int(op, "step", step));
	ASSERT_OK(dalic_op_set_int(op, "stride", stride));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	return p;
}

/* Frame f of sample i of `seq` equals the decode of photo k. */
static void sq_expect_frame(const dalic_batch_t *seq, int i, int f, int k)
{
	const char *file = sq_photos[k];
	dalic_pipeline_t *p = tl_decode_pipeline("samples/images", 1, &file, "decoders.image",
	                                         DALIC_RGB, NULL);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *ref = dalic_pipeline_output(p, 0);
	const int64_t *s = dalic_batch_shape(ref, 0);
	size_t frame = (size_t)(s[0] * s[1] * s[2]);
	const uint8_t *got = (const uint8_t *)dalic_batch_data(seq, i) + (size_t)f * frame;
	cr_expect_eq(memcmp(got, dalic_batch_data(ref, 0), frame), 0, "sample %d frame %d is %s", i,
	             f, file);
	dalic_pipeline_destroy(p);
}

Test(readers_sequence, sequences_frames_and_order)
{
	const char *root = sq_streams();
	/* a: starts 0, 2 (4 + 2 is past its 5 frames); b: 0 + 2 is past its 2 frames */
	dalic_pipeline_t *p = sq_pipeline(root, 3, 2, 2, 2);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *seq = dalic_pipeline_output(p, 0);
	cr_expect_str_eq(dalic_batch_layout(seq), "FHWC");
	tl_expect_shape(seq, 0, 4, (int64_t[]){2, 300, 451, 3});
	sq_expect_frame(seq, 0, 0, 0);
	sq_expect_frame(seq, 0, 1, 2);
	sq_expect_frame(seq, 1, 0, 2);
	sq_expect_frame(seq, 1, 1, 4);
	sq_expect_frame(seq, 2, 1, 2); /* the epoch wraps */
	EXPECT_HAS(dalic_batch_source(seq, 1), "a/2.jpg");
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 2);
	dalic_pipeline_destroy(p);
	/* consecutive pairs: a gives 4, b (upper-case .JPG counts) 1 */
	p = sq_pipeline(root, 1, 2, 1, 1);
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 5);
	dalic_pipeline_destroy(p);
}

Test(readers_sequence, errors_name_the_frame)
{
	const char *root = sq_streams();
	char path[400];
	snprintf(path, sizeof path, "%s/a/1.jpg", root);
	tl_copy_file("samples/images/coffee/coffee_444.jpg", path);
	dalic_pipeline_t *p = sq_pipeline(root, 1, 2, 1, 1);
	const char *e = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(e, "frame 'a/1.jpg' is ");
	EXPECT_HAS(e, "the sequence's first 300 x 451 x 3");
	dalic_pipeline_destroy(p);
	tl_write_text(path, "not an image");
	p = sq_pipeline(root, 1, 2, 1, 1);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "frame 'a/1.jpg': ");
	dalic_pipeline_destroy(p);
	p = sq_pipeline(root, 1, 2, 0, 1);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Step must be positive");
	dalic_pipeline_destroy(p);
	p = sq_pipeline(root, 1, 9, 1, 1);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "No files found");
	dalic_pipeline_destroy(p);
}
