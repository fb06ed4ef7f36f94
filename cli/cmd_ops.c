/*
 * `dalic ops [NAME]`: the operator registry — every operator with its fn name and summary,
 * or one operator's schema (inputs, outputs, devices, arguments with type, default, help,
 * and whether they may be given per sample).
 */
#include "cli/cli.h"
#include "engine/error.h"
#include "engine/schema.h"

#include <string.h>

static void print_arg(const dalic_arg_schema_t *a)
{
	printf("  %-24s %-24s %s%s\n", a->name, dalic_arg_type_name(a->type),
	       a->def ? "default " : "REQUIRED", a->def ? a->def : "");
	if (a->help)
		printf("      %s%s\n", a->help, a->tensor ? " [per-sample: accepts a CPU data node]"
						     : "");
}

static int show(const dalic_schema_t *s)
{
	printf("%s\n", s->name);
	if (s->fn)
		printf("  fn: fn.%s\n", s->fn);
	for (int i = 0; i < 4 && s->aliases[i]; i++)
		printf("  alias: %s\n", s->aliases[i]);
	if (s->doc)
		printf("  %s\n", s->doc);
	printf("  devices:%s%s%s\n", s->devices & DALIC_DEV_CPU ? " cpu" : "",
	       s->devices & DALIC_DEV_GPU ? " gpu" : "", s->devices & DALIC_DEV_MIXED ? " mixed" : "");
	printf("  inputs: %d..%d  outputs: %d%s\n", s->min_inputs, s->max_inputs, s->num_outputs,
	       s->outputs_for ? " (depends on arguments)" : "");
	printf("arguments:\n");
	for (const dalic_arg_schema_t *a = s->args; a && a->name; a++)
		print_arg(a);
	if (s->random)
		print_arg(dalic_schema_arg(s, "seed"));
	printf("common arguments:\n");
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++)
		if (a->name[0] != '_')
			print_arg(a);
	return 0;
}

static int ops_main(int argc, char **argv)
{
	if (argc > 1) {
		const dalic_schema_t *s = dalic_schema_find(argv[1]);
		if (!s) {
			fprintf(stderr, "dalic ops: unknown operator '%s'\n", argv[1]);
			return 1;
		}
		return show(s);
	}
	const dalic_schema_t *const *all = dalic_schema_all();
	for (int i = 0; all[i]; i++) {
		if (all[i]->internal)
			continue;
		printf("%-28s %-28s %s\n", all[i]->name, all[i]->fn ? all[i]->fn : "-",
		       all[i]->doc ? all[i]->doc : "");
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
