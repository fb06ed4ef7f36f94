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
#include "frontend/script/dali/sdpyfn.h"
#include "frontend/script/dali/sdruntime.h"
#include "frontend/script/dali/sdsource.h"
#include "frontend/script/script_args.h"
#include "frontend/script_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCRIPT_BYTES (64u << 20)

static _Thread_local FILE *print_stream, *warning_stream;

void dalic_script_set_print_stream(FILE *f)
{
	print_stream = f;
}

void dalic_script_set_warning_stream(FILE *f)
{
	warning_stream = f;
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
	char *path; /* the load may outlive the caller's string (sdruntime.h) */
	char *text;
	pyinterp_t I;
	sdstate_t S;
} load_t;

static void script_load_free(load_t *L)
{
	dalic_sdali_close(&L->S);
	dalic_pystate_close(&L->I);
	free(L->text);
	free(L->path);
}

/* A load kept alive as a definition's runtime, freed with its last reference. */
static void script_load_destroy(void *load)
{
	script_load_free(load);
	free(load);
}

/* Module-level display code dalic cannot evaluate (plotting, pipe.run() results) is skipped,
 * never silently: one warning with the first such statement. In the __main__ block that
 * statement also ends the block (pyexec.c), which the warning says. */
static void script_warn_skipped(const load_t *L, bool defined)
{
	FILE *f = warning_stream ? warning_stream : stderr;
	const char *first = L->I.first_skipped ? L->I.first_skipped : L->I.main_skipped;
	if (!first)
		return;
	fprintf(f,
	        "dalic: warning: display code outside the pipeline definitions was skipped; the "
	        "first skipped statement:\n%s\n",
	        first);
	if (L->I.main_skipped) {
		size_t n = strcspn(L->I.main_skipped, "\n");
		fprintf(f,
		        "dalic: the `if __name__ == \"__main__\":` block of line %d ends at %.*s "
		        "(as an exception ends it in Python)\n",
		        L->I.main_line, (int)n, L->I.main_skipped);
	}
	if (L->I.main_skipped && defined)
		fprintf(f,
		        "dalic: the block created no pipeline: dalic uses those the module defines "
		        "(--pipeline NAME picks one, --arg NAME=VALUE gives its parameters)\n");
	fflush(f);
}

/* external_source(source=...) whose source reaches code dalic does not model: it does not
 * run; say why and how to feed it. */
static void script_warn_sources(const load_t *L, const sdpipe_t *chosen)
{
	FILE *f = warning_stream ? warning_stream : stderr;
	for (const sdsource_t *s = L->S.sources; s; s = s->next) {
		if (s->pipe != chosen || !s->refused)
			continue;
		const char *n = s->members[0].name;
		fprintf(f,
		        "dalic: warning: %s:%d:%d: external_source '%s' takes its data from a "
		        "Python source dalic cannot run (%s): give the data with --feed %s=PATH (a "
		        ".npy, a directory of samples or a file list)\n",
		        L->src.path, s->at.line, s->at.col, n, s->refused, n);
	}
	fflush(f);
}

/* Whether the chosen pipeline has a source the runtime runs. */
static bool script_runs_sources(const load_t *L, const sdpipe_t *chosen)
{
	for (const sdsource_t *s = L->S.sources; s; s = s->next)
		if (s->pipe == chosen && !s->refused)
			return true;
	return false;
}

static int script_load_run(load_t *L, const char *path)
{
	memset(L, 0, sizeof *L);
	int rc = script_read_file(path, &L->text, &L->src.len);
	if (rc)
		return rc;
	if (!(L->path = strdup(path)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	L->src.path = L->path;
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
	if (L->I.main_skipped)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: the script defines no pipeline, and its `if __name__ == "
		                  "\"__main__\":` block (line %d) stopped at a statement dalic "
		                  "cannot run:\n%s",
		                  path, L->I.main_line, L->I.main_skipped);
	if (L->I.first_skipped)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: the script creates no pipeline; a statement that could "
		                  "not be evaluated was skipped:\n%s",
		                  path, L->I.first_skipped);
	const pynode_t *f = dalic_sdfactory_foreign(&L->I);
	if (f)
		return dalic_fail(
		    DALIC_EINVAL,
		    "%s: the script creates no pipeline; %s:%d:%d calls %s.%s of a module "
		    "dalic cannot import (a pipeline of another file: run dalic on that "
		    "file)",
		    path, path, f->line, f->col, f->call.func->attr.value->name,
		    f->call.func->attr.attr);
	return dalic_fail(DALIC_EINVAL,
	                  "%s: the script creates no pipeline (call a @pipeline_def function, "
	                  "create a Pipeline object or a Pipeline subclass)",
	                  path);
}

