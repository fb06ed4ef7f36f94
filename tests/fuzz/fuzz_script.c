/*
 * libFuzzer target for the pipeline-script front end: any bytes, written to a file, loaded
 * as a script. It must return a status — never crash, hang, leak or overflow the stack.
 * Script print() output goes to /dev/null.
 */
#include "dalic.h"
#include "engine/graphdef.h"
#include "frontend/script.h"
#include "frontend/script_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
	if (dalic_script_load(path, NULL, &g) == DALIC_OK)
		dalic_graphdef_free(g);
	return 0;
}
