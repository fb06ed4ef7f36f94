/*
 * One collection of the runtime heap (see pygc.h).
 */
#include "frontend/script/py/pygc.h"

#include "frontend/script/py/pygen.h"

#include <stdlib.h>
#include <string.h>

void dalic_pygc_collect(pyinterp_t *I, const pyarena_root_t *roots, int nroots)
{
	size_t cap = (size_t)I->nlive_gens + 1;
	pygen_t **gens = malloc(sizeof *gens * cap);
	bool *live = calloc(cap, sizeof *live);
	if (!gens || !live) {
		free(gens);
		free(live);
		return;
	}
	/* off the list first: the links between generators must not keep them alive */
	int n = dalic_pygen_gc_take(I, gens);
	if (dalic_pyarena_gc_begin(I->a)) {
		memset(live, 1, cap * sizeof *live);
		dalic_pygen_gc_give_back(I, gens, live, n);
		free(gens);
		free(live);
		return;
	}
	dalic_pyarena_gc_scan(I->a, I, sizeof *I);
	for (int i = 0; i < nroots; i++)
		dalic_pyarena_gc_scan(I->a, roots[i].p, roots[i].n);
	dalic_pygen_gc_mark(I, gens, live, n);
	dalic_pygen_gc_give_back(I, gens, live, n);
	dalic_pyarena_gc_sweep(I->a);
	free(gens);
	free(live);
}
