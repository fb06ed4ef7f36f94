/*
 * readers.coco through the public API on an annotations file the tests write: the image order
 * (by id, or the `images` list), boxes (xywh, ltrb, ratio), labels (remapped, unknown
 * categories as 0, or raw), size_threshold, iscrowd, skip_empty, polygons and vertices
 * (and the deprecated `masks` form), image ids, sources, and the errors for malformed
 * annotations, each naming the file and the entry. Expected values are the ones real DALI
 * 2.4 gives for the same file.
 */
#include "tests/testlib.h"

#include <sys/stat.h>

TestSuite(readers_coco, .timeout = 30, .fini = tl_tmpdir_remove);

static const char coco_json[] =
    "{\"info\": {}, \"images\": [\n"
    " {\"id\": 7, \"file_name\": \"b.jpg\", \"width\": 200, \"height\": 100},\n"
    " {\"id\": 3, \"file_name\": \"a.jpg\", \"width\": 400, \"height\": 300},\n"
    " {\"id\": 9, \"file_name\": \"c.png\", \"width\": 50, \"height\": 40}],\n"
    " \"categories\": [{\"id\": 5, \"name\": \"x\"}, {\"id\": 2, \"name\": \"y\"}],\n"
    " \"annotations\": [\n"
    "  {\"image_id\": 3, \"category_id\": 2, \"bbox\": [10.5, 20, 30, 40], \"iscrowd\": 0,\n"
    "   \"segmentation\": [[1,2,3,4,5,6],[7,8,9,10,11,12,13,14]]},\n"
    "  {\"image_id\": 7, \"category_id\": 5, \"bbox\": [1, 2, 0.05, 4], \"iscrowd\": 0,\n"
    "   \"segmentation\": [[1,1,2,2,3,3]]},\n"
    "  {\"image_id\": 3, \"category_id\": 5, \"bbox\": [0, 0, 5, 6], \"iscrowd\": 1,\n"
    "   \"segmentation\": {\"size\": [300, 400], \"counts\": [5, 10, 100]}},\n"
    "  {\"image_id\": 7, \"category_id\": 99, \"bbox\": [3, 4, 5, 6], \"iscrowd\": 0,\n"
    "   \"segmentation\": [[0,0,1,0,1,1]]}\n"
    " ]}\n";

/* The images (their bytes: their names) and the annotations file; returns the root. */
static const char *coco_data(const char *json)
{
	static char root[300];
	snprintf(root, sizeof root, "%s", tl_tmp_path("coco"));
	mkdir(root, 0755);
	const char *names[] = {"a.jpg", "b.jpg", "c.png"};
	for (int k = 0; k < 3; k++) {
		char path[400];
		snprintf(path, sizeof path, "%s/%s", root, names[k]);
		tl_write_text(path, names[k]);
	}
	tl_write_text(tl_tmp_path("ann.json"), json);
	return root;
}

static dalic_op_t *coco_reader(dalic_pipeline_t *p, const char *root)
{
	dalic_op_t *op = tl_op(p, "readers.coco");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_string(op, "annotations_file", tl_tmp_path("ann.json")));
	return op;
}

static void coco_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
}

static void coco_expect_text(const dalic_batch_t *b, int i, const char *text)
{
	tl_expect_shape(b, i, 1, (int64_t[]){(int64_t)strlen(text)});
	cr_expect_eq(memcmp(dalic_batch_data(b, i), text, strlen(text)), 0, "sample %d", i);
}

Test(readers_coco, boxes_labels_and_order)
{
	const char *root = coco_data(coco_json);
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *op = coco_reader(p, root);
	coco_outputs(p, op);
	cr_expect_eq(dalic_op_num_outputs(op), 3);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *img = dalic_pipeline_output(p, 0), *box = dalic_pipeline_output(p, 1),
	                    *lab = dalic_pipeline_output(p, 2);
	/* by id: a (3), b (7), c (9), then a again */
	coco_expect_text(img, 0, "a.jpg");
	coco_expect_text(img, 1, "b.jpg");
	coco_expect_text(img, 2, "c.png");
	coco_expect_text(img, 3, "a.jpg");
	cr_expect_str_eq(dalic_batch_source(img, 0), "a.jpg");
	cr_expect_str_eq(dalic_batch_source(box, 1), "b.jpg");
	tl_expect_shape(box, 0, 2, (int64_t[]){2, 4});
	tl_expect_values(box, 0, 8, (double[]){10.5, 20, 30, 40, 0, 0, 5, 6});
	tl_expect_values(lab, 0, 2, (double[]){2, 1}); /* category 2 is listed second */
	/* b: the 0.05-wide box is under size_threshold; category 99 is unknown: 0 */
	tl_expect_shape(box, 1, 2, (int64_t[]){1, 4});
	tl_expect_values(box, 1, 4, (double[]){3, 4, 5, 6});
	tl_expect_values(lab, 1, 1, (double[]){0});
	tl_expect_shape(box, 2, 2, (int64_t[]){0, 4});
	tl_expect_shape(lab, 2, 1, (int64_t[]){0});
	cr_expect_eq(dalic_batch_dtype(box), DALIC_FLOAT);
	cr_expect_eq(dalic_batch_dtype(lab), DALIC_INT32);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 3);
	dalic_pipeline_destroy(p);
}

