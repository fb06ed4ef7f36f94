/*
 * Entry points of the script front end: read the file, parse it, run it (pipelines are
 * created and traced as the script runs, subclasses' define_graph at the end), then hand
 * out the graph definition of the pipeline asked for — by the variable it was first bound
 * to or by its function / class name — and free everything else with the load's arena.
 */
#include "frontend/script.h"

#include "engine/error.h"
#include "frontend/script/dali/sdali.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCRIPT_BYTES (64u << 20)

static _Thread_local FILE *print_stream;

void dalic_script_set_print_stream(FILE *f)
{
	print_stream = f;
}

static int script_read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return dalic_fail(DALIC_EIO, "cannot read pipeline script '%s': %s", path,
		                  strerror(errno));
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (n + 1 >= cap) {
			if (cap >= MAX_SCRIPT_BYTES) {
				free(buf);
				fclose(f);
				return dalic_fail(DALIC_EINVAL,
				                  "pipeline script '%s' is larger than %u "
				                  "MiB",
				                  path, MAX_SCRIPT_BYTES >> 20);
			}
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
	}
	bool failed = ferror(f);
	fclose(f);
	if (!buf)
		return dalic_fail(DALIC_ENOMEM, "out of memory reading '%s'", path);
	if (failed) {
		free(buf);
		return dalic_fail(DALIC_EIO, "cannot read pipeline script '%s'", path);
	}
	buf[n] = 0;
	if (memchr(buf, 0, n)) {
		free(buf);
		return dalic_fail(DALIC_EPARSE, "'%s' is not a text file (it contains NUL bytes)",
		                  path);
	}
	*text = buf;
	*len = n;
	return DALIC_OK;
}

typedef struct load {
	pysrc_t src;
	char *text;
	pyinterp_t I;
	sdstate_t S;
} load_t;

static void script_load_free(load_t *L)
{
	dalic_sdali_close(&L->S);
	dalic_pystate_close(&L->I);
	free(L->text);
}

static int script_load_run(load_t *L, const char *path)
{
	memset(L, 0, sizeof *L);
	int rc = script_read_file(path, &L->text, &L->src.len);
	if (rc)
		return rc;
	L->src.path = path;
	L->src.text = L->text;
	DALIC_TRY(dalic_pystate_open(&L->I, &L->src, print_stream ? print_stream : stdout));
	DALIC_TRY(dalic_sdali_open(&L->I, &L->S));
	rc = dalic_pystate_run(&L->I);
	if (rc == DALIC_OK)
		rc = dalic_sdali_finish(&L->I);
	return rc < 0 ? rc : DALIC_OK;
}

static const char *script_pipe_name(const sdpipe_t *p)
{
	return p->var_name ? p->var_name : p->def_name;
}

static int script_no_pipeline(load_t *L, const char *path)
{
	if (L->I.first_skipped)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: the script creates no pipeline; a statement that could "
		                  "not be evaluated was skipped:\n%s",
		                  path, L->I.first_skipped);
	return dalic_fail(DALIC_EINVAL,
	                  "%s: the script creates no pipeline (call a @pipeline_def function, "
	                  "create a Pipeline object or a Pipeline subclass)",
	                  path);
}

int dalic_script_load(const char *path, const char *pipeline, dalic_graphdef_t **out)
{
	*out = NULL;
	load_t L;
	int rc = script_load_run(&L, path);
	sdpipe_t *chosen = NULL;
	if (!rc && !L.S.npipes)
		rc = script_no_pipeline(&L, path);
	for (int pass = 0; !rc && pipeline && pass < 2 && !chosen; pass++)
		for (int i = 0; i < L.S.npipes && !chosen; i++) {
			const char *n = pass ? L.S.pipes[i]->def_name : L.S.pipes[i]->var_name;
			if (n && !strcmp(n, pipeline))
				chosen = L.S.pipes[i];
		}
	if (!rc && !pipeline)
		chosen = L.S.pipes[0];
	if (!rc && !chosen) {
		char list[512] = "";
		size_t k = 0;
		for (int i = 0; i < L.S.npipes && k < sizeof list; i++)
			k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
			                      script_pipe_name(L.S.pipes[i]));
		rc = dalic_fail(DALIC_EINVAL, "%s: no pipeline named '%s' (the script creates: %s)",
		                path, pipeline, list);
	}
	if (!rc && !chosen->outputs_set)
		rc =
		    dalic_pysrc_error(&L.src, chosen->line, chosen->col, DALIC_EGRAPH,
		                      "pipeline '%s' has no outputs: return them from the pipeline "
		                      "function, call set_outputs() or override define_graph()",
		                      script_pipe_name(chosen));
	if (!rc) {
		dalic_graphdef_t *def = chosen->def;
		free(def->source);
		free(def->name);
		def->source = strdup(path);
		def->name = strdup(script_pipe_name(chosen));
		if (!def->source || !def->name) {
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
		} else {
			/* operator positions point at the definition's own copy of the path */
			for (int i = 0; i < def->num_ops; i++)
				def->ops[i]->pos.file = def->source;
			chosen->def = NULL;
			*out = def;
		}
	}
	script_load_free(&L);
	return rc;
}

int dalic_script_list(const char *path, char ***names, int *count)
{
	*names = NULL;
	*count = 0;
	load_t L;
	int rc = script_load_run(&L, path);
	char **v = NULL;
	if (!rc && (v = calloc((size_t)L.S.npipes + 1, sizeof *v)) == NULL)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < L.S.npipes; i++)
		if (!(v[i] = strdup(script_pipe_name(L.S.pipes[i]))))
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (rc) {
		for (int i = 0; v && v[i]; i++)
			free(v[i]);
		free(v);
	} else {
		*names = v;
		*count = L.S.npipes;
	}
	script_load_free(&L);
	return rc;
}
