/* The checkpoint flags shared by the commands that open a pipeline (cli/ckpt.h). */
#include "cli/ckpt.h"

#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

int dalic_cli_ckpt_parse(int argc, char **argv, int i, dalic_cli_ckpt_opts_t *ck)
{
	const char *a = argv[i];
	bool known = !strcmp(a, "--checkpoint") || !strcmp(a, "--at") ||
	             !strcmp(a, "--save-checkpoint");
	if (!known)
		return 0;
	if (i + 1 >= argc) {
		fprintf(stderr, "dalic: %s needs a value\n", a);
		return -1;
	}
	const char *v = argv[i + 1];
	if (!strcmp(a, "--checkpoint")) {
		ck->load = v;
	} else if (!strcmp(a, "--save-checkpoint")) {
		ck->save = v;
	} else {
		char *end;
		ck->at = strtol(v, &end, 10);
		if (*end || end == v || ck->at < 0) {
			fprintf(stderr, "dalic: --at: invalid iteration '%s'\n", v);
			return -1;
		}
	}
	return 2;
}

void dalic_cli_ckpt_override(const dalic_cli_ckpt_opts_t *ck, dalic_pipeline_override_t *o)
{
	if (ck->load || ck->save) {
		o->params.enable_checkpointing = true;
		o->fields |= DALIC_PARAM_CHECKPOINTING;
	}
}

int dalic_cli_ckpt_open(const dalic_cli_ckpt_opts_t *ck, dalic_pipeline_t *p)
{
	if (ck->load) {
		void *buf = NULL;
		size_t len = 0;
		if (dalic_cli_slurp(ck->load, &buf, &len))
			return DALIC_EIO;
		int rc = dalic_pipeline_set_checkpoint(p, buf, len, ck->load);
		free(buf);
		if (rc)
			return rc;
	}
	int rc = dalic_pipeline_build(p);
	if (rc)
		return rc;
	if (ck->at < 0)
		return DALIC_OK;
	int64_t from = dalic_pipeline_position(p);
	if (ck->at < from) {
		fprintf(stderr, "dalic: --at %ld: the checkpoint is already at iteration %lld\n",
			ck->at, (long long)from);
		return DALIC_EINVAL;
	}
	char *why = NULL;
	int64_t t0 = dalic_clock_ns();
	rc = dalic_pipeline_seek(p, ck->at - from, &why);
	if (rc)
		return rc;
	if (why)
		fprintf(stderr, "dalic: seek ran %lld iterations (%.3f s) because of %s\n",
			(long long)(ck->at - from), dalic_cli_seconds_since(t0), why);
	free(why);
	return DALIC_OK;
}

int dalic_cli_ckpt_open_debug(const dalic_cli_ckpt_opts_t *ck, dalic_debug_t *s)
{
	if (ck->load && dalic_debug_checkpoint_load(s, ck->load)) {
		fprintf(stderr, "dalic: %s\n", dalic_debug_last_error(s));
		return DALIC_EINVAL;
	}
	if (ck->at < 0)
		return DALIC_OK;
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	if (ck->at < st.iteration) {
		fprintf(stderr, "dalic: --at %ld: the checkpoint is already at iteration %lld\n",
			ck->at, (long long)st.iteration);
		return DALIC_EINVAL;
	}
	if (dalic_debug_goto(s, ck->at)) {
		fprintf(stderr, "dalic: --at %ld: %s\n", ck->at, dalic_debug_last_error(s));
		return DALIC_EINVAL;
	}
	return DALIC_OK;
}

int dalic_cli_ckpt_save(dalic_pipeline_t *p, const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = dalic_pipeline_checkpoint(p, &buf, &len);
	if (rc)
		return rc;
	rc = dalic_cli_save(path, buf, len);
	free(buf);
	return rc ? DALIC_EIO : DALIC_OK;
}
