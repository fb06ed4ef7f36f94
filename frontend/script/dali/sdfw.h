/*
 * Framework modules answered from the launcher's environment (sdfw.c): torch.distributed,
 * torch.cuda, horovod.*, paddle.distributed, paddle.device; docs/scripts-frameworks.md.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDFW_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDFW_H

#include "frontend/script/py/pyeval.h"

/* Whether v is one of these modules. */
bool dalic_sdfw_is_module(const pyval_t *v);
/* Registers the modules with the module machinery. */
int dalic_sdfw_open(pyinterp_t *I);

#endif
