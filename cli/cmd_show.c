/*
 * `dalic show FILE`: prints a serialized pipeline as readable text — parameters, operators
 * with inputs, outputs and typed arguments, pipeline outputs — as the file holds them. Then
 * it loads the bytes and builds the graph (running nothing) and reports what fails, so the
 * exit status says whether dalic can run the file. Given a script or @sample instead, it shows
 * what `dalic serialize` would write.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

/* A script or sample: serialized as `dalic serialize` would, into *buf. */
static int show_serialize_other(const dalic_cli_pipeline_opts_t *o, void **buf, size_t *len)
{
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(o, &p);
	if (!rc)
		rc = dalic_pipeline_serialize(p, buf, len);
	dalic_pipeline_destroy(p);
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
	void *buf = NULL;
	size_t len = 0;
	const char *dot = strrchr(o.path, '.');
	bool script = o.path[0] == '@' || (dot && !strcmp(dot, ".py"));
	int rc = script ? show_serialize_other(&o, &buf, &len) : DALIC_OK;
	if (rc)
		return dalic_cli_error(rc), 1;
	if (!script && dalic_cli_slurp(o.path, &buf, &len))
		return 1;
	rc = dalic_serialized_describe(buf, len, stdout);
	if (rc || script) {
		free(buf);
		return rc ? (dalic_cli_error(rc), 1) : 0;
	}
	/* can dalic run it? load the bytes already shown (stdin cannot be read twice) and
	 * check the graph, which covers devices, stages and names */
	dalic_pipeline_t *p = NULL;
	rc = dalic_pipeline_deserialize(buf, len, &o.override, &p);
	if (!rc)
		rc = dalic_pipeline_validate(p);
	dalic_pipeline_destroy(p);
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
    .pipeline_flags = true,
    .main = show_main,
};
