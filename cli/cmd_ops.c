/*
 * `dalic ops [NAME] [--json]`: the operator registry — every operator with its fn name and
 * summary, or one operator's schema (inputs, outputs, devices, arguments with type, default,
 * help, and whether they may be given per sample). Devices say honestly which variants have
 * a real kernel in this build: a gpu/mixed variant without a CUDA kernel runs the cpu kernel
 * on the emulated device. Each operator links DALI's documentation page.
 */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void ops_print_arg(const dalic_arg_info_t *a)
{
	printf("  %-24s %-24s %s%s\n", a->name, a->type, a->default_value ? "default " : "REQUIRED",
	       a->default_value ? a->default_value : "");
	if (a->help)
		printf("      %s%s\n", a->help,
		       a->per_sample ? " [per-sample: accepts a CPU data node]" : "");
}

/* "cpu, gpu (emulated: the cpu kernel on host memory)" */
static void ops_print_devices(int i, const dalic_op_schema_t *s)
{
	const char *emulated = " (emulated: runs the cpu kernel)";
	printf("  devices:%s", s->cpu ? " cpu" : "");
	if (s->gpu)
		printf("%s gpu%s", s->cpu ? "," : "", dalic_op_schema_has_kernel(i, DALIC_STAGE_GPU) ? " (CUDA kernel)" : emulated);
	if (s->mixed)
		printf("%s mixed%s", s->cpu || s->gpu ? "," : "",
		       dalic_op_schema_has_kernel(i, DALIC_STAGE_MIXED) ? " (CUDA kernel)" : emulated);
	printf("\n");
}

static int ops_show(int i)
{
	dalic_op_schema_t s;
	if (dalic_op_schema_get(i, &s))
		return dalic_cli_error(DALIC_EINVAL), 1;
	printf("%s\n", s.name);
	if (s.fn)
		printf("  fn: fn.%s\n", s.fn);
	for (int k = 0; k < 4 && s.aliases[k]; k++)
		printf("  alias: %s\n", s.aliases[k]);
	if (s.doc)
		printf("  %s\n", s.doc);
	const char *url = dalic_op_schema_doc_url(i);
	if (url)
		printf("  DALI documentation: %s\n", url);
	ops_print_devices(i, &s);
	printf("  inputs: %d..%d  outputs: %d%s\n", s.min_inputs, s.max_inputs, s.num_outputs,
	       s.outputs_vary ? " (depends on arguments)" : "");
	for (int k = 0; k < s.num_args + s.num_common_args; k++) {
		dalic_arg_info_t a;
		if (dalic_op_schema_arg(i, k, &a))
			return dalic_cli_error(DALIC_EINVAL), 1;
		printf(k == 0 ? "arguments:\n" : "");
		printf(k == s.num_args ? "common arguments:\n" : "");
		ops_print_arg(&a);
	}
	return 0;
}

/* {"cpu": "kernel", "gpu": "emulated"}: only the devices the operator has */
static cJSON *ops_json_devices(int i, const dalic_op_schema_t *s)
{
	cJSON *d = cJSON_CreateObject();
	if (s->cpu)
		cJSON_AddStringToObject(d, "cpu", "kernel");
	if (s->gpu)
		cJSON_AddStringToObject(d, "gpu", dalic_op_schema_has_kernel(i, DALIC_STAGE_GPU) ? "kernel" : "emulated");
	if (s->mixed)
		cJSON_AddStringToObject(d, "mixed", dalic_op_schema_has_kernel(i, DALIC_STAGE_MIXED) ? "kernel" : "emulated");
	return d;
}

