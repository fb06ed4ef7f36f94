/*
 * The Python modules dalic embeds (frontend/script/dali/pylib/, compiled into the table
 * tools/embed_py.sh writes): DALI's nvidia.dali.auto_aug, written in the Python subset dalic
 * runs, so that its policies build their graphs from the same operators as DALI's. Each is
 * run on first import (py/pylibmod.h).
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDEMBED_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDEMBED_H

#include "frontend/script/py/pymod.h"

typedef struct sdembed {
	const char *module; /* dotted name */
	const char *path;   /* as its errors show it: nvidia/dali/auto_aug/... */
	const char *text;
} sdembed_t;

extern const sdembed_t dalic_sdembed_sources[];
extern const pymodreg_t dalic_sdembed_modules[];

/* The opener of every embedded module. */
int dalic_sdembed_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* Registers the embedded modules with the interpreter. */
int dalic_sdembed_register(pyinterp_t *I);

#endif
