/*
 * `dalic show FILE`: prints a serialized pipeline as readable text — parameters, operators
 * with inputs, outputs and typed arguments, pipeline outputs — as the file holds them. Then
 * it loads the bytes and builds the graph (running nothing) and reports what fails, so the
 * exit status says whether dalic can run the file. Given a script or @sample instead, it shows
 * what `dalic serialize` would write.
 */
#include "cli/cli.h"
#include "engine/graph.h"
#include "frontend/proto/proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	while (b && (n += fread(b + n, 1, cap - n, f)) == cap) {
		uint8_t *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	bool err = ferror(f);
	fclose(f);
	if (!b || err) {
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* A script or sample: serialized as `dalic serialize` would, into *buf. */
static int serialize_other(const dalic_cli_pipeline_opts_t *o, uint8_t **buf, size_t *len)
{
	dalic_graphdef_t *g;
	int rc = dalic_cli_load(o, &g);
	if (rc)
		return rc;
	dalic_graph_t *graph;
	rc = dalic_graph_build(g, &graph);
	if (!rc) {
		if (g->params.seed < 0)
			g->params.seed = graph->params.seed;
		dalic_graph_free(graph);
		rc = dalic_proto_write(g, buf, len);
	}
	dalic_graphdef_free(g);
	return rc;
}

static int show_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	if (argc > 1 || !o.path) {
		fprintf(stderr, "dalic show: %s\n", argc > 1 ? "unknown option" : "no FILE given");
		return 2;
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	bool from_file = o.path[0] != '@' && read_file(o.path, &buf, &len) == 0;
	if (from_file && !dalic_proto_sniff(buf, len) && !strstr(o.path, ".pb")) {
		free(buf); /* not protobuf and not named like it: a script */
		from_file = false;
	}
	int rc = from_file ? DALIC_OK : serialize_other(&o, &buf, &len);
	if (!rc)
		rc = dalic_proto_print(buf, len, stdout);
	if (rc) {
		free(buf);
		return dalic_cli_error(rc), 1;
	}
	if (!from_file) {
		free(buf);
		return 0;
	}
	/* can dalic run it? read the bytes already shown (stdin cannot be read twice) and
	 * build the graph, which checks devices, stages and names */
	dalic_graphdef_t *g = NULL;
	dalic_graph_t *graph = NULL;
	rc = dalic_proto_read(buf, len, &g);
	if (!rc)
		rc = dalic_graph_build(g, &graph);
	dalic_graph_free(graph);
	dalic_graphdef_free(g);
	free(buf);
	if (rc) {
		fflush(stdout);
		fprintf(stderr, "dalic show: dalic cannot run this pipeline:\n");
		return dalic_cli_error(rc), 1;
	}
	return 0;
}

DALIC_COMMAND(show) = {
    .name = "show",
    .summary = "print a serialized pipeline (.pb) as readable text",
    .usage =
        "usage: dalic show FILE [pipeline flags]\n"
        "  Prints the parameters, operators (inputs, outputs, typed arguments) and\n"
        "  outputs of a serialized pipeline as the file holds them, then checks that\n"
        "  dalic can load and build it (exit status 1 if not). A script or @sample is shown as\n"
        "  `dalic serialize` would write it.\n",
    .main = show_main,
};
