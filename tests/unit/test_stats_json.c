/*
 * The exporters people and scripts read: the stats JSON validated against the schema in
 * docs/stats-schema.md (and the validator shown able to reject), its executor_statistics
 * matching the snapshot, the schema itself checked by a full JSON Schema validator when
 * python3-jsonschema is installed, and the plain-text report parsed as `key: value` sections.
 */
#include "tests/testlib/schema_check.h"
#include "tests/testlib.h"

#include <stdio.h>
#include <unistd.h>

TestSuite(stats_json, .timeout = 60);

#define SCHEMA_MD "docs/stats-schema.md"

static dalic_stats_snapshot_t *stats_json_sample_snapshot(const tl_mode_t *m, bool mem)
{
	dalic_pipeline_t *p = tl_stats_pipeline(m, 6, mem);
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	dalic_op_t *cast = tl_stats_op(p, "cast", "coin");
	ASSERT_OK(dalic_op_set_name(cast, "wide"));
	ASSERT_OK(dalic_op_set_int(cast, "dtype", DALIC_INT64));
	ASSERT_OK(dalic_pipeline_add_output(p, "wide", NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, "coin", NULL));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 5);
	tl_stats_wait_idle(s, m, 5);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	dalic_stats_destroy(s);
	return snap;
}

static cJSON *stats_json_schema(void)
{
	cJSON *sc = tl_schema_load(SCHEMA_MD);
	cr_assert(sc, "no ```json schema block in %s (tests run from the repository root)",
	          SCHEMA_MD);
	return sc;
}

Test(stats_json, document_matches_its_schema_in_every_mode)
{
	cJSON *sc = stats_json_schema();
	for (int m = 0; m < TL_NUM_MODES; m++)
		for (int mem = 0; mem < 2; mem++) {
			dalic_stats_snapshot_t *snap =
			    stats_json_sample_snapshot(&tl_modes[m], mem);
			char *text = dalic_stats_json(snap);
			cr_assert(text);
			cJSON *doc = cJSON_Parse(text);
			cr_assert(doc, "not JSON: %.200s", text);
			char err[512];
			cr_expect(tl_schema_validate(sc, sc, doc, err, sizeof err), "%s (%s): %s",
			          tl_modes[m].name, mem ? "memory stats" : "no memory stats", err);
			cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
			cr_expect_eq(v->valueint, DALIC_STATS_SCHEMA_VERSION);
			cJSON *es = cJSON_GetObjectItemCaseSensitive(doc, "executor_statistics");
			/* coin, wide and the two MakeContiguous */
			cr_expect_eq(cJSON_GetArraySize(es), mem ? 4 : 0, "%s", tl_modes[m].name);
			if (mem) {
				cJSON *w = cJSON_GetObjectItemCaseSensitive(es, "CPU_wide");
				cr_assert(w, "CPU_wide missing");
				cJSON *real =
				    cJSON_GetObjectItemCaseSensitive(w, "real_memory_size");
				cr_expect_eq(cJSON_GetArrayItem(real, 0)->valuedouble, 6 * 8);
				cJSON *mr =
				    cJSON_GetObjectItemCaseSensitive(w, "max_real_memory_size");
				cr_expect_eq(cJSON_GetArrayItem(mr, 0)->valuedouble, 8);
			}
			cJSON_Delete(doc);
			free(text);
			dalic_stats_snapshot_free(snap);
		}
	cJSON_Delete(sc);
}

Test(stats_json, validator_rejects_broken_documents)
{
	cJSON *sc = stats_json_schema();
	dalic_stats_snapshot_t *snap = stats_json_sample_snapshot(&tl_modes[0], true);
	char *text = dalic_stats_json(snap);
	char err[512];
	/* a missing required key */
	cJSON *doc = cJSON_Parse(text);
	cJSON_DeleteItemFromObjectCaseSensitive(doc, "iterations");
	cr_expect(!tl_schema_validate(sc, sc, doc, err, sizeof err));
	EXPECT_HAS(err, "iterations");
	cJSON_Delete(doc);
	/* a wrong type deep inside */
	doc = cJSON_Parse(text);
	cJSON *ops = cJSON_GetObjectItemCaseSensitive(doc, "operators");
	cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ops, 0), "time");
	cJSON_ReplaceItemInObjectCaseSensitive(t, "p99_ns", cJSON_CreateString("fast"));
	cr_expect(!tl_schema_validate(sc, sc, doc, err, sizeof err));
	EXPECT_HAS(err, "p99_ns");
	cJSON_Delete(doc);
	/* an executor_statistics key that is not <STAGE>_<name> */
	doc = cJSON_Parse(text);
	cJSON *es = cJSON_GetObjectItemCaseSensitive(doc, "executor_statistics");
	cJSON_AddItemToObject(es, "coin", cJSON_CreateObject());
	cr_expect(!tl_schema_validate(sc, sc, doc, err, sizeof err));
	cJSON_Delete(doc);
	/* a negative size */
	doc = cJSON_Parse(text);
	es = cJSON_GetObjectItemCaseSensitive(doc, "executor_statistics");
	cJSON *real = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(es, "CPU_coin"), "real_memory_size");
	cJSON_ReplaceItemInArray(real, 0, cJSON_CreateNumber(-1));
	cr_expect(!tl_schema_validate(sc, sc, doc, err, sizeof err));
	cJSON_Delete(doc);
	free(text);
	dalic_stats_snapshot_free(snap);
	cJSON_Delete(sc);
}