Test(readers_coco, ltrb_ratio_polygons_and_ids)
{
	const char *root = coco_data(coco_json);
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = coco_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "ltrb", true));
	ASSERT_OK(dalic_op_set_bool(op, "ratio", true));
	ASSERT_OK(dalic_op_set_bool(op, "polygon_masks", true));
	ASSERT_OK(dalic_op_set_bool(op, "image_ids", true));
	coco_outputs(p, op);
	cr_expect_eq(dalic_op_num_outputs(op), 6);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *box = dalic_pipeline_output(p, 1), *poly = dalic_pipeline_output(p, 3),
	                    *vert = dalic_pipeline_output(p, 4), *ids = dalic_pipeline_output(p, 5);
	/* a (400 x 300): [10.5, 20, 10.5 + 30, 20 + 40] / [w, h, w, h] */
	tl_expect_near(box, 0, 8,
	               (double[]){10.5f / 400, 20.0f / 300, 40.5f / 400, 60.0f / 300, 0, 0,
	                          5.0f / 400, 6.0f / 300},
	               1e-7);
	tl_expect_shape(poly, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(poly, 0, 6, (double[]){0, 0, 3, 0, 3, 7});
	tl_expect_shape(vert, 0, 2, (int64_t[]){7, 2});
	double want_vert[14];
	for (int v = 0; v < 7; v++) { /* (1, 2), (3, 4) .. (13, 14) */
		want_vert[2 * v] = (2.0f * v + 1) / 400;
		want_vert[2 * v + 1] = (2.0f * v + 2) / 300;
	}
	tl_expect_near(vert, 0, 14, want_vert, 1e-7);
	tl_expect_values(ids, 0, 1, (double[]){3});
	/* b (200 x 100): one box, one polygon of mask 0 */
	tl_expect_near(box, 1, 4, (double[]){0.015, 0.04, 0.04, 0.1}, 1e-7);
	tl_expect_values(poly, 1, 3, (double[]){0, 0, 3});
	tl_expect_near(vert, 1, 6, (double[]){0, 0, 0.005, 0, 0.005, 0.01}, 1e-7);
	tl_expect_values(ids, 1, 1, (double[]){7});
	tl_expect_shape(poly, 2, 2, (int64_t[]){0, 3});
	tl_expect_shape(vert, 2, 2, (int64_t[]){0, 2});
	tl_expect_values(ids, 2, 1, (double[]){9});
	dalic_pipeline_destroy(p);

	/* the deprecated `masks`: polygon rows in coordinates */
	p = tl_pipeline(1);
	op = coco_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "masks", true));
	coco_outputs(p, op);
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_values(dalic_pipeline_output(p, 3), 0, 6, (double[]){0, 0, 6, 0, 6, 14});
	dalic_pipeline_destroy(p);
}

Test(readers_coco, filters_and_images_list)
{
	const char *root = coco_data(coco_json);
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = coco_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "skip_empty", true));
	ASSERT_OK(dalic_op_set_bool(op, "avoid_class_remapping", true));
	ASSERT_OK(dalic_op_set_bool(op, "include_iscrowd", false));
	ASSERT_OK(dalic_op_set_float(op, "size_threshold", 4.0));
	coco_outputs(p, op);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *img = dalic_pipeline_output(p, 0), *box = dalic_pipeline_output(p, 1),
	                    *lab = dalic_pipeline_output(p, 2);
	coco_expect_text(img, 0, "a.jpg");
	tl_expect_values(box, 0, 4, (double[]){10.5, 20, 30, 40});
	tl_expect_values(lab, 0, 1, (double[]){2});
	coco_expect_text(img, 1, "b.jpg");
	tl_expect_values(lab, 1, 1, (double[]){99});
	coco_expect_text(img, 2, "a.jpg"); /* c has no object left: skipped */
	dalic_pipeline_destroy(p);

	p = tl_pipeline(4);
	op = coco_reader(p, root);
	const char *images[] = {"c.png", "zzz.jpg", "b.jpg", "c.png"};
	ASSERT_OK(dalic_op_set_strings(op, "images", 4, images));
	coco_outputs(p, op);
	ASSERT_OK(dalic_pipeline_run(p));
	img = dalic_pipeline_output(p, 0);
	coco_expect_text(img, 0, "c.png");
	coco_expect_text(img, 1, "b.jpg");
	coco_expect_text(img, 2, "c.png");
	coco_expect_text(img, 3, "c.png");
	dalic_pipeline_destroy(p);
}