static cJSON *ops_json_args(int i, const dalic_op_schema_t *s)
{
	cJSON *args = cJSON_CreateArray();
	for (int k = 0; args && k < s->num_args + s->num_common_args; k++) {
		dalic_arg_info_t a;
		if (dalic_op_schema_arg(i, k, &a)) {
			cJSON_Delete(args);
			return NULL;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", a.name);
		cJSON_AddStringToObject(o, "type", a.type);
		if (a.default_value)
			cJSON_AddStringToObject(o, "default", a.default_value);
		else
			cJSON_AddNullToObject(o, "default");
		cJSON_AddBoolToObject(o, "required", !a.default_value);
		cJSON_AddBoolToObject(o, "per_sample", a.per_sample);
		cJSON_AddBoolToObject(o, "common", k >= s->num_args);
		if (a.help)
			cJSON_AddStringToObject(o, "help", a.help);
		cJSON_AddItemToArray(args, o);
	}
	return args;
}

static cJSON *ops_json_one(int i, bool with_args)
{
	dalic_op_schema_t s;
	if (dalic_op_schema_get(i, &s))
		return NULL;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", s.name);
	if (s.fn)
		cJSON_AddStringToObject(o, "fn", s.fn);
	else
		cJSON_AddNullToObject(o, "fn");
	cJSON *aliases = cJSON_AddArrayToObject(o, "aliases");
	for (int k = 0; k < 4 && s.aliases[k]; k++)
		cJSON_AddItemToArray(aliases, cJSON_CreateString(s.aliases[k]));
	if (s.doc)
		cJSON_AddStringToObject(o, "doc", s.doc);
	const char *url = dalic_op_schema_doc_url(i);
	if (url)
		cJSON_AddStringToObject(o, "doc_url", url);
	else
		cJSON_AddNullToObject(o, "doc_url");
	cJSON_AddItemToObject(o, "devices", ops_json_devices(i, &s));
	cJSON_AddNumberToObject(o, "min_inputs", s.min_inputs);
	cJSON_AddNumberToObject(o, "max_inputs", s.max_inputs);
	cJSON_AddNumberToObject(o, "num_outputs", s.num_outputs);
	cJSON_AddBoolToObject(o, "outputs_vary", s.outputs_vary);
	if (with_args) {
		cJSON *args = ops_json_args(i, &s);
		if (!args) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToObject(o, "arguments", args);
	}
	return o;
}

/* One operator (i >= 0, with its arguments) or the list of all that are not internal. */
static int ops_print_json(int i)
{
	cJSON *doc = NULL;
	if (i >= 0) {
		doc = ops_json_one(i, true);
	} else {
		doc = cJSON_CreateArray();
		for (int k = 0; doc && k < dalic_op_schema_count(); k++) {
			dalic_op_schema_t s;
			if (dalic_op_schema_get(k, &s) || s.internal)
				continue;
			cJSON *one = ops_json_one(k, false);
			if (!one) {
				cJSON_Delete(doc);
				doc = NULL;
				break;
			}
			cJSON_AddItemToArray(doc, one);
		}
	}
	char *text = doc ? cJSON_Print(doc) : NULL;
	cJSON_Delete(doc);
	if (!text)
		return dalic_cli_error(DALIC_ENOMEM), 1;
	puts(text);
	free(text);
	return dalic_cli_check_stdout() ? 1 : 0;
}

static int ops_main(int argc, char **argv)
{
	const char *name = NULL;
	bool json = false;
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--json")) {
			json = true;
		} else if (argv[k][0] != '-' && !name) {
			name = argv[k];
		} else {
			fprintf(stderr, "dalic ops: unexpected '%s' (see dalic ops --help)\n",
				argv[k]);
			return 2;
		}
	}
	int i = -1;
	if (name && (i = dalic_op_schema_find(name)) < 0) {
		fprintf(stderr, "dalic ops: unknown operator '%s'\n", name);
		return 1;
	}
	if (json)
		return ops_print_json(i);
	if (i >= 0)
		return ops_show(i);
	for (int k = 0; k < dalic_op_schema_count(); k++) {
		dalic_op_schema_t s;
		if (dalic_op_schema_get(k, &s))
			return dalic_cli_error(DALIC_EINVAL), 1;
		if (!s.internal)
			printf("%-28s %-28s %s\n", s.name, s.fn ? s.fn : "-", s.doc ? s.doc : "");
	}
	return 0;
}

DALIC_COMMAND(ops) = {
	.name = "ops",
	.summary = "list operators, or print one operator's schema",
	.usage = "usage: dalic ops [NAME] [--json]\n"
		 "  NAME may be a schema name (Resize), an fn name (readers.file) or an alias.\n"
		 "  Devices say which variants have a real kernel in this build; a gpu or mixed\n"
		 "  variant without a CUDA kernel runs the cpu kernel (emulated).\n"
		 "  --json      the list (name, fn, doc, doc_url, devices, inputs, outputs), or\n"
		 "              one operator's schema with its arguments\n",
	.main = ops_main,
};
