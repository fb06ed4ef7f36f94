/*
 * dalic — the command. Dispatches to subcommands from the generated command table
 * (cli/cmd_*.c). `dalic PIPELINE ...` without a subcommand opens the workbench when stdout is
 * a terminal and runs the pipeline otherwise (docs/architecture.md §1).
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern const dalic_command_t *const dalic_commands[];

static const dalic_command_t *main_find(const char *name)
{
	for (int i = 0; dalic_commands[i]; i++)
		if (!strcmp(dalic_commands[i]->name, name))
			return dalic_commands[i];
	return NULL;
}

static bool main_looks_like_pipeline(const char *arg)
{
	size_t n = strlen(arg);
	return arg[0] == '@' || (n > 3 && !strcmp(arg + n - 3, ".py")) ||
	       (n > 3 && !strcmp(arg + n - 3, ".pb")) || access(arg, R_OK) == 0;
}

static void main_usage(FILE *f)
{
	fprintf(f, "usage: dalic COMMAND [PIPELINE] [options]\n"
		   "       dalic PIPELINE [options]   (the workbench on a terminal, else `run`)\n\n"
		   "commands:\n");
	for (int i = 0; dalic_commands[i]; i++)
		fprintf(f, "  %-10s %s\n", dalic_commands[i]->name, dalic_commands[i]->summary);
	fprintf(f, "\nPIPELINE is a pipeline script (.py), a serialized pipeline (.pb) or a\n"
		   "built-in C sample (@arith, @coin).\n"
		   "`dalic COMMAND --help` shows a command's options.\n");
}

static void main_print_usage(const dalic_command_t *c)
{
	fputs(c->usage, stdout);
	if (c->pipeline_flags)
		fputs(dalic_cli_pipeline_usage, stdout);
}

/* The command's exit status, made non-zero when its standard output was lost (a full disk,
 * a closed pipe, /dev/full): every command writes there, and a result nobody received is
 * a failure. */
static int main_finish(int status)
{
	if (status) { /* the command said what failed */
		fflush(stdout);
		return status;
	}
	return dalic_cli_check_stdout() ? 1 : 0;
}

static int main_dispatch(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		const dalic_command_t *c = argc > 2 ? main_find(argv[2]) : NULL;
		if (c)
			main_print_usage(c);
		else
			main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("dalic %s\n", dalic_version_string());
		return 0;
	}
	const dalic_command_t *c = main_find(argv[1]);
	if (!c && main_looks_like_pipeline(argv[1])) {
		c = main_find(isatty(STDOUT_FILENO) ? "tui" : "run");
		if (c) { /* argv[0] becomes the subcommand name; PIPELINE stays an argument */
			argv[0] = (char *)c->name;
			return c->main(argc, argv);
		}
	}
	if (!c) {
		fprintf(stderr, "dalic: unknown command '%s'\n\n", argv[1]);
		main_usage(stderr);
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			main_print_usage(c);
			return 0;
		}
	return c->main(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return main_finish(main_dispatch(argc, argv));
}
