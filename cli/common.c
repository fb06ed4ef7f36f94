/*
 * Shared pipeline options for subcommands (cli.h). Parameters come from the definition, then
 * the call that creates it (scripts), then these flags — later wins (dalic_pipeline_load).
 */
#include "cli/cli.h"
#include "dalic_stats.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char dalic_cli_pipeline_usage[] =
    "pipeline flags (they override the definition's parameters):\n"
    "  --batch-size N --num-threads N --device-id none|N --seed N\n"
    "  --prefetch-queue-depth N|cpu=N,gpu=M --exec-pipelined=BOOL --exec-async=BOOL\n"
    "  --bytes-per-sample N --set-affinity --memory-stats --enable-checkpointing\n"
    "  --max-memory SIZE the memory budget (e.g. 8G; default 75% of RAM)\n"
    "  --pipeline NAME   which pipeline of a script (created or only defined)\n"
    "  --arg NAME=VALUE  an argument of the pipeline function or Pipeline subclass a\n"
    "                    script defines (repeatable; VALUE in Python literal syntax)\n"
    "  --feed NAME=PATH  external_source NAME reads from files: a .npy (first axis =\n"
    "                    samples), a directory (one sample per file: .npy or raw bytes)\n"
    "                    or a text list of files; samples cycle (run, debug, tui)\n"
    "  --debug           run in debug mode (eagerly, one operator at a time)\n"
    "  --tracers LIST    tracers to run at once, e.g. \"stats;nvtx;trace\" (as DALIC_TRACERS;\n"
    "                    docs/profiling.md)\n"
    "  --stats-socket PATH  publish live stats on a Unix socket for `dalic top PATH`\n";

int dalic_cli_error(int status)
{
	const char *m = dalic_last_error();
	fprintf(stderr, "dalic: %s\n", *m ? m : dalic_strerror(status));
	return status;
}

