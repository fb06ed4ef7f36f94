/*
 * `dalic serialize PIPELINE -o FILE`: writes the pipeline as DALI's serialized protobuf, the
 * bytes Pipeline.serialize() would write, so real DALI can deserialize it. Like DALI, it
 * validates every operator first (by building the graph, which runs nothing), and stores the
 * concrete seed: the one given, or the one the build chose. `-o -` writes to stdout.
 */
#include "cli/cli.h"
#include "engine/graph.h"
#include "frontend/proto/proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Takes -o FILE / --output FILE / --output=FILE out of argv before the shared parser runs,
 * which would otherwise take FILE for the PIPELINE. */
static int take_output(int *argc, char **argv, const char **out)
{
	int w = 1;
	for (int i = 1; i < *argc; i++) {
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < *argc)
			*out = argv[++i];
		else if (!strncmp(argv[i], "--output=", 9))
			*out = argv[i] + 9;
		else
			argv[w++] = argv[i];
	}
	argv[w] = NULL;
	*argc = w;
	return *out ? DALIC_OK : DALIC_EINVAL;
}

static int write_all(const char *path, const uint8_t *buf, size_t len)
{
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "dalic serialize: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	bool ok = fwrite(buf, 1, len, f) == len;
	ok = (to_stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
	if (!ok) {
		fprintf(stderr, "dalic serialize: cannot write '%s': %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int serialize_main(int argc, char **argv)
{
	const char *out = NULL;
	dalic_cli_pipeline_opts_t o;
	if (take_output(&argc, argv, &out)) {
		fputs("dalic serialize: -o FILE is required\n", stderr);
		return 2;
	}
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	if (argc > 1) {
		fprintf(stderr, "dalic serialize: unknown option '%s'\n", argv[1]);
		return 2;
	}
	dalic_graphdef_t *g;
	int rc = dalic_cli_load(&o, &g);
	if (rc)
		return dalic_cli_error(rc), 1;
	dalic_graph_t *graph;
	rc = dalic_graph_build(g, &graph);
	if (!rc) {
		if (g->params.seed < 0)
			g->params.seed = graph->params.seed;
		dalic_graph_free(graph);
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	if (!rc)
		rc = dalic_proto_write(g, &buf, &len);
	dalic_graphdef_free(g);
	if (rc)
		return dalic_cli_error(rc), 1;
	int status = write_all(out, buf, len);
	free(buf);
	return status;
}

DALIC_COMMAND(serialize) = {
    .name = "serialize",
    .summary = "write a pipeline as DALI's serialized protobuf (Pipeline.serialize)",
    .usage = "usage: dalic serialize PIPELINE -o FILE [pipeline flags]\n"
             "  Writes the bytes DALI's Pipeline.serialize() writes; FILE '-' is stdout.\n"
             "  Operators that reach no output (and are not preserved) are left out, and\n"
             "  the seed stored is concrete, as in DALI.\n",
    .main = serialize_main,
};
