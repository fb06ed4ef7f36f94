/*
 * `dalic checkpoint show FILE [--json]`: any DALI 2.4 checkpoint (Pipeline.checkpoint(), a
 * framework iterator's checkpoints()) in words: per operator its kind and decoded state
 * (reader epoch and position, generator key and counter), where the pipeline resumes, and
 * the iterator's JSON.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

static int checkpoint_show(int argc, char **argv)
{
	bool json = false;
	const char *path = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else
			return fprintf(stderr, "dalic checkpoint show: unknown argument '%s'\n",
				       argv[i]),
			       2;
	}
	if (!path)
		return fprintf(stderr, "dalic checkpoint show: no FILE given\n"), 2;
	void *buf = NULL;
	size_t len = 0;
	if (dalic_cli_slurp(path, &buf, &len))
		return 1;
	int rc = dalic_checkpoint_print(buf, len, path, json, stdout);
	free(buf);
	if (rc)
		return dalic_cli_error(rc), 1;
	return dalic_cli_check_stdout() ? 1 : 0;
}

static int checkpoint_main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "show"))
		return checkpoint_show(argc, argv);
	fprintf(stderr, "usage: dalic checkpoint show FILE [--json]\n");
	return 2;
}

DALIC_COMMAND(checkpoint) = {
    .name = "checkpoint",
    .summary = "show a DALI checkpoint (operator states, position, iterator data)",
    .usage = "usage: dalic checkpoint show FILE [--json]\n"
             "  Decodes a checkpoint written by DALI 2.4's Pipeline.checkpoint() (or by dalic):\n"
             "  per operator its kind and state (reader: epoch and samples into it; random:\n"
             "  Philox key and counter), the output it resumes after, and the framework\n"
             "  iterator's JSON. Errors name the file and the bad entry.\n",
    .pipeline_flags = false,
    .main = checkpoint_main,
};