int dalic_cli_fail(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("dalic: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return status;
}

static int common_bad(const char *flag, const char *value)
{
	return dalic_cli_fail(DALIC_EINVAL, "invalid value '%s' for %s", value ? value : "", flag);
}

static bool common_parse_bool(const char *s, bool *out)
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

static bool common_parse_long(const char *s, long long *out)
{
	char *end;
	*out = strtoll(s, &end, 10);
	return *s && !*end;
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past a separate value. */
static const char *common_flag_value(int argc, char **argv, int *i, const char *name,
				     bool *matched)
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
static bool common_takes_value(const char *flag)
{
	static const char *const flags[] = {"-o", "-n", "--output", "--iterations", "--dump",
					    "--trace", "--keys", "--size", "--commands", "--json-out",
					    "--report", "--warmup", "--repeat", "-x", "--stats-dir", NULL};
	for (int i = 0; flags[i]; i++)
		if (!strcmp(flag, flags[i]))
			return true;
	return false;
}

static int common_parse_depth(const char *v, dalic_pipeline_params_t *p)
{
	long long a, b;
	if (common_parse_long(v, &a) && a > 0 && a <= 1 << 20) {
		p->prefetch_cpu = p->prefetch_gpu = (int)a;
		p->separated_queues = false;
		return DALIC_OK;
	}
	char tail;
	if (sscanf(v, "cpu=%lld,gpu=%lld%c", &a, &b, &tail) == 2 && a > 0 && b > 0 &&
	    a <= 1 << 20 && b <= 1 << 20) {
		p->prefetch_cpu = (int)a;
		p->prefetch_gpu = (int)b;
		p->separated_queues = true;
		return DALIC_OK;
	}
	return DALIC_EINVAL;
}

int dalic_cli_parse_pipeline_opts(int *argc, char **argv, dalic_cli_pipeline_opts_t *o)
{
	memset(o, 0, sizeof *o);
	dalic_pipeline_override_init(&o->override);
	o->shard.shard_id = o->shard.num_shards = -1;
	dalic_pipeline_params_t *p = &o->override.params;
	unsigned *set = &o->override.fields;
	int w = 1;
	for (int i = 1; i < *argc; i++) {
		bool m;
		const char *v;
		long long n;
		char *a = argv[i];
#define VALUE(name) ((v = common_flag_value(*argc, argv, &i, name, &m)), m)
		if (dalic_cli_shard_parse(*argc, argv, &i, &o->shard, &m))
			return DALIC_EINVAL;
		if (m) {
			/* a sharding flag (ranks.c) */
		} else if (VALUE("--batch-size")) {
			if (!v || !common_parse_long(v, &n) || n <= 0 || n > INT_MAX)
				return common_bad("--batch-size", v);
			p->batch_size = (int)n;
			*set |= DALIC_PARAM_BATCH_SIZE;
		} else if (VALUE("--num-threads")) {
			if (!v || !common_parse_long(v, &n) || n <= 0 || n > INT_MAX)
				return common_bad("--num-threads", v);
			p->num_threads = (int)n;
			*set |= DALIC_PARAM_NUM_THREADS;
		} else if (VALUE("--device-id")) {
			if (v && !strcmp(v, "none"))
				p->device_id = DALIC_CPU_ONLY_DEVICE_ID;
			else if (v && common_parse_long(v, &n) && n >= 0 && n <= 1 << 20)
				p->device_id = (int)n;
			else
				return common_bad("--device-id", v);
			*set |= DALIC_PARAM_DEVICE_ID;
		} else if (VALUE("--seed")) {
			if (!v || !common_parse_long(v, &n))
				return common_bad("--seed", v);
			p->seed = n;
			*set |= DALIC_PARAM_SEED;
		} else if (VALUE("--prefetch-queue-depth")) {
			if (!v || common_parse_depth(v, p))
				return common_bad("--prefetch-queue-depth", v);
			*set |= DALIC_PARAM_PREFETCH;
		} else if (VALUE("--exec-pipelined")) {
			if (!v || !common_parse_bool(v, &p->exec_pipelined))
				return common_bad("--exec-pipelined", v);
			*set |= DALIC_PARAM_EXEC_PIPELINED;
		} else if (VALUE("--exec-async")) {
			if (!v || !common_parse_bool(v, &p->exec_async))
				return common_bad("--exec-async", v);
			*set |= DALIC_PARAM_EXEC_ASYNC;
		} else if (VALUE("--bytes-per-sample")) {
			if (!v || !common_parse_long(v, &n) || n < 0)
				return common_bad("--bytes-per-sample", v);
			p->bytes_per_sample = n;
			*set |= DALIC_PARAM_BYTES_PER_SAMPLE;
		} else if (VALUE("--max-memory")) {
			uint64_t bytes; /* the process-wide budget: set at once, like the env var */
			if (!v || dalic_mem_parse_size(v, &bytes) || !bytes)
				return common_bad("--max-memory", v);
			dalic_mem_set_budget(bytes);
		} else if (VALUE("--arg")) {
			if (!v || !strchr(v, '='))
				return common_bad("--arg (NAME=VALUE)", v);
			if (o->override.params.num_script_args == DALIC_CLI_MAX_ARGS)
				return dalic_cli_fail(DALIC_EINVAL, "more than %d --arg flags",
						      DALIC_CLI_MAX_ARGS);
			o->args[o->override.params.num_script_args++] = v;
			p->script_args = o->args;
			*set |= DALIC_PARAM_SCRIPT_ARGS;
		} else if (VALUE("--feed")) {
			if (!v || !strchr(v, '='))
				return common_bad("--feed (NAME=PATH)", v);
			if (o->num_feeds == DALIC_CLI_MAX_ARGS)
				return dalic_cli_fail(DALIC_EINVAL, "more than %d --feed flags",
						      DALIC_CLI_MAX_ARGS);
			o->feeds[o->num_feeds++] = v;
		} else if (VALUE("--tracers")) {
			if (!v)
				return common_bad("--tracers", v);
			o->tracers = v;
		} else if (VALUE("--stats-socket")) {
			if (!v || !*v)
				return common_bad("--stats-socket", v);
			o->stats_socket = v;
		} else if (VALUE("--pipeline")) {
			if (!v)
				return common_bad("--pipeline", v);
			o->pipeline = v;
		} else if (!strcmp(a, "--set-affinity")) {
			p->set_affinity = true;
			*set |= DALIC_PARAM_SET_AFFINITY;
		} else if (!strcmp(a, "--memory-stats")) {
			p->enable_memory_stats = true;
			*set |= DALIC_PARAM_MEMORY_STATS;
		} else if (!strcmp(a, "--enable-checkpointing")) {
			p->enable_checkpointing = true;
			*set |= DALIC_PARAM_CHECKPOINTING;
		} else if (!strcmp(a, "--debug")) {
			o->debug = true;
		} else if (a[0] != '-' && !o->path) {
			o->path = a;
		} else {
			argv[w++] = a; /* not ours: left for the subcommand, with its value */
			if (common_takes_value(a) && i + 1 < *argc)
				argv[w++] = argv[++i];
		}
#undef VALUE
	}
	argv[w] = NULL;
	*argc = w;
	return dalic_cli_shard_resolve(&o->shard);
}

int dalic_cli_open(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_t **out)
{
	int rc = dalic_pipeline_load(o->path, o->pipeline, &o->override, out);
	if (rc)
		return rc;
	rc = dalic_cli_shard_apply(&o->shard, *out);
	if (!rc && o->tracers)
		rc = dalic_tracers_attach(*out, o->tracers);
	if (!rc && o->stats_socket)
		rc = dalic_stats_serve(*out, o->stats_socket);
	if (rc) {
		dalic_pipeline_destroy(*out);
		*out = NULL;
	}
	return rc;
}
