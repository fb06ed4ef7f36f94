/*
 * The DALI layer on top of the Python core (Lua's linit for nvidia.dali): its state hangs
 * off the interpreter as I->host, and dalic_sdali_open registers everything the core needs
 * to know about it — the nvidia.dali module tree (sdlib.c), the host hooks (strict errors
 * while a pipeline is built, naming pipelines by their variables, print() in debug
 * pipelines) — so the core itself has no DALI knowledge. Pipelines are created and traced as
 * the script runs; dalic_sdali_finish traces define_graph of subclasses nobody built.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDALI_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDALI_H

#include "engine/graphdef.h"
#include "frontend/script/dali/sdval.h"
#include "frontend/script/py/pyeval.h"

#define SDALI_MAX_CURRENT 32

typedef struct sdstate {
	pyclass_t *pipeline_cls; /* nvidia.dali.Pipeline */
	sdpipe_t **pipes;        /* in creation order (malloc) */
	int npipes, cappipes;
	sdpipe_t *current[SDALI_MAX_CURRENT]; /* Pipeline.current() stack */
	int ncurrent;
	int tracing;  /* > 0 while a pipeline definition runs */
	int creating; /* > 0 while a pipeline object is being created */
	int running;  /* > 0 while a pipeline runs script code (prints) */
	/* prints of debug pipelines evaluated every iteration (sdprint.c) */
	struct sdprint *prints;
	int nprints, capprints;
	const dalic_print_env_t *replay; /* while one of them is rendered */
	/* external sources given a Python `source=` (sdsource.h), newest first */
	struct sdsource *sources;
	/* @autoserialize (sdtriton.c): the first function marked, how many, where */
	pyval_t *autoserialize;
	int nautoserialize, autoserialize_line, autoserialize_col;
	/* python_function (sdpyfn.c): what the definitions keep, and the interpreter itself */
	struct sdpyhost *pyhost;
	pyinterp_t *interp;
	int detached; /* DALI's process-wide _OpCounter: operators made with no current
			 pipeline ("__<Name>_detached_<n>"), e.g. constant outputs */
} sdstate_t;

/* Makes I a DALI interpreter with state S (zeroed by the caller, outliving I's run). */
int dalic_sdali_open(pyinterp_t *I, sdstate_t *S);
/* Traces define_graph of Pipeline subclasses not traced yet (end of script). */
int dalic_sdali_finish(pyinterp_t *I);
/* nvidia.dali.plugin.triton (sdtriton.c): registers the module; at the end of a module
 * that created no pipeline, creates the @autoserialize one as Triton's DALI backend does. */
int dalic_sdtriton_open(pyinterp_t *I);
int dalic_sdtriton_finish(pyinterp_t *I);
/* Frees the graph definitions still owned by the pipelines. */
void dalic_sdali_close(sdstate_t *S);

static inline sdstate_t *dalic_sdali_state(pyinterp_t *I)
{
	return I->host;
}

/* The pipeline being defined now, or NULL. */
static inline sdpipe_t *dalic_sdali_current(pyinterp_t *I)
{
	sdstate_t *S = I->host;
	return S->ncurrent ? S->current[S->ncurrent - 1] : NULL;
}


#endif
