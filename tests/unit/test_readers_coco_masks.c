/*
 * readers.coco's pixelwise masks and preprocessed annotation files through the public API:
 * RLE masks (count lists and compressed strings) decoded down the columns, two labels'
 * masks merged as DALI merges them (the later label wins where both are set), the output's
 * type, shape and layout; the preprocessed files written then read back to the same outputs;
 * and the errors for masks that do not cover the image, truncated or inconsistent files and
 * the arguments DALI refuses together. Polygon rasterisation is compared with real DALI in
 * tests/dali/cases/coco_pixelwise.py.
 */
#include "tests/testlib.h"

#include <stdio.h>
#include <sys/stat.h>

TestSuite(readers_coco_masks, .timeout = 30, .fini = tl_tmpdir_remove);

/* A 4 x 3 image (width 4, height 3): label 1 (category 5) covers column-major pixels 1..5,
 * label 2 (category 2, counts "444" = [4, 4, 4]) pixels 4..7. */
static const char cm_json[] =
    "{\"images\": [{\"id\": 1, \"file_name\": \"a.jpg\", \"width\": 4, \"height\": 3}],\n"
    " \"categories\": [{\"id\": 5}, {\"id\": 2}],\n"
    " \"annotations\": [\n"
    "  {\"image_id\": 1, \"category_id\": 5, \"bbox\": [0, 0, 2, 3],\n"
    "   \"segmentation\": {\"size\": [3, 4], \"counts\": [1, 5, 6]}},\n"
    "  {\"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 0, 2, 3],\n"
    "   \"segmentation\": {\"size\": [3, 4], \"counts\": \"444\"}}]}\n";

static void cm_write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "%s", path);
	cr_assert_eq(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* Up to n bytes of a file; returns how many. */
static size_t cm_read_bytes(const char *path, unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "%s", path);
	size_t got = fread(b, 1, n, f);
	fclose(f);
	return got;
}

static const char *cm_data(const char *json)
{
	static char root[300];
	snprintf(root, sizeof root, "%s", tl_tmp_path("coco"));
	mkdir(root, 0755);
	char path[400];
	snprintf(path, sizeof path, "%s/a.jpg", root);
	tl_write_text(path, "a.jpg");
	tl_write_text(tl_tmp_path("ann.json"), json);
	return root;
}

/* A reader with pixelwise masks; `pre` reads preprocessed files, `save` writes them. */
static dalic_pipeline_t *cm_pipeline(const char *root, const char *pre, const char *save)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = tl_op(p, "readers.coco");
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	if (pre)
		ASSERT_OK(dalic_op_set_string(op, "preprocessed_annotations", pre));
	else
		ASSERT_OK(dalic_op_set_string(op, "annotations_file", tl_tmp_path("ann.json")));
	if (save) {
		ASSERT_OK(dalic_op_set_bool(op, "save_preprocessed_annotations", true));
		ASSERT_OK(dalic_op_set_string(op, "save_preprocessed_annotations_dir", save));
	}
	ASSERT_OK(dalic_op_set_bool(op, "pixelwise_masks", true));
	ASSERT_OK(dalic_op_set_bool(op, "image_ids", true));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return p;
}

static void cm_expect_mask(dalic_pipeline_t *p)
{
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_eq(dalic_pipeline_num_outputs(p), 5);
	const dalic_batch_t *m = dalic_pipeline_output(p, 3);
	cr_expect_eq(dalic_batch_dtype(m), DALIC_INT32);
	cr_expect_str_eq(dalic_batch_layout(m), "HWC");
	tl_expect_shape(m, 0, 3, (int64_t[]){3, 4, 1});
	/* column-major runs [1 x 0][3 x 1][2 x 2][2 x 2][4 x 0]: pixels 4 and 5 are in both
	 * masks and take the later label */
	tl_expect_values(m, 0, 12, (double[]){0, 1, 2, 0, /**/ 1, 2, 2, 0, /**/ 1, 2, 0, 0});
	tl_expect_values(dalic_pipeline_output(p, 2), 0, 2, (double[]){1, 2});
	tl_expect_values(dalic_pipeline_output(p, 4), 0, 1, (double[]){1});
}