/* The first error of a reader on annotations `json`. */
static const char *coco_error(const char *json, const char *arg)
{
	const char *root = coco_data(json);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = coco_reader(p, root);
	if (arg)
		ASSERT_OK(dalic_op_set_bool(op, arg, true));
	coco_outputs(p, op);
	static char msg[2048];
	snprintf(msg, sizeof msg, "%s", tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_coco, malformed_annotations_name_the_file_and_entry)
{
	const struct {
		const char *json, *arg, *msg;
	} bad[] = {
	    {"{\"images\": [", NULL, "Error parsing JSON file"},
	    {"[1, 2]", NULL, "the top level is not an object"},
	    {"{\"images\": [{\"id\": 1, \"width\": 2, \"height\": 2}]}", NULL,
	     "'file_name' is missing or not a string (image 0 of"},
	    {"{\"images\": [{\"id\": 1, \"file_name\": \"a.jpg\", \"width\": 2}]}", NULL,
	     "'height' is missing or not a number (image 0 of"},
	    {"{\"categories\": [{\"id\": 1}, {\"name\": \"x\"}]}", NULL,
	     "Missing category ID in the JSON annotations file (category 1 of"},
	    {"{\"annotations\": [{}, {\"image_id\": 1, \"category_id\": 1, \"bbox\": [1, 2, 3, 4, "
	     "5]}]}",
	     NULL, "'image_id' is missing or not a number (annotation 0 of"},
	    {"{\"annotations\": [{\"image_id\": 1, \"category_id\": 1, \"bbox\": [1, 2, 3, 4, 5]}]}",
	     NULL,
	     "Invalid COCO annotation: `bbox` must contain exactly 4 values, got at least 5. "
	     "(annotation 0 of"},
	    {"{\"annotations\": [{\"image_id\": 1, \"category_id\": 1}]}", NULL,
	     "'bbox' is missing or not a list (annotation 0"},
	    {"{\"annotations\": [{\"image_id\": 1, \"category_id\": 1, \"bbox\": [1, 2, 3, 4], "
	     "\"segmentation\": [[1, 2, 3]]}]}",
	     "polygon_masks", "a polygon has an odd number of coordinates (annotation 0"},
	    {"{\"images\": []}", NULL, "No files found."},
	    {"{\"annotations\": [{\"image_id\": 1, \"category_id\": 1, \"bbox\": [1, 2, 3, 4], "
	     "\"segmentation\": {\"counts\": [1]}}]}",
	     "pixelwise_masks", "Invalid or missing mask sizes (annotation 0"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		const char *e = coco_error(bad[k].json, bad[k].arg);
		EXPECT_HAS(e, bad[k].msg, "case %zu", k);
		if (k < 9)
			EXPECT_HAS(e, tl_tmp_path("ann.json"), "case %zu", k);
	}
	/* an image the annotations list but the disk lacks */
	const char *e = coco_error("{\"images\": [{\"id\": 1, \"file_name\": \"gone.jpg\", "
	                           "\"width\": 2, \"height\": 2}]}",
	                           NULL);
	EXPECT_HAS(e, "cannot access");
	EXPECT_HAS(e, "gone.jpg");
}

/* A script with a tuple of outputs, and its protobuf, give the same boxes. */
Test(readers_coco, script_and_protobuf)
{
	const char *root = coco_data(coco_json);
	char script[1024];
	snprintf(script, sizeof script,
	         "from nvidia.dali import pipeline_def, fn\n"
	         "@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=1)\n"
	         "def p():\n"
	         "    img, box, lab, poly, vert = fn.readers.coco(file_root='%s',\n"
	         "        annotations_file='%s', polygon_masks=True, ltrb=True)\n"
	         "    return box, poly\n"
	         "pipe = p()\n",
	         root, tl_tmp_path("ann.json"));
	const char *py = tl_write_temp("coco", ".py", script);
	const char *pb = tl_tmp_path("coco.pb");
	tl_cmd_t c = tl_dalic(NULL, "serialize %s -o %s", py, pb);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	const char *defs[] = {py, pb};
	for (int d = 0; d < 2; d++) {
		dalic_pipeline_t *p = NULL;
		ASSERT_OK(dalic_pipeline_load(defs[d], NULL, NULL, &p));
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_values(dalic_pipeline_output(p, 0), 0, 8,
		                 (double[]){10.5, 20, 40.5, 60, 0, 0, 5, 6});
		tl_expect_values(dalic_pipeline_output(p, 1), 1, 3, (double[]){0, 0, 3});
		dalic_pipeline_destroy(p);
	}
}
