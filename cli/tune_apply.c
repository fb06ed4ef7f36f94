/*
 * `dalic tune --apply OUT`: the recommended setting written out — a pipeline script gets a
 * copy with the pipeline_def arguments changed (stats/tune.h's rewrite), anything else (a
 * .pb, a built-in sample) a new serialized pipeline. The copy is loaded back and must carry
 * the setting's parameters, or nothing counts as applied.
 */
#include "cli/tune_report.h"

#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

static bool tune_apply_is_script(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && !strcmp(path + n - 3, ".py");
}

static bool tune_apply_same(const dalic_pipeline_params_t *a, const dalic_pipeline_params_t *b)
{
	return a->num_threads == b->num_threads && a->prefetch_cpu == b->prefetch_cpu &&
	       a->prefetch_gpu == b->prefetch_gpu && a->separated_queues == b->separated_queues &&
	       a->bytes_per_sample == b->bytes_per_sample;
}

/* The script's own parameters (no command-line flags) against the chosen ones. */
static int tune_apply_script(const dalic_cli_pipeline_opts_t *o, const dalic_tune_setting_t *s,
                             const char *out)
{
	if (s->per_op_hints)
		return dalic_cli_fail(DALIC_EUNSUPPORTED,
		                      "--apply writes pipeline_def arguments into a script; paste the "
		                      "per-operator bytes_per_sample_hint lines above into the calls");
	dalic_pipeline_t *raw = NULL;
	void *src = NULL;
	size_t len = 0;
	char *text = NULL;
	int rc = dalic_pipeline_load(o->path, o->pipeline, NULL, &raw);
	if (!rc)
		rc = dalic_cli_slurp(o->path, &src, &len) ? DALIC_EIO : DALIC_OK;
	if (!rc)
		rc = dalic_tune_rewrite_script(src, o->path, dalic_pipeline_params(raw), &s->params,
		                               &text);
	if (rc && rc != DALIC_EIO)
		dalic_cli_error(rc);
	if (!rc)
		rc = dalic_cli_save(out, text, strlen(text));
	free(text);
	free(src);
	dalic_pipeline_destroy(raw);
	return rc;
}

static int tune_apply_serialized(const dalic_tune_t *t, const dalic_tune_setting_t *s,
                                 const char *out)
{
	void *buf = NULL;
	size_t len = 0;
	int rc = dalic_tune_serialize(t, s, &buf, &len);
	if (rc)
		dalic_cli_error(rc);
	else
		rc = dalic_cli_save(out, buf, len);
	free(buf);
	return rc;
}

int dalic_tune_apply(const dalic_cli_pipeline_opts_t *o, const dalic_tune_t *t, const char *out)
{
	if (t->recommended <= 0) {
		fprintf(stderr, "dalic tune: nothing to apply: keep the current settings (%s not "
		                "written)\n", out);
		return DALIC_OK;
	}
	const dalic_tune_setting_t *s = &t->s[t->recommended];
	bool script = tune_apply_is_script(o->path);
	int rc = script ? tune_apply_script(o, s, out) : tune_apply_serialized(t, s, out);
	if (rc)
		return rc;
	dalic_pipeline_t *check = NULL;
	rc = dalic_pipeline_load(out, script ? o->pipeline : NULL, NULL, &check);
	if (rc)
		dalic_cli_fail(rc, "the copy %s does not load: %s", out, dalic_last_error());
	else if (!tune_apply_same(dalic_pipeline_params(check), &s->params))
		rc = dalic_cli_fail(DALIC_EUNSUPPORTED,
		                    "%s was written but does not carry %s (the pipeline is "
		                    "created in a way --apply cannot edit); set %s instead",
		                    out, s->name, s->flags);
	dalic_pipeline_destroy(check);
	if (!rc)
		fprintf(stderr, "dalic tune: wrote %s with %s\n", out, s->name);
	return rc;
}
