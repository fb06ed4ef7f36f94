/*
 * libFuzzer target for the pipeline-script front end: any bytes, written to a file, loaded
 * as a script. It must return a status — never crash, hang, leak or overflow the stack.
 * Script print() output goes to /dev/null. A definition whose data comes from Python sources
 * (external_source(source=...), sdsource.h) and that holds nothing else but arithmetic is
 * also run for a few iterations and a reset: the sources' polls, their epochs and the
 * runtime heap's collections are fuzzed too.
 */
#include "dalic.h"
#include "engine/graphdef.h"
#include "engine/pipeline.h"
#include "frontend/script.h"
#include "frontend/script_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Python sources and arithmetic only, small batches: cheap to run. */
static bool fuzz_script_runnable(const dalic_graphdef_t *g)
{
	if (!g->runtime || g->params.batch_size < 1 || g->params.batch_size > 16)
		return false;
	bool source = false;
	for (int i = 0; i < g->num_ops; i++) {
		const char *n = g->ops[i]->schema->name;
		source |= !strcmp(n, "ExternalSource");
		if (strcmp(n, "ExternalSource") && strcmp(n, "ArithmeticGenericOp"))
			return false;
	}
	return source;
}

static void fuzz_script_run(dalic_graphdef_t *g)
{
	dalic_pipeline_t *p = NULL;
	if (dalic_pipeline_from_graphdef(g, &p) != DALIC_OK)
		return;
	for (int epoch = 0; epoch < 2; epoch++) {
		for (int i = 0; i < 3 && dalic_pipeline_run(p) == DALIC_OK; i++)
			;
		if (dalic_pipeline_reset(p) != DALIC_OK)
			break;
	}
	dalic_pipeline_destroy(p);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	static char path[64];
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		snprintf(path, sizeof path, "/tmp/dalic_fuzz_script_%d.py", (int)getpid());
	}
	dalic_script_set_print_stream(devnull);
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	dalic_graphdef_t *g = NULL;
	if (dalic_script_load(path, NULL, &g) != DALIC_OK)
		return 0;
	if (fuzz_script_runnable(g))
		fuzz_script_run(g); /* the pipeline owns g */
	else
		dalic_graphdef_free(g);
	return 0;
}
