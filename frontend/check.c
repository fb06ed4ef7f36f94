/*
 * The pipeline linter behind `dalic check` (dalic_check_module in dalic.h): every pipeline a
 * module defines is loaded as DALI would import and build it, and what DALI would refuse or
 * what would bite later is reported at the operator's file:line:col:
 *  - the module or a pipeline does not load (the located error of the load);
 *  - gpu / mixed operators or `.gpu()` data in a CPU-only pipeline (DALI refuses at build);
 *  - graph errors of the build: stage order (a cpu operator fed from the GPU), unknown
 *    outputs, argument inputs on the GPU...;
 *  - operators that cannot be serialized (python_function: DALI's IsSerializable; a
 *    warning: the pipeline runs, but never as a .pb file);
 *  - an external source whose Python source gives fewer batches than the pipeline
 *    prefetches (DALI can wait for batches that never come: NVIDIA/DALI#2551, #5199);
 *  - random operators in a pipeline without a seed (a seed from the clock: runs differ and
 *    DALI serializes whichever it picked).
 * Devices are checked apart from the rest: the build check pretends a device, so one
 * `.gpu()` does not hide the other problems of a CPU-only definition.
 */
#include "dalic.h"

#include "engine/error.h"
#include "engine/pipeline.h"
#include "engine/schema.h"
#include "frontend/script.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check {
	FILE *f;
	const char *path;
	const char *pipe;
	int errors, warnings;
} check_t;

/* One finding: "file:line:col: error|warning: pipeline 'name': message". */
static void check_report(check_t *c, const dalic_srcpos_t *pos, bool error, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));

static void check_report(check_t *c, const dalic_srcpos_t *pos, bool error, const char *fmt, ...)
{
	if (pos && pos->file)
		fprintf(c->f, "%s:%d:%d: ", pos->file, pos->line, pos->col);
	else
		fprintf(c->f, "%s: ", c->path);
	fprintf(c->f, "%s: ", error ? "error" : "warning");
	if (c->pipe)
		fprintf(c->f, "pipeline '%s': ", c->pipe);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->f, fmt, ap);
	va_end(ap);
	fputc('\n', c->f);
	*(error ? &c->errors : &c->warnings) += 1;
}

/* The first line of the current error message (located messages add source and caret); a
 * line ending in ':' continues on the next, which is joined ("...was skipped: file:l:c: ..."). */
static const char *check_first_line(char *buf, size_t n)
{
	snprintf(buf, n, "%s", dalic_last_error());
	char *nl = strchr(buf, '\n');
	if (nl && nl > buf && nl[-1] == ':' && nl[1]) {
		*nl = ' ';
		nl = strchr(nl + 1, '\n');
	}
	if (nl)
		*nl = 0;
	return buf;
}

/* A load error: its message is located already ("file:line:col: text"). */
static void check_report_located(check_t *c, const char *msg)
{
	if (c->pipe)
		fprintf(c->f, "%s (pipeline '%s')\n", msg, c->pipe);
	else
		fprintf(c->f, "%s\n", msg);
	c->errors++;
}

/* ---- the checks ------------------------------------------------------------------------- */

static bool check_gpu_device(const char *d)
{
	return d && (!strcmp(d, "gpu") || !strcmp(d, "mixed"));
}

/* gpu and mixed operators, and `.gpu()` data, in a CPU-only definition */
static void check_devices(check_t *c, const dalic_graphdef_t *def)
{
	if (def->params.device_id != DALIC_CPU_ONLY_DEVICE_ID)
		return;
	for (int i = 0; i < def->num_ops; i++) {
		const dalic_opdef_t *op = def->ops[i];
		if (check_gpu_device(op->device)) {
			check_report(c, &op->pos, true,
			             "operator '%s' (%s) runs on '%s' in a CPU-only pipeline "
			             "(device_id=None): DALI refuses it when it builds",
			             op->inst, op->schema->name, op->device);
			continue;
		}
		for (int k = 0; k < op->num_regular_inputs; k++)
			if (op->inputs[k].device && !strcmp(op->inputs[k].device, "gpu")) {
				check_report(c, &op->pos, true,
				             "operator '%s' takes '%s' from the GPU (.gpu()) in a "
				             "CPU-only pipeline (device_id=None): DALI refuses it when "
				             "it builds",
				             op->inst, op->inputs[k].name);
				break;
			}
	}
	for (int i = 0; i < def->num_outputs; i++) {
		const dalic_io_t *o = &def->outputs[i];
		if (!o->device || strcmp(o->device, "gpu"))
			continue;
		int k;
		const dalic_opdef_t *op = dalic_graphdef_producer(def, o->name, &k);
		if (op && check_gpu_device(op->device))
			continue; /* reported with its operator */
		check_report(c, op ? &op->pos : NULL, true,
		             "output %d ('%s') is moved to the GPU (.gpu()) in a CPU-only pipeline "
		             "(device_id=None): DALI refuses it when it builds",
		             i, o->name);
	}
}

