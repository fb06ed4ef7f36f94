/*
 * libFuzzer target for the serialized-pipeline reader (frontend/proto_*.c). Any bytes must
 * give a status and a message, never a crash, a leak or undefined behaviour (ASan + UBSan).
 * Beyond "no crash" it checks properties that must hold for every input:
 *  - the reader accepts only what dalic_proto_sniff calls a pipeline;
 *  - a definition the reader accepts writes back (unless its parameters cannot be written,
 *    e.g. batch_size <= 0), the written bytes read back, and writing that again gives the
 *    very same bytes (write . read is stable after one step);
 *  - the printer (`dalic show`) copes with anything that parses;
 *  - the graph builder (what `dalic run FILE.pb` does next) copes with whatever the reader
 *    accepted.
 * Build and run: tests/fuzz/run.sh [seconds].
 */
#include "engine/error.h"
#include "engine/graph.h"
#include "frontend/proto/proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

static void die(const char *what)
{
	fprintf(stderr, "fuzz_proto: %s: %s\n", what, dalic_last_error());
	abort();
}

static void check_rewrite(const dalic_graphdef_t *g)
{
	uint8_t *a, *b;
	size_t la, lb;
	if (dalic_proto_write(g, &a, &la))
		return; /* e.g. batch_size <= 0 or an internal operator: refused with a message */
	dalic_graphdef_t *g2;
	if (dalic_proto_read(a, la, &g2))
		die("the writer's bytes do not read back");
	if (dalic_proto_write(g2, &b, &lb))
		die("a definition read from the writer's bytes does not write");
	if (la != lb || memcmp(a, b, la))
		die("write(read(write(g))) differs from write(g)");
	free(a);
	free(b);
	dalic_graphdef_free(g2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	bool sniffed = dalic_proto_sniff(data, size);
	if (sniffed)
		dalic_proto_print(data, size, devnull);
	dalic_graphdef_t *g;
	if (dalic_proto_read(data, size, &g)) {
		if (!*dalic_last_error())
			die("failure without a message");
		return 0;
	}
	if (!sniffed)
		die("read accepted bytes that sniff rejects");
	check_rewrite(g);
	dalic_graph_t *graph;
	if (dalic_graph_build(g, &graph) == DALIC_OK)
		dalic_graph_free(graph);
	dalic_graphdef_free(g);
	return 0;
}