/* What the module offers: the pipelines it created, then those it only defines. */
typedef struct choice {
	sddefined_t *defined;
	int ndefined;
	sdpipe_t *created;   /* the one chosen, when created */
	sddefined_t *define; /* the one chosen, when only defined */
} choice_t;

/* "creates: pipe; defines: train_pipe, val_pipe" */
static void script_list_names(load_t *L, const choice_t *c, char *list, size_t cap)
{
	size_t k = 0;
	list[0] = 0;
	for (int i = 0; i < L->S.npipes + c->ndefined && k < cap; i++) {
		bool created = i < L->S.npipes;
		const char *lead = i == 0 && created        ? "creates: "
		                   : i == L->S.npipes && i  ? "; defines: "
		                   : i == L->S.npipes       ? "defines: "
		                                            : ", ";
		k += (size_t)snprintf(list + k, cap - k, "%s%s", lead,
		                      created ? script_pipe_name(L->S.pipes[i])
		                              : c->defined[i - L->S.npipes].name);
	}
}

static int script_choose(load_t *L, const char *path, const char *pipeline, choice_t *c)
{
	memset(c, 0, sizeof *c);
	DALIC_TRY(dalic_sdpipe_defined(&L->I, &c->defined, &c->ndefined, SDPIPE_FACTORIES_ALL));
	if (!L->S.npipes && !c->ndefined)
		return script_no_pipeline(L, path);
	if (pipeline) {
		for (int pass = 0; pass < 2 && !c->created; pass++)
			for (int i = 0; i < L->S.npipes && !c->created; i++) {
				const char *n = pass ? L->S.pipes[i]->def_name : L->S.pipes[i]->var_name;
				if (n && !strcmp(n, pipeline))
					c->created = L->S.pipes[i];
			}
		for (int i = 0; i < c->ndefined && !c->created && !c->define; i++)
			if (!strcmp(c->defined[i].name, pipeline))
				c->define = &c->defined[i];
		if (c->created || c->define)
			return DALIC_OK;
		char list[512];
		script_list_names(L, c, list, sizeof list);
		return dalic_fail(DALIC_EINVAL, "%s: no pipeline named '%s' (the script %s)",
		                  path, pipeline, list);
	}
	if (L->S.npipes) {
		c->created = L->S.pipes[0];
		return DALIC_OK;
	}
	/* the pipeline definitions first; a factory is the default only when alone */
	int direct = 0;
	for (int i = 0; i < c->ndefined; i++)
		direct += !c->defined[i].factory;
	if (direct == 1 || c->ndefined == 1) {
		c->define = &c->defined[0]; /* factories come after the definitions */
		return DALIC_OK;
	}
	char list[512];
	script_list_names(L, c, list, sizeof list);
	return dalic_fail(DALIC_EINVAL,
	                  "%s builds no pipeline and %s; pick one with --pipeline NAME",
	                  path, list);
}

/* A load that fails after the __main__ block ended early says where it ended. */
static int script_note_main(load_t *L, int rc)
{
	char msg[DALIC_ERRMSG_MAX];
	snprintf(msg, sizeof msg, "%s", dalic_last_error());
	size_t n = strcspn(L->I.main_skipped, "\n");
	return dalic_fail(rc,
	                  "%s\n(the `if __name__ == \"__main__\":` block of line %d ended at %.*s)",
	                  msg, L->I.main_line, (int)n, L->I.main_skipped);
}

/* Builds the defined pipeline chosen, with --arg values. */
static int script_build_defined(load_t *L, const char *path, const dalic_script_opts_t *o,
                                choice_t *c)
{
	sdbuild_t b = {.params = o ? o->params : NULL, .fields = o ? o->fields : 0};
	int n = o ? o->num_args : 0;
	b.names = dalic_pyarena_alloc(L->I.a, sizeof *b.names * (size_t)(n + 1));
	b.values = dalic_pyarena_alloc(L->I.a, sizeof *b.values * (size_t)(n + 1));
	if (!b.names || !b.values)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		DALIC_TRY(dalic_script_parse_arg(&L->I, o->args[i], &b.names[b.nargs],
		                                 &b.values[b.nargs]));
		for (int k = 0; k < b.nargs; k++)
			if (!strcmp(b.names[k], b.names[b.nargs]))
				return dalic_fail(DALIC_EINVAL, "--arg %s given twice", b.names[k]);
		b.nargs++;
	}
	sdpipe_t *p;
	DALIC_TRY(dalic_sdpipe_build_defined(&L->I, c->define, &b, &p));
	if (p->def->params.batch_size <= 0 && !(b.fields & DALIC_PARAM_BATCH_SIZE))
		return dalic_fail(DALIC_EINVAL,
		                  "%s: %s has no batch size: give --batch-size N (or --arg "
		                  "batch_size=N)",
		                  path, c->define->name);
	c->created = p;
	return DALIC_OK;
}

