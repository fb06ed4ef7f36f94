/*
 * Opening the DALI layer (see sdali.h): the Pipeline class, the nvidia.dali modules, and the
 * hooks through which the core asks about pipelines — strictness while one is built, names
 * for pipeline objects, print() inside debug pipelines.
 */
#include "frontend/script/dali/sdali.h"

#include "frontend/script/dali/sdfw.h"
#include "frontend/script/dali/sdlib.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/dali/sdprint.h"
#include "frontend/script/dali/sdpyfn.h"
#include "frontend/script/dali/sdsource.h"

#include <stdlib.h>

/* Errors while a pipeline is being created or traced stop the load. */
static bool sdali_strict(pyinterp_t *I)
{
	sdstate_t *S = dalic_sdali_state(I);
	return S->creating || S->tracing || S->running;
}

/* print() while a debug=True pipeline is traced: DALI's debug mode runs the function every
 * iteration, so the print is recorded (literal text before the first data node, the nodes)
 * and debug mode replays it with each iteration's values. */
static int sdali_print(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool *taken)
{
	sdpipe_t *pipe = dalic_sdali_state(I)->tracing ? dalic_sdali_current(I) : NULL;
	if (!pipe || !pipe->def->debug)
		return DALIC_OK;
	*taken = true;
	pyval_t *sep = dalic_pyeval_kwarg(args, "sep");
	pybuf_t b = {0};
	const char **nodes = dalic_pyarena_alloc(I->a, sizeof *nodes * (size_t)(args->npos + 1));
	if (!nodes)
		return dalic_pyeval_oom(I, at);
	int n = 0;
	bool get = false;
	for (int i = 0; i < args->npos; i++) {
		const pyval_t *v = args->pos[i];
		const sdnode_t *node = dalic_sdval_node(v);
		if (node) {
			nodes[n++] = node->name;
			get |= node->get;
		} else if (n == 0) {
			if (i)
				dalic_pyval_format(
				    &b,
				    sep && sep->kind == PV_STR
				        ? sep
				        : &(pyval_t){.kind = PV_STR, .str = {" ", 1}},
				    false);
			dalic_pyval_format(&b, v, false);
		}
	}
	if (b.oom) {
		dalic_pybuf_free(&b);
		return dalic_pyeval_oom(I, at);
	}
	dalic_pybuf_put(&b, "", 1); /* NUL-terminate */
	dalic_srcpos_t pos = {.file = I->src->path, .line = at->line, .col = at->col};
	int rc = dalic_graphdef_add_print(pipe->def, b.oom ? "" : b.s, n, nodes, get, pos);
	dalic_pybuf_free(&b);
	return rc ? dalic_pyeval_relocate(I, at, rc) : DALIC_OK;
}

static const pyhooks_t sdali_hooks = {
    .strict = sdali_strict,
    .bind = dalic_sdpipe_note_binding,
    .print = sdali_print,
    .call = dalic_sdprint_call,
};

int dalic_sdali_open(pyinterp_t *I, sdstate_t *S)
{
	I->host = S;
	I->hooks = &sdali_hooks;
	S->interp = I;
	if (!(S->pipeline_cls = dalic_sdpipe_class(I)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	DALIC_TRY(dalic_sdtriton_open(I));
	DALIC_TRY(dalic_sdfw_open(I));
	DALIC_TRY(dalic_sdpyfn_open(I));
	return dalic_sdlib_open(I);
}

int dalic_sdali_finish(pyinterp_t *I)
{
	DALIC_TRY(dalic_sdtriton_finish(I));
	sdstate_t *S = dalic_sdali_state(I);
	for (int i = 0; i < S->npipes; i++) {
		sdpipe_t *p = S->pipes[i];
		pynode_t at = {.line = p->line, .col = p->col};
		DALIC_TRY(dalic_sdpipe_trace(I, &at, p));
	}
	return dalic_sdpyfn_check(I);
}

void dalic_sdali_close(sdstate_t *S)
{
	dalic_sdpyfn_detach(S); /* before the definitions that keep it may go */
	dalic_sdsource_free(S);
	for (int i = 0; i < S->npipes; i++)
		dalic_graphdef_free(S->pipes[i]->def);
	free(S->pipes);
	S->pipes = NULL;
	S->npipes = S->cappipes = 0;
}
