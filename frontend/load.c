/*
 * The front door of include/dalic.h: a pipeline from a file (script, serialized protobuf or
 * built-in sample) or from serialized bytes, and a pipeline back to bytes. Parameters come
 * from the definition, then the call that creates it in a script, then the caller's override
 * (later wins) — the rule every command of the dalic tool follows.
 */
#include "dalic.h"

#include "engine/error.h"
#include "engine/pipeline.h"
#include "frontend/proto/proto.h"
#include "frontend/samples.h"
#include "frontend/script.h"
#include "frontend/script_output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void load_apply_override(dalic_pipeline_params_t *p, unsigned fields,
                                const dalic_pipeline_params_t *s)
{
	if (fields & DALIC_PARAM_BATCH_SIZE)
		p->batch_size = s->batch_size;
	if (fields & DALIC_PARAM_NUM_THREADS)
		p->num_threads = s->num_threads;
	if (fields & DALIC_PARAM_DEVICE_ID)
		p->device_id = s->device_id;
	if (fields & DALIC_PARAM_SEED)
		p->seed = s->seed;
	if (fields & DALIC_PARAM_PREFETCH) {
		p->prefetch_cpu = s->prefetch_cpu;
		p->prefetch_gpu = s->prefetch_gpu;
		p->separated_queues = s->separated_queues;
	}
	if (fields & DALIC_PARAM_EXEC_PIPELINED)
		p->exec_pipelined = s->exec_pipelined;
	if (fields & DALIC_PARAM_EXEC_ASYNC)
		p->exec_async = s->exec_async;
	if (fields & DALIC_PARAM_BYTES_PER_SAMPLE)
		p->bytes_per_sample = s->bytes_per_sample;
	if (fields & DALIC_PARAM_SET_AFFINITY)
		p->set_affinity = s->set_affinity;
	if (fields & DALIC_PARAM_MEMORY_STATS)
		p->enable_memory_stats = s->enable_memory_stats;
	if (fields & DALIC_PARAM_CHECKPOINTING)
		p->enable_checkpointing = s->enable_checkpointing;
}

/* The caller's override in the library's layout; fields 0 when there is none. */
static int load_import_override(const dalic_pipeline_override_t *o, unsigned *fields,
                                dalic_pipeline_params_t *params)
{
	*fields = o ? o->fields : 0;
	if (!*fields)
		return DALIC_OK;
	if (*fields & ~((DALIC_PARAM_CHECKPOINTING << 1) - 1))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "pipeline override: unknown field bits 0x%x (dalic %s)", *fields,
		                  DALIC_VERSION);
	return dalic_pipeline_params_import(params, &o->params);
}

/* A definition with the override applied, as a pipeline (consumes def). */
static int load_finish(dalic_graphdef_t *def, unsigned fields,
                       const dalic_pipeline_params_t *params, dalic_pipeline_t **out)
{
	load_apply_override(&def->params, fields, params);
	return dalic_pipeline_from_graphdef(def, out);
}

static int load_sample(const char *path, unsigned fields, const dalic_pipeline_params_t *over,
                       dalic_pipeline_t **out)
{
	const dalic_sample_t *s = dalic_samples_find(path + 1);
	if (!s)
		return dalic_fail(DALIC_EINVAL, "no built-in sample '%s' (try @arith or @coin)",
		                  path);
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = s->batch_size;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 1234;
	load_apply_override(&params, fields, over);
	DALIC_TRY(dalic_pipeline_create(&params, out));
	int rc = s->define(*out);
	if (rc) {
		dalic_pipeline_destroy(*out);
		*out = NULL;
	}
	return rc;
}

static bool load_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

