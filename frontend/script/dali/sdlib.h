/*
 * The nvidia.dali module tree a script imports: nvidia.dali (fn, ops, types, math,
 * pipeline, pipeline_def, Pipeline, newaxis), nvidia.dali.types (DALIDataType /
 * DALIImageType / DALIInterpType members, layout names, Constant), nvidia.dali.pipeline(.
 * experimental), nvidia.dali.data_node. Unknown members of nvidia.dali (plugin, backend...)
 * are opaque.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDLIB_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDLIB_H

#include "frontend/script/dali/sdali.h"

/* Registers the nvidia.* modules with the core's module machinery. */
int dalic_sdlib_open(pyinterp_t *I);

#endif