/* Whether name occurs in msg as a whole word; *at its first place. */
static bool check_word_at(const char *msg, const char *name, const char **at)
{
	size_t n = strlen(name);
	for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
		bool before = p == msg || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
		                            (p[-1] >= 'A' && p[-1] <= 'Z') ||
		                            (p[-1] >= 'a' && p[-1] <= 'z'));
		char c = p[n];
		bool after = !(c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		               (c >= 'a' && c <= 'z'));
		if (before && after) {
			*at = p;
			return true;
		}
	}
	return false;
}

/* The operator a graph error names first ("Op __Rotate_2 of type cpu ..."), for its
 * position. */
static const dalic_opdef_t *check_named_op(const dalic_graphdef_t *def, const char *msg)
{
	const dalic_opdef_t *best = NULL;
	const char *best_at = NULL, *at;
	for (int i = 0; i < def->num_ops; i++)
		if (check_word_at(msg, def->ops[i]->inst, &at) && (!best_at || at < best_at)) {
			best = def->ops[i];
			best_at = at;
		}
	return best;
}

/* The build DALI does: every error but those of devices (checked apart). */
static void check_build(check_t *c, dalic_pipeline_t *p, dalic_graphdef_t *def)
{
	int device_id = def->params.device_id;
	if (device_id == DALIC_CPU_ONLY_DEVICE_ID)
		def->params.device_id = 0;
	int rc = dalic_pipeline_validate(p);
	def->params.device_id = device_id;
	if (!rc)
		return;
	char msg[DALIC_ERRMSG_MAX];
	check_first_line(msg, sizeof msg);
	const dalic_opdef_t *op = check_named_op(def, msg);
	check_report(c, op ? &op->pos : NULL, true, "the graph does not build: %s", msg);
}

/* Serialization as DALI's Pipeline.serialize() (on a copy: it fixes the seed). */
static void check_serialize(check_t *c, const dalic_pipeline_t *p, const dalic_graphdef_t *def)
{
	for (int i = 0; i < def->num_ops; i++)
		if (def->ops[i]->schema->not_serializable)
			check_report(c, &def->ops[i]->pos, false,
			             "operator '%s' (%s) cannot be serialized (DALI: Could not "
			             "serialize the operator): the pipeline cannot become a .pb file "
			             "(Triton, other processes)",
			             def->ops[i]->inst, def->ops[i]->schema->name);
	dalic_pipeline_t *copy = NULL;
	void *buf = NULL;
	size_t len = 0;
	int rc = dalic_pipeline_clone(p, NULL, &copy);
	if (!rc)
		rc = dalic_pipeline_serialize(copy, &buf, &len);
	free(buf);
	dalic_pipeline_destroy(copy);
	if (rc && rc != DALIC_EGRAPH && rc != DALIC_EUNSUPPORTED) {
		char msg[DALIC_ERRMSG_MAX];
		check_report(c, NULL, false, "serialize() fails: %s",
		             check_first_line(msg, sizeof msg));
	}
}

/* An external source with fewer batches than the prefetch queue holds. */
static void check_prefetch(check_t *c, const dalic_graphdef_t *def)
{
	int depth = def->params.prefetch_cpu > def->params.prefetch_gpu ? def->params.prefetch_cpu
	                                                                   : def->params.prefetch_gpu;
	if (!def->params.separated_queues)
		depth = def->params.prefetch_cpu;
	for (int i = 0; i < def->num_ops; i++) {
		const dalic_opdef_t *op = def->ops[i];
		if (!op->schema->is_input || op->source_batches < 0 || op->source_batches >= depth)
			continue;
		check_report(c, &op->pos, false,
		             "external source '%s' gives %d batch%s but the pipeline prefetches %d "
		             "(prefetch_queue_depth): DALI can wait for batches that never come "
		             "(NVIDIA/DALI#2551, #5199); lower prefetch_queue_depth or cycle the "
		             "source",
		             op->inst, op->source_batches, op->source_batches == 1 ? "" : "es",
		             depth);
	}
}

