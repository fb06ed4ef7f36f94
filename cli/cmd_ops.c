/*
 * `dalic ops [NAME]`: the operator registry — every operator with its fn name and summary,
 * or one operator's schema (inputs, outputs, devices, arguments with type, default, help,
 * and whether they may be given per sample).
 */
#include "cli/cli.h"

#include <string.h>

static void ops_print_arg(const dalic_arg_info_t *a)
{
	printf("  %-24s %-24s %s%s\n", a->name, a->type, a->default_value ? "default " : "REQUIRED",
	       a->default_value ? a->default_value : "");
	if (a->help)
		printf("      %s%s\n", a->help,
		       a->per_sample ? " [per-sample: accepts a CPU data node]" : "");
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
	printf("  devices:%s%s%s\n", s.cpu ? " cpu" : "", s.gpu ? " gpu" : "",
	       s.mixed ? " mixed" : "");
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

static int ops_main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "dalic ops: one NAME at most (see dalic ops --help)\n");
		return 2;
	}
	if (argc > 1) {
		int i = dalic_op_schema_find(argv[1]);
		if (i < 0) {
			fprintf(stderr, "dalic ops: unknown operator '%s'\n", argv[1]);
			return 1;
		}
		return ops_show(i);
	}
	for (int i = 0; i < dalic_op_schema_count(); i++) {
		dalic_op_schema_t s;
		if (dalic_op_schema_get(i, &s))
			return dalic_cli_error(DALIC_EINVAL), 1;
		if (!s.internal)
			printf("%-28s %-28s %s\n", s.name, s.fn ? s.fn : "-", s.doc ? s.doc : "");
	}
	return 0;
}

DALIC_COMMAND(ops) = {
	.name = "ops",
	.summary = "list operators, or print one operator's schema",
	.usage = "usage: dalic ops [NAME]\n"
		 "  NAME may be a schema name (Resize), an fn name (readers.file) or an alias.\n",
	.main = ops_main,
};