Test(readers_coco_masks, rle_masks_merged_by_label)
{
	dalic_pipeline_t *p = cm_pipeline(cm_data(cm_json), NULL, NULL);
	cm_expect_mask(p);
	dalic_pipeline_destroy(p);
}

Test(readers_coco_masks, preprocessed_files_round_trip)
{
	const char *root = cm_data(cm_json), *dir = tl_tmp_path("pre");
	mkdir(dir, 0755);
	dalic_pipeline_t *p = cm_pipeline(root, NULL, dir);
	cm_expect_mask(p);
	dalic_pipeline_destroy(p);
	/* DALI's format: a count, then the elements (2 labels; one 3 x 4 mask of 3 runs) */
	unsigned char b[80];
	cr_expect_eq(cm_read_bytes(tl_tmp_path("pre/labels.dat"), b, sizeof b), 12);
	cr_expect_eq(memcmp(b, "\2\0\0\0\1\0\0\0\2\0\0\0", 12), 0);
	size_t n = cm_read_bytes(tl_tmp_path("pre/masks_rles.dat"), b, sizeof b);
	cr_expect_eq(n, 4 + 2 * (24 + 12), "two masks of 3 runs");
	cr_expect_eq(b[4], 3, "h");
	cr_expect_eq(b[12], 4, "w");
	cr_expect_eq(b[20], 3, "m");
	cr_expect_eq(b[28], 1, "first run");
	p = cm_pipeline(root, dir, NULL);
	cm_expect_mask(p);
	dalic_pipeline_destroy(p);
	/* a truncated array file, then one count too many per sample */
	cm_write_bytes(tl_tmp_path("pre/boxes.dat"), "\x08", 1);
	p = cm_pipeline(root, dir, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "pre/boxes.dat': Read 1 bytes but requested 4");
	dalic_pipeline_destroy(p);
	cm_write_bytes(tl_tmp_path("pre/boxes.dat"), "\1\0\0\0\0\0\0\0", 8);
	p = cm_pipeline(root, dir, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "the ranges of sample 0 ('a.jpg') run past the data");
	dalic_pipeline_destroy(p);
	p = cm_pipeline(root, tl_tmp_path("nothing"), NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "No files found.");
	dalic_pipeline_destroy(p);
}

Test(readers_coco_masks, masks_that_do_not_fit_and_refused_arguments)
{
	const char *root = cm_data(
	    "{\"images\": [{\"id\": 1, \"file_name\": \"a.jpg\", \"width\": 4, \"height\": 3}],\n"
	    " \"annotations\": [{\"image_id\": 1, \"category_id\": 5, \"bbox\": [0, 0, 2, 3],\n"
	    "   \"segmentation\": {\"size\": [3, 4], \"counts\": [1, 2]}}]}\n");
	dalic_pipeline_t *p = cm_pipeline(root, NULL, NULL);
	const char *e = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(e, "pixelwise_masks: an RLE segmentation covers 3 pixels, the image 3 x 4 has 12");
	EXPECT_HAS(e, "a.jpg");
	dalic_pipeline_destroy(p);
	cm_data("{\"images\": [{\"id\": 1, \"file_name\": \"a.jpg\", \"width\": 4, \"height\": 3}],\n"
	        " \"annotations\": [{\"image_id\": 1, \"category_id\": 5, \"bbox\": [0, 0, 2, 3],\n"
	        "   \"segmentation\": {\"size\": [3, 4], \"counts\": \"4~\"}}]}\n");
	p = cm_pipeline(root, NULL, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "malformed RLE 'counts' string at character 1");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	dalic_op_t *op = tl_op(p, "readers.coco");
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_bool(op, "pixelwise_masks", true));
	ASSERT_OK(dalic_op_set_bool(op, "polygon_masks", true));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "are mutually exclusive");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	op = tl_op(p, "readers.coco");
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_bool(op, "save_preprocessed_annotations", true));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "should be provided together");
	dalic_pipeline_destroy(p);
}