Test(stats_json, json_numbers_match_the_snapshot)
{
	dalic_stats_snapshot_t *snap = stats_json_sample_snapshot(&tl_modes[1], true);
	char *text = dalic_stats_json(snap);
	cJSON *doc = cJSON_Parse(text);
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(doc, "iterations")->valuedouble,
	             (double)snap->iterations);
	cJSON *ops = cJSON_GetObjectItemCaseSensitive(doc, "operators");
	cr_assert_eq(cJSON_GetArraySize(ops), snap->num_operators);
	for (int i = 0; i < snap->num_operators; i++) {
		cJSON *o = cJSON_GetArrayItem(ops, i);
		cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(o, "name")->valuestring,
		                 snap->operators[i].name);
		cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "time");
		cr_expect_eq(cJSON_GetObjectItemCaseSensitive(t, "count")->valuedouble,
		             (double)snap->operators[i].time.count);
		cJSON *outs = cJSON_GetObjectItemCaseSensitive(o, "outputs");
		cJSON *o0 = cJSON_GetArrayItem(outs, 0);
		cr_expect_eq(cJSON_GetObjectItemCaseSensitive(o0, "suggested_bytes_per_sample_hint")
		                 ->valuedouble,
		             (double)snap->operators[i].outputs[0].max_real_memory_size);
	}
	cJSON *b = cJSON_GetObjectItemCaseSensitive(doc, "bottleneck");
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(b, "operator")->valuestring,
	                 snap->operators[snap->bottleneck_operator].name);
	cJSON_Delete(doc);
	free(text);
	dalic_stats_snapshot_free(snap);
}

Test(stats_json, schema_is_valid_json_schema)
{
	if (system("python3 -c 'import jsonschema' 2>/dev/null") != 0)
		cr_skip_test("python3-jsonschema is not installed");
	cJSON *sc = stats_json_schema();
	char *text = cJSON_PrintUnformatted(sc);
	char path[128];
	snprintf(path, sizeof path, "%s", tl_write_temp("stats_schema", ".json", text));
	/* the document of a real run also passes the full validator */
	dalic_stats_snapshot_t *snap = stats_json_sample_snapshot(&tl_modes[2], true);
	char *doc = dalic_stats_json(snap);
	const char *dpath = tl_write_temp("stats_doc", ".json", doc);
	char cmd[512];
	snprintf(cmd, sizeof cmd,
	         "python3 -c 'import json,sys,jsonschema; s=json.load(open(\"%s\")); "
	         "jsonschema.Draft202012Validator.check_schema(s); "
	         "jsonschema.validate(json.load(open(\"%s\")), s)'",
	         path, dpath);
	cr_expect_eq(system(cmd), 0, "jsonschema rejected the schema or the document");
	unlink(path);
	unlink(dpath);
	free(doc);
	free(text);
	dalic_stats_snapshot_free(snap);
	cJSON_Delete(sc);
}

Test(stats_json, report_is_key_value_sections)
{
	dalic_stats_snapshot_t *snap = stats_json_sample_snapshot(&tl_modes[0], true);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ASSERT_OK(dalic_stats_write_report(snap, f));
	fclose(f);
	int sections = 0, keys = 0;
	char seen[64][96];
	int nseen = 0;
	bool verdict = false, es = false;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#') {
			cr_expect_eq(line[1], ' ', "%s", line);
			sections++;
			nseen = 0;
			continue;
		}
		char *colon = strstr(line, ": ");
		cr_assert(colon && colon > line, "not `key: value`: '%s'", line);
		*colon = 0;
		for (int i = 0; i < nseen; i++)
			cr_expect_str_neq(seen[i], line, "key %s twice in a section", line);
		if (nseen < 64)
			snprintf(seen[nseen++], sizeof seen[0], "%s", line);
		keys++;
		verdict |= !strcmp(line, "verdict");
		es |= !strcmp(line, "CPU_coin");
		if (!strcmp(line, "CPU_coin"))
			cr_expect(strstr(colon + 2, "real_memory_size=[24]"), "%s", colon + 2);
	}
	cr_expect_geq(sections, 7);
	cr_expect_gt(keys, 30);
	cr_expect(verdict, "no verdict line");
	cr_expect(es, "no executor_statistics line for CPU_coin");
	free(buf);
	dalic_stats_snapshot_free(snap);
}