int dalic_pipeline_load(const char *path, const char *pipeline_name,
                        const dalic_pipeline_override_t *override, dalic_pipeline_t **out)
{
	if (!out)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_load: NULL out");
	*out = NULL;
	if (!path || !*path)
		return dalic_fail(DALIC_EINVAL, "no pipeline given (a .py script, a .pb file or "
		                                "@sample)");
	unsigned fields;
	dalic_pipeline_params_t params;
	DALIC_TRY(load_import_override(override, &fields, &params));
	bool script = load_ends_with(path, ".py");
	if (pipeline_name && !script)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: holds one pipeline; a pipeline name ('%s') picks one of a "
		                  "script's",
		                  path, pipeline_name);
	bool with_args = (fields & DALIC_PARAM_SCRIPT_ARGS) && params.num_script_args != 0;
	if (with_args && (params.num_script_args < 0 || !params.script_args))
		return dalic_fail(DALIC_EINVAL, "pipeline override: script_args is NULL");
	if (with_args && !script)
		return dalic_fail(DALIC_EINVAL,
		                  "%s: script arguments (--arg) apply to pipeline scripts only", path);
	if (path[0] == '@')
		return load_sample(path, fields, &params, out);
	dalic_graphdef_t *def;
	if (script) {
		dalic_script_opts_t so = {.pipeline = pipeline_name,
		                          .args = with_args ? params.script_args : NULL,
		                          .num_args = with_args ? params.num_script_args : 0,
		                          .params = &params,
		                          .fields = fields};
		DALIC_TRY(dalic_script_load_opts(path, &so, &def));
	} else {
		DALIC_TRY(dalic_proto_load_file(path, &def));
	}
	return load_finish(def, fields, &params, out);
}

int dalic_pipeline_deserialize(const void *buf, size_t len,
                               const dalic_pipeline_override_t *override, dalic_pipeline_t **out)
{
	if (!out || (!buf && len))
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_deserialize: NULL argument");
	*out = NULL;
	unsigned fields;
	dalic_pipeline_params_t params;
	DALIC_TRY(load_import_override(override, &fields, &params));
	dalic_graphdef_t *def;
	DALIC_TRY(dalic_proto_read(buf, len, &def));
	return load_finish(def, fields, &params, out);
}

int dalic_pipeline_serialize(dalic_pipeline_t *p, void **buf, size_t *len)
{
	if (!p || !buf || !len)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_serialize: NULL argument");
	dalic_graphdef_t *def = dalic_pipeline_graphdef(p);
	/* DALI validates every operator first, and stores the seed the pipeline runs with:
	 * building the graph (it runs nothing) does both; a built pipeline has done them.
	 * Devices are checked only when DALI builds: a CPU-only definition with gpu or mixed
	 * operators serializes (as Triton's model.dali files are written), so the check runs
	 * as if a device were there. */
	if (!dalic_pipeline_graph(p)) {
		dalic_graph_t *g = NULL;
		int device_id = def->params.device_id;
		if (device_id == DALIC_CPU_ONLY_DEVICE_ID)
			def->params.device_id = 0;
		int rc = dalic_pipeline_validate(p);
		if (!rc)
			rc = dalic_graph_build(def, &g);
		def->params.device_id = device_id;
		if (rc)
			return rc;
		if (def->params.seed < 0)
			def->params.seed = g->params.seed;
		dalic_graph_free(g);
	}
	uint8_t *bytes;
	DALIC_TRY(dalic_proto_write(def, &bytes, len));
	*buf = bytes;
	return DALIC_OK;
}

bool dalic_is_serialized_pipeline(const void *buf, size_t len)
{
	return buf && dalic_proto_sniff(buf, len);
}

int dalic_serialized_describe(const void *buf, size_t len, FILE *f)
{
	if (!buf || !f)
		return dalic_fail(DALIC_EINVAL, "dalic_serialized_describe: NULL argument");
	DALIC_TRY(dalic_proto_print(buf, len, f));
	if (fflush(f) || ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the description: %s",
		                  strerror(errno ? errno : EIO));
	return DALIC_OK;
}

void dalic_set_script_output(FILE *f)
{
	dalic_script_set_print_stream(f);
}
