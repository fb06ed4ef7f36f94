/*
 * Shared pipeline options and loading for subcommands (cli.h). Parameters come from the
 * definition, then the call that creates it (scripts), then these flags — later wins.
 */
#include "cli/cli.h"

#include "cli/samples.h"
#include "engine/error.h"
#include "engine/memory.h"
#include "engine/pipeline.h"
#include "frontend/proto/proto.h"
#include "frontend/script.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int dalic_cli_error(int status)
{
	const char *m = dalic_last_error();
	fprintf(stderr, "dalic: %s\n", *m ? m : dalic_strerror(status));
	return status;
}

static int bad(const char *flag, const char *value)
{
	fprintf(stderr, "dalic: invalid value '%s' for %s\n", value ? value : "", flag);
	return DALIC_EINVAL;
}

static bool parse_bool(const char *s, bool *out)
{
	if (!strcasecmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
	    !strcasecmp(s, "on"))
		*out = true;
	else if (!strcasecmp(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no") ||
		 !strcasecmp(s, "off"))
		*out = false;
	else
		return false;
	return true;
}

static bool parse_long(const char *s, long long *out)
{
	char *end;
	*out = strtoll(s, &end, 10);
	return *s && !*end;
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past a separate value. */
static const char *flag_value(int argc, char **argv, int *i, const char *name, bool *matched)
{
	size_t n = strlen(name);
	*matched = false;
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=') {
		*matched = true;
		return argv[*i] + n + 1;
	}
	if (argv[*i][n])
		return NULL;
	*matched = true;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* Subcommand flags that take a separate value, so the value is not taken for PIPELINE. */
static bool takes_value(const char *flag)
{
	static const char *const flags[] = {"-o", "-n", "--output", "--iterations", "--dump",
					    "--trace", "--keys", "--size", "--commands", "--json-out",
					    "--report", NULL};
	for (int i = 0; flags[i]; i++)
		if (!strcmp(flag, flags[i]))
			return true;
	return false;
}

static int parse_depth(const char *v, dalic_cli_pipeline_opts_t *o)
{
	long long a, b;
	if (parse_long(v, &a) && a > 0) {
		o->params.prefetch_cpu = o->params.prefetch_gpu = (int)a;
		o->params.separated_queues = false;
		return DALIC_OK;
	}
	if (sscanf(v, "cpu=%lld,gpu=%lld", &a, &b) == 2 && a > 0 && b > 0) {
		o->params.prefetch_cpu = (int)a;
		o->params.prefetch_gpu = (int)b;
		o->params.separated_queues = true;
		return DALIC_OK;
	}
	return bad("--prefetch-queue-depth", v);
}

int dalic_cli_parse_pipeline_opts(int *argc, char **argv, dalic_cli_pipeline_opts_t *o)
{
	memset(o, 0, sizeof *o);
	dalic_pipeline_params_init(&o->params);
	int w = 1;
	for (int i = 1; i < *argc; i++) {
		bool m;
		const char *v;
		long long n;
		char *a = argv[i];
#define VALUE(name) ((v = flag_value(*argc, argv, &i, name, &m)), m)
		if (VALUE("--batch-size")) {
			if (!v || !parse_long(v, &n) || n <= 0)
				return bad("--batch-size", v);
			o->params.batch_size = (int)n;
			o->set_batch_size = true;
		} else if (VALUE("--num-threads")) {
			if (!v || !parse_long(v, &n) || n <= 0)
				return bad("--num-threads", v);
			o->params.num_threads = (int)n;
			o->set_num_threads = true;
		} else if (VALUE("--device-id")) {
			if (v && !strcmp(v, "none"))
				o->params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
			else if (v && parse_long(v, &n) && n >= 0)
				o->params.device_id = (int)n;
			else
				return bad("--device-id", v);
			o->set_device_id = true;
		} else if (VALUE("--seed")) {
			if (!v || !parse_long(v, &n))
				return bad("--seed", v);
			o->params.seed = n;
			o->set_seed = true;
		} else if (VALUE("--prefetch-queue-depth")) {
			if (!v || parse_depth(v, o))
				return bad("--prefetch-queue-depth", v);
			o->set_prefetch = true;
		} else if (VALUE("--exec-pipelined")) {
			if (!v || !parse_bool(v, &o->params.exec_pipelined))
				return bad("--exec-pipelined", v);
			o->set_pipelined = true;
		} else if (VALUE("--exec-async")) {
			if (!v || !parse_bool(v, &o->params.exec_async))
				return bad("--exec-async", v);
			o->set_async = true;
		} else if (VALUE("--bytes-per-sample")) {
			if (!v || !parse_long(v, &n) || n < 0)
				return bad("--bytes-per-sample", v);
			o->params.bytes_per_sample = n;
			o->set_bytes_per_sample = true;
		} else if (VALUE("--max-memory")) {
			uint64_t bytes; /* the process-wide budget: set at once, like the env var */
			if (!v || dalic_mem_parse_size(v, &bytes) || !bytes)
				return bad("--max-memory", v);
			dalic_mem_set_budget(bytes);
		} else if (VALUE("--pipeline")) {
			if (!v)
				return bad("--pipeline", v);
			o->pipeline = v;
		} else if (!strcmp(a, "--set-affinity")) {
			o->params.set_affinity = o->set_affinity = true;
		} else if (!strcmp(a, "--memory-stats")) {
			o->params.enable_memory_stats = o->set_memory_stats = true;
		} else if (!strcmp(a, "--debug")) {
			o->debug = true;
		} else if (a[0] != '-' && !o->path) {
			o->path = a;
		} else {
			argv[w++] = a; /* not ours: left for the subcommand, with its value */
			if (takes_value(a) && i + 1 < *argc)
				argv[w++] = argv[++i];
		}
#undef VALUE
	}
	argv[w] = NULL;
	*argc = w;
	return DALIC_OK;
}

static void apply_overrides(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_params_t *p)
{
	const dalic_pipeline_params_t *s = &o->params;
	if (o->set_batch_size)
		p->batch_size = s->batch_size;
	if (o->set_num_threads)
		p->num_threads = s->num_threads;
	if (o->set_device_id)
		p->device_id = s->device_id;
	if (o->set_seed)
		p->seed = s->seed;
	if (o->set_prefetch) {
		p->prefetch_cpu = s->prefetch_cpu;
		p->prefetch_gpu = s->prefetch_gpu;
		p->separated_queues = s->separated_queues;
	}
	if (o->set_pipelined)
		p->exec_pipelined = s->exec_pipelined;
	if (o->set_async)
		p->exec_async = s->exec_async;
	if (o->set_bytes_per_sample)
		p->bytes_per_sample = s->bytes_per_sample;
	if (o->set_affinity)
		p->set_affinity = true;
	if (o->set_memory_stats)
		p->enable_memory_stats = true;
}

static int open_sample(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_t **out)
{
	const dalic_cli_sample_t *s = dalic_cli_sample_find(o->path + 1);
	if (!s)
		return dalic_fail(DALIC_EINVAL, "no built-in sample '%s' (try @arith or @coin)",
				  o->path);
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = s->batch_size;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 1234;
	apply_overrides(o, &params);
	int rc = dalic_pipeline_create(&params, out);
	if (rc)
		return rc;
	rc = s->define(*out);
	if (rc) {
		dalic_pipeline_destroy(*out);
		*out = NULL;
	}
	return rc;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

int dalic_cli_load(const dalic_cli_pipeline_opts_t *o, dalic_graphdef_t **out)
{
	*out = NULL;
	if (!o->path)
		return dalic_fail(DALIC_EINVAL, "no PIPELINE given (a .py script, a .pb file or "
				  "@sample)");
	int rc;
	if (o->path[0] == '@') {
		dalic_pipeline_t *p;
		rc = open_sample(o, &p);
		if (rc)
			return rc;
		*out = dalic_graphdef_clone(dalic_pipeline_graphdef(p));
		dalic_pipeline_destroy(p);
		return *out ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	if (ends_with(o->path, ".py")) {
		rc = dalic_script_load(o->path, o->pipeline, out);
	} else {
		rc = dalic_proto_load_file(o->path, out);
	}
	if (rc)
		return rc;
	apply_overrides(o, &(*out)->params);
	if (o->debug)
		(*out)->debug = true;
	return DALIC_OK;
}

int dalic_cli_open(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_t **out)
{
	*out = NULL;
	if (o->path && o->path[0] == '@')
		return open_sample(o, out);
	dalic_graphdef_t *def;
	int rc = dalic_cli_load(o, &def);
	return rc ? rc : dalic_pipeline_from_graphdef(def, out);
}
