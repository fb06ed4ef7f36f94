/*
 * print() in a debug pipeline whose arguments are more than text, data nodes and node.get()
 * — `print(np.array(img.get()[0]).shape)` — is evaluated by the script itself every
 * iteration, as DALI's debug mode runs the pipeline function every iteration (sdprint.c).
 * When the function is traced the call is recorded with the values its arguments read at
 * that point; debug mode then asks the script runtime (sdruntime.h) for the text with that
 * iteration's batches.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDPRINT_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDPRINT_H

#include "frontend/script/dali/sdali.h"

typedef struct sdprint {
	const pynode_t *call; /* the print(...) call */
	pyframe_t *frame;     /* the names its arguments read, as they were */
} sdprint_t;

/* The host's call hook: takes print(...) calls of debug pipelines that need evaluating. */
int dalic_sdprint_call(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t *fn, bool *taken,
                       pyval_t **out);
/* The runtime class's render_print (graphdef.h). */
int dalic_sdprint_render(dalic_shared_t *rt, int index, const dalic_print_env_t *env, char **text);

#endif