/* Random operators with no seed from the pipeline or their own `seed` argument. */
static void check_seed(check_t *c, const dalic_graphdef_t *def)
{
	if (def->params.seed >= 0)
		return;
	const dalic_opdef_t *first = NULL;
	int n = 0;
	for (int i = 0; i < def->num_ops; i++) {
		const dalic_opdef_t *op = def->ops[i];
		if (!op->schema->random || dalic_graphdef_op_arg(op, "seed"))
			continue;
		/* a reader draws only to shuffle */
		const dalic_value_t *shuffle = dalic_graphdef_op_arg(op, "random_shuffle");
		if (op->schema->is_reader &&
		    !(shuffle && shuffle->kind == DALIC_V_BOOL && shuffle->n && shuffle->b[0]))
			continue;
		if (!first)
			first = op;
		n++;
	}
	if (!first)
		return;
	check_report(c, &first->pos, false,
	             "random operator '%s' (%s)%s draws from a seed picked from the clock: each "
	             "run differs, and DALI serializes whichever seed it picked; give the "
	             "pipeline seed=N",
	             first->inst, first->schema->fn ? first->schema->fn : first->schema->name,
	             n > 1 ? " and the other random operators" : "");
}

/* ---- modules ---------------------------------------------------------------------------- */

/* defined: a function or class the module defines without building it; one whose arguments
 * have no defaults is not built (the run names them with --arg), which is no error. */
static bool check_pipeline(check_t *c, const char *name, bool defined,
                           const dalic_pipeline_override_t *o)
{
	dalic_pipeline_t *p = NULL;
	int errors = c->errors;
	c->pipe = name;
	int rc = dalic_pipeline_load(c->path, name, o, &p);
	if (rc) {
		char msg[DALIC_ERRMSG_MAX];
		check_first_line(msg, sizeof msg);
		if (defined && (strstr(msg, ": pass --arg ") || strstr(msg, "has no batch size"))) {
			check_report(c, NULL, false, "not built: it needs arguments (%s)", msg);
			c->pipe = NULL;
			return true;
		}
		check_report_located(c, msg);
		c->pipe = NULL;
		return false;
	}
	dalic_graphdef_t *def = dalic_pipeline_graphdef(p);
	check_devices(c, def);
	check_build(c, p, def);
	check_serialize(c, p, def);
	check_prefetch(c, def);
	check_seed(c, def);
	dalic_pipeline_destroy(p);
	c->pipe = NULL;
	return c->errors == errors;
}

int dalic_check_module(const char *path, const dalic_pipeline_override_t *override, FILE *f,
                       int *pipelines, int *clean)
{
	if (!path || !f || !pipelines || !clean)
		return dalic_fail(DALIC_EINVAL, "dalic_check_module: NULL argument");
	*pipelines = *clean = 0;
	check_t c = {.f = f, .path = path};
	const char *dot = strrchr(path, '.');
	char **names = NULL;
	int n = 0, created = 0;
	if (dot && !strcmp(dot, ".py")) {
		int rc = dalic_script_list_created(path, &names, &n, &created);
		if (rc) {
			char msg[DALIC_ERRMSG_MAX];
			check_report_located(&c, check_first_line(msg, sizeof msg));
			return DALIC_OK;
		}
	}
	if (names && !n) {
		/* nothing to check: the load says why (a define-only module, a skipped line) */
		dalic_pipeline_t *p = NULL;
		char msg[DALIC_ERRMSG_MAX] = "";
		if (dalic_pipeline_load(path, NULL, override, &p))
			check_first_line(msg, sizeof msg);
		dalic_pipeline_destroy(p);
		if (*msg)
			check_report_located(&c, msg);
		else
			check_report(&c, NULL, true, "the module creates no pipeline");
		free(names);
		return DALIC_OK;
	}
	/* a module that creates pipelines is checked on those; one that only defines them, on
	 * each it defines */
	*pipelines = !names ? 1 : created ? created : n; /* a .pb file or sample is one pipeline */
	for (int i = 0; i < *pipelines; i++)
		*clean += check_pipeline(&c, names ? names[i] : NULL, names && !created, override);
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	if (fflush(f) || ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the check report");
	return DALIC_OK;
}
