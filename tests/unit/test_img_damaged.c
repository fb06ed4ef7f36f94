/*
 * Damaged images decode as DALI 2.4 decodes them (issue 20). The set of damaged files is made
 * here (tests/testlib/damage.c) and tests/data/damaged/dali.golden says, for every file, what
 * real DALI did with it — decoders.image in each output type and decoders.image_random_crop —
 * recorded by tests/data/damaged/make_golden.py: the shape and a checksum of the pixels, or
 * the refusal. dalic must decode exactly what DALI decodes, into the same pixels, and refuse
 * what DALI refuses with an error naming the operator, the sample and the file.
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"

#include <sys/stat.h>

#include <ctype.h>

TestSuite(img_damaged, .timeout = 120, .fini = tl_tmpdir_remove);

#define DAMAGED_GOLDEN "tests/data/damaged/dali.golden"

typedef struct damaged_case {
	char file[96];
	unsigned long long file_hash;
	char decoder[32], type[16], outcome[8];
	int h, w, c;
	unsigned long long pixels_hash;
	char message[160];
} damaged_case_t;

static int damaged_type(const char *name)
{
	static const char *names[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	for (int i = 0; i < 5; i++)
		if (!strcmp(names[i], name))
			return i;
	cr_assert_fail("unknown output type %s in %s", name, DAMAGED_GOLDEN);
	return -1;
}

/* All golden lines; *n gets the count. */
static damaged_case_t *damaged_load(int *n)
{
	size_t len;
	char *text = tl_read_file(DAMAGED_GOLDEN, &len);
	int cap = 1024, count = 0;
	damaged_case_t *v = calloc((size_t)cap, sizeof *v);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		cr_assert_lt(count, cap);
		damaged_case_t *c = &v[count++];
		int used = 0;
		cr_assert_eq(sscanf(line, "%95s %llx %31s %15s %7s %n", c->file, &c->file_hash,
		                    c->decoder, c->type, c->outcome, &used),
		             5, "bad golden line: %s", line);
		if (!strcmp(c->outcome, "OK"))
			cr_assert_eq(sscanf(line + used, "%dx%dx%d %llx", &c->h, &c->w, &c->c,
			                    &c->pixels_hash),
			             4, "bad golden line: %s", line);
		else
			snprintf(c->message, sizeof c->message, "%s", line + used);
	}
	free(text);
	*n = count;
	return v;
}

/* readers.file over one file of `dir` -> decoders.<decoder> with `type`, batch 1, seed 7: the
 * pipeline make_golden.py ran under DALI. */
static dalic_pipeline_t *damaged_pipeline(const char *dir, const damaged_case_t *c)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 1;
	params.num_threads = 1;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 7;
	params.exec_pipelined = false;
	params.exec_async = false;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	dalic_op_t *rd = tl_op(p, "readers.file");
	const char *files[] = {c->file};
	ASSERT_OK(dalic_op_set_string(rd, "file_root", dir));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, files));
	char op[64];
	snprintf(op, sizeof op, "decoders.%s", c->decoder);
	dalic_op_t *dec = tl_op(p, op);
	tl_input(dec, dalic_op_output(rd, 0));
	ASSERT_OK(dalic_op_set_int(dec, "output_type", damaged_type(c->type)));
	tl_output(p, dec);
	return p;
}

/* Where dalic departs from DALI on purpose (docs/dali-differences.md): an RGBA PNG with an
 * EXIF orientation decoded to ANY_DATA — DALI 2.4 returns the unrotated pixels in the rotated
 * shape, the rest of the buffer unwritten; dalic rotates. Only the shape is compared. */
static bool damaged_shape_only(const damaged_case_t *c)
{
	return !strcmp(c->file, "png_rgba_exif6.png") && !strcmp(c->type, "ANY_DATA");
}

/* Runs one case; returns NULL when dalic agrees with DALI, else what differs. */
static const char *damaged_check(const char *dir, const damaged_case_t *c)
{
	static char why[512];
	dalic_pipeline_t *p = damaged_pipeline(dir, c);
	int rc = dalic_pipeline_build(p);
	if (!rc)
		rc = dalic_pipeline_run(p);
	bool dali_ok = strcmp(c->outcome, "ERR") != 0;
	why[0] = 0;
	if (rc && dali_ok) {
		snprintf(why, sizeof why, "dalic refuses what DALI decodes: %s", dalic_last_error());
	} else if (!rc && !dali_ok) {
		snprintf(why, sizeof why, "dalic decodes what DALI refuses (%s)", c->message);
	} else if (rc) {
		/* refused by both: the message names the operator, the sample and the file */
		const char *e = dalic_last_error();
		if (!strstr(e, "sample 0") || !strstr(e, c->file) || !strstr(e, "decoders"))
			snprintf(why, sizeof why, "the error does not name the sample and file: %s",
			         e);
	} else {
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		const int64_t *s = dalic_batch_shape(b, 0);
		size_t n = dalic_batch_sample_bytes(b, 0);
		unsigned long long h = tl_damage_hash(dalic_batch_data(b, 0), n);
		if (!strcmp(c->outcome, "CRASH")) {
			/* DALI 2.4 writes past its buffer here (grayscale JPEG to ANY_DATA); dalic
			 * gives the file's one channel (docs/dali-differences.md) */
			if (s[2] != 1)
				snprintf(why, sizeof why, "%lld channels, want the file's 1",
				         (long long)s[2]);
		} else if (s[0] != c->h || s[1] != c->w || s[2] != c->c) {
			snprintf(why, sizeof why, "shape %lldx%lldx%lld, DALI %dx%dx%d",
			         (long long)s[0], (long long)s[1], (long long)s[2], c->h, c->w, c->c);
		} else if (h != c->pixels_hash && !damaged_shape_only(c)) {
			snprintf(why, sizeof why, "pixels differ from DALI's");
		}
	}
	dalic_pipeline_destroy(p);
	return why[0] ? why : NULL;
}

Test(img_damaged, set_is_the_recorded_one)
{
	const char *dir = tl_tmp_path("set");
	cr_assert_eq(mkdir(dir, 0755), 0);
	int made = tl_damage_write_set("samples/images", dir);
	int n;
	damaged_case_t *cases = damaged_load(&n);
	cr_assert_eq(made * 6, n, "%d files made, the golden file has %d lines (6 per file)", made,
	             n);
	for (int i = 0; i < n; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, cases[i].file);
		size_t len;
		void *d = tl_read_file(path, &len);
		cr_expect_eq(tl_damage_hash(d, len), cases[i].file_hash,
		             "%s is not the file DALI saw (libjpeg or libpng encode differently?)",
		             cases[i].file);
		free(d);
	}
	free(cases);
}

Test(img_damaged, decodes_what_dali_decodes_and_refuses_what_it_refuses)
{
	const char *dir = tl_tmp_path("set");
	cr_assert_eq(mkdir(dir, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", dir), 0);
	int n, bad = 0;
	damaged_case_t *cases = damaged_load(&n);
	for (int i = 0; i < n; i++) {
		const char *why = damaged_check(dir, &cases[i]);
		if (why && bad++ < 40)
			cr_log_error("%s %s %s: %s", cases[i].file, cases[i].decoder, cases[i].type,
			             why);
	}
	cr_expect_eq(bad, 0, "%d of %d cases differ from DALI 2.4", bad, n);
	free(cases);
}
