/*
 * `dalic dot PIPELINE -o FILE`: the built graph in DALI's save_graph_to_dot_file format
 * (after pruning, with the transfer and MakeContiguous nodes the build inserts), as DOT text
 * or, when FILE ends in .svg or .png, rendered by libgraphviz.
 */
#include "cli/cli.h"

#include <string.h>

static int dot_main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned flags = 0;
	/* our flags first: the shared parser would take -o's FILE for the PIPELINE */
	int w = 1;
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			out = argv[++i];
		else if (!strncmp(argv[i], "--output=", 9))
			out = argv[i] + 9;
		else if (!strcmp(argv[i], "--show-tensors"))
			flags |= DALIC_DOT_SHOW_TENSORS;
		else if (!strcmp(argv[i], "--use-colors"))
			flags |= DALIC_DOT_USE_COLORS;
		else
			argv[w++] = argv[i];
	}
	argv[w] = NULL;
	argc = w;
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	if (argc > 1 || !out) {
		if (argc > 1)
			fprintf(stderr, "dalic dot: unknown option '%s'\n", argv[1]);
		else
			fputs("dalic dot: -o FILE.dot|.svg|.png is required\n", stderr);
		return 2;
	}
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(&o, &p);
	if (rc)
		return dalic_cli_error(rc), 1;
	rc = dalic_pipeline_save_graph(p, out, flags);
	dalic_pipeline_destroy(p);
	return rc ? (dalic_cli_error(rc), 1) : 0;
}

DALIC_COMMAND(dot) = {
    .name = "dot",
    .summary = "draw the built graph (DALI's save_graph_to_dot_file): .dot, .svg or .png",
    .usage = "usage: dalic dot PIPELINE -o FILE [--show-tensors] [--use-colors] [pipeline flags]\n"
             "  FILE ending in .dot/.gv gets DOT text in DALI's format; .svg and .png are\n"
             "  rendered with Graphviz. --show-tensors draws data nodes as boxes with\n"
             "  labelled edges; --use-colors colours operators by stage (cpu blue,\n"
             "  mixed cyan, gpu green).\n",
    .pipeline_flags = true,
    .main = dot_main,
};