/* The chosen definition takes its own copy of the path for its positions. */
static int script_own_positions(dalic_graphdef_t *def, const char *path, const char *name)
{
	free(def->source);
	free(def->name);
	def->source = strdup(path);
	def->name = strdup(name);
	if (!def->source || !def->name)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < def->num_ops; i++)
		def->ops[i]->pos.file = def->source;
	for (int i = 0; i < def->num_prints; i++)
		def->prints[i].pos.file = def->source;
	return DALIC_OK;
}

/* Prints the interpreter renders every iteration and Python sources keep the load alive as
 * def's runtime; python_function then calls into the same interpreter. */
static int script_keep_runtime(load_t *L, sdpipe_t *chosen, bool *kept)
{
	dalic_graphdef_t *def = chosen->def;
	*kept = false;
	bool needed = script_runs_sources(L, chosen);
	for (int i = 0; i < def->num_prints; i++)
		needed |= def->prints[i].eval >= 0;
	if (!needed)
		return DALIC_OK;
	sdruntime_t *rt;
	DALIC_TRY(dalic_sdruntime_new(&L->I, script_load_destroy, L, &rt));
	rt->pipe = chosen;
	dalic_graphdef_set_runtime(def, &rt->base, &dalic_sdruntime_class);
	dalic_sdpyfn_share(&L->S, &rt->base, &rt->mu);
	dalic_shared_release(&rt->base); /* def holds it now */
	*kept = true;
	return DALIC_OK;
}

int dalic_script_load_opts(const char *path, const dalic_script_opts_t *o, dalic_graphdef_t **out)
{
	*out = NULL;
	load_t *L = malloc(sizeof *L);
	if (!L)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	const char *pipeline = o ? o->pipeline : NULL;
	int rc = script_load_run(L, path);
	choice_t c = {0};
	if (!rc)
		rc = script_choose(L, path, pipeline, &c);
	if (!rc && c.define)
		rc = script_build_defined(L, path, o, &c);
	else if (!rc && o && o->num_args)
		rc = dalic_fail(DALIC_EINVAL,
		                "%s: --arg applies to a pipeline function or class the script "
		                "defines without building it; '%s' is built by the script (line "
		                "%d)",
		                path, script_pipe_name(c.created), c.created->line);
	if (rc && L->I.main_skipped)
		rc = script_note_main(L, rc);
	sdpipe_t *chosen = c.created;
	if (!rc && !chosen->outputs_set)
		rc =
		    dalic_pysrc_error(&L->src, chosen->line, chosen->col, DALIC_EGRAPH,
		                      "pipeline '%s' has no outputs: return them from the pipeline "
		                      "function, call set_outputs() or override define_graph()",
		                      script_pipe_name(chosen));
	if (!rc)
		rc = script_own_positions(chosen->def, path, script_pipe_name(chosen));
	bool kept = false;
	if (!rc)
		script_warn_skipped(L, c.define != NULL);
	if (!rc)
		script_warn_sources(L, chosen);
	if (!rc)
		rc = script_keep_runtime(L, chosen, &kept);
	if (!rc) {
		*out = chosen->def;
		chosen->def = NULL;
	}
	if (!kept)
		script_load_destroy(L);
	return rc;
}

int dalic_script_load(const char *path, const char *pipeline, dalic_graphdef_t **out)
{
	dalic_script_opts_t o = {.pipeline = pipeline};
	return dalic_script_load_opts(path, &o, out);
}

int dalic_script_list(const char *path, char ***names, int *count)
{
	int created;
	return dalic_script_list_created(path, names, count, &created);
}

int dalic_script_list_created(const char *path, char ***names, int *count, int *created)
{
	*names = NULL;
	*count = *created = 0;
	load_t L;
	int rc = script_load_run(&L, path);
	sddefined_t *defined = NULL;
	int nd = 0;
	if (!rc)
		rc = dalic_sdpipe_defined(&L.I, &defined, &nd, SDPIPE_FACTORIES_FALLBACK);
	char **v = NULL;
	if (!rc && (v = calloc((size_t)(L.S.npipes + nd) + 1, sizeof *v)) == NULL)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < L.S.npipes + nd; i++)
		if (!(v[i] = strdup(i < L.S.npipes ? script_pipe_name(L.S.pipes[i])
		                                   : defined[i - L.S.npipes].name)))
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (rc) {
		for (int i = 0; v && v[i]; i++)
			free(v[i]);
		free(v);
	} else {
		*names = v;
		*count = L.S.npipes + nd;
		*created = L.S.npipes;
	}
	script_load_free(&L);
	return rc;
}
