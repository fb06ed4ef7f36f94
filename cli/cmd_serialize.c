/*
 * `dalic serialize PIPELINE -o FILE`: writes the pipeline as DALI's serialized protobuf, the
 * bytes Pipeline.serialize() would write, so real DALI can deserialize it. Like DALI, it
 * validates every operator first (by building the graph, which runs nothing), and stores the
 * concrete seed: the one given, or the one the build chose. `-o -` writes to stdout.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

/* Takes -o FILE / --output FILE / --output=FILE out of argv before the shared parser runs,
 * which would otherwise take FILE for the PIPELINE. */
static int serialize_take_output(int *argc, char **argv, const char **out)
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

static int serialize_main(int argc, char **argv)
{
	const char *out = NULL;
	dalic_cli_pipeline_opts_t o;
	if (serialize_take_output(&argc, argv, &out)) {
		fputs("dalic serialize: -o FILE is required\n", stderr);
		return 2;
	}
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	if (argc > 1) {
		fprintf(stderr, "dalic serialize: unknown option '%s'\n", argv[1]);
		return 2;
	}
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(&o, &p);
	void *buf = NULL;
	size_t len = 0;
	if (!rc)
		rc = dalic_pipeline_serialize(p, &buf, &len);
	dalic_pipeline_destroy(p);
	if (rc)
		return dalic_cli_error(rc), 1;
	rc = dalic_cli_save(out, buf, len);
	free(buf);
	return rc ? 1 : 0;
}

DALIC_COMMAND(serialize) = {
    .name = "serialize",
    .summary = "write a pipeline as DALI's serialized protobuf (Pipeline.serialize)",
    .usage = "usage: dalic serialize PIPELINE -o FILE [pipeline flags]\n"
             "  Writes the bytes DALI's Pipeline.serialize() writes; FILE '-' is stdout.\n"
             "  Operators that reach no output (and are not preserved) are left out, and\n"
             "  the seed stored is concrete, as in DALI.\n",
    .pipeline_flags = true,
    .main = serialize_main,
};
