/*
 * The checkpoint flags of `dalic run` (and the commands that open a pipeline at a position):
 *   --checkpoint FILE       restore a DALI checkpoint at build (implies enable_checkpointing)
 *   --at N                  start at iteration N: from the start, or from the checkpoint's
 *                           position (N counts from the start either way), without running
 *                           the skipped iterations where the pipeline allows it
 *   --save-checkpoint FILE  write the checkpoint after the last iteration run
 */
#ifndef DALIC_CLI_CKPT_H
#define DALIC_CLI_CKPT_H

#include "dalic.h"
#include "dalic_debug.h"

typedef struct dalic_cli_ckpt_opts {
	const char *load; /* --checkpoint */
	const char *save; /* --save-checkpoint */
	long at;          /* --at, -1 when not given */
} dalic_cli_ckpt_opts_t;

#define DALIC_CLI_CKPT_USAGE                                                                       \
	"  --checkpoint FILE   open at a DALI checkpoint (Pipeline.checkpoint() bytes)\n"         \
	"  --at N              start at iteration N (from the start, also with --checkpoint),\n"  \
	"                      moving readers and generators on without running iterations\n"     \
	"  --save-checkpoint FILE  write a checkpoint (DALI's format) after the last iteration\n"

/* Consumes the flag at argv[i] if it is one of these: returns the number of arguments used
 * (0: not ours), or -1 after printing a usage error. */
int dalic_cli_ckpt_parse(int argc, char **argv, int i, dalic_cli_ckpt_opts_t *ck);
/* Turns on enable_checkpointing when a checkpoint is read or written. */
void dalic_cli_ckpt_override(const dalic_cli_ckpt_opts_t *ck, dalic_pipeline_override_t *o);
/* Sets the checkpoint, builds, seeks; says on stderr which operators made a seek run. */
int dalic_cli_ckpt_open(const dalic_cli_ckpt_opts_t *ck, dalic_pipeline_t *p);
/* The same for a debug session (opened, inputs attached): `checkpoint load`, then `goto`
 * (the seek where it can); prints the error. */
int dalic_cli_ckpt_open_debug(const dalic_cli_ckpt_opts_t *ck, dalic_debug_t *s);
/* Writes the pipeline's checkpoint to path; prints the error. */
int dalic_cli_ckpt_save(dalic_pipeline_t *p, const char *path);

#endif
