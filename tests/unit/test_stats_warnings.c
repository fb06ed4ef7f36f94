/*
 * The stats collector keeps the operators' data-quality warnings (issue 20): the snapshot's
 * warnings with operator, iteration, sample, file and message, the per-operator count, and
 * the JSON document's "warnings" object (schema version 2, validated against
 * docs/stats-schema.md). Files from the damaged set (tests/testlib/damage.c).
 */
#include "tests/testlib/damage.h"
#include "tests/testlib/schema_check.h"

#include "dalic_stats.h"

#include <sys/stat.h>

TestSuite(stats_warnings, .timeout = 60, .fini = tl_tmpdir_remove);

Test(stats_warnings, snapshot_and_json_hold_every_warning)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	const char *files[] = {"arith.jpg", "arith_flip3.jpg", "gray_flip1.jpg"};
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", set));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 3, files));
	dalic_op_t *dec = tl_op(p, "decoders.image");
	ASSERT_OK(dalic_op_set_name(dec, "dec"));
	tl_input(dec, dalic_op_output(rd, 0));
	tl_output(p, dec);
	dalic_stats_options_t so;
	dalic_stats_options_init(&so);
	dalic_stats_t *s;
	ASSERT_OK(dalic_stats_create(p, &so, &s));
	ASSERT_OK(dalic_pipeline_build(p));
	tl_run(p, 0);
	dalic_stats_snapshot_t *snap;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	/* arith_flip3.jpg: two messages, gray_flip1.jpg: one */
	cr_assert_eq(snap->num_warnings, 3);
	cr_expect_eq(snap->warnings_dropped, 0);
	int flip3 = 0, gray = 0;
	for (int64_t i = 0; i < snap->num_warnings; i++) {
		const dalic_warning_t *w = &snap->warnings[i];
		cr_expect_str_eq(w->op, "dec");
		cr_expect_eq(w->iteration, 0);
		if (!strcmp(w->source, "arith_flip3.jpg")) {
			flip3++;
			cr_expect_eq(w->sample, 1);
		} else {
			cr_expect_str_eq(w->source, "gray_flip1.jpg");
			cr_expect_str_eq(w->message,
			                 "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9");
			cr_expect_eq(w->sample, 2);
			gray++;
		}
	}
	cr_expect(flip3 == 2 && gray == 1, "%d entries for arith_flip3, %d for gray_flip1", flip3,
	          gray);
	const dalic_stats_operator_t *op = dalic_stats_find_operator(snap, "dec");
	cr_assert_not_null(op);
	cr_expect_eq(op->warnings, 3);
	cr_expect_eq(dalic_stats_find_operator(snap, dalic_op_name(rd))->warnings, 0);

	char *text = dalic_stats_json(snap);
	cJSON *doc = cJSON_Parse(text);
	cr_assert_not_null(doc);
	cJSON *sc = tl_schema_load("docs/stats-schema.md");
	char err[512];
	cr_expect(tl_schema_validate(sc, sc, doc, err, sizeof err), "%s", err);
	cJSON *w = cJSON_GetObjectItemCaseSensitive(doc, "warnings");
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(w, "total")->valueint, 3);
	cJSON *entries = cJSON_GetObjectItemCaseSensitive(w, "entries");
	cr_assert_eq(cJSON_GetArraySize(entries), 3);
	cJSON *e0 = cJSON_GetArrayItem(entries, 0);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(e0, "operator")->valuestring, "dec");
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(e0, "op")->valuestring,
	                 "decoders__Image");
	cJSON_Delete(sc);
	cJSON_Delete(doc);
	free(text);

	/* a reset starts over */
	dalic_stats_reset(s);
	dalic_stats_snapshot_free(snap);
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect_eq(snap->num_warnings, 0);
	dalic_stats_snapshot_free(snap);
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(s);
	dalic_stats_destroy(s);
}
