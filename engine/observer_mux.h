/*
 * Several observers at once: the executor holds one dalic_observer_t, so a pipeline keeps
 * its observers in a mux and installs the mux's fan-out observer. A hook is set in the
 * fan-out only when some member has it, so a hook nobody wants still costs nothing (the
 * executor skips NULL hooks, e.g. the per-chunk work_chunk). With one member the member
 * itself is installed: no indirection at all. Members run in the order they were added.
 * The mux is changed only while no iteration is in flight (as dalic_exec_set_observer).
 */
#ifndef DALIC_ENGINE_OBSERVER_MUX_H
#define DALIC_ENGINE_OBSERVER_MUX_H

#include "engine/observer.h"

#define DALIC_OBSERVER_MUX_MAX 8

typedef struct dalic_observer_mux {
	int n;
	dalic_observer_t members[DALIC_OBSERVER_MUX_MAX];
} dalic_observer_mux_t;

/* Adds a copy of *obs. DALIC_ESTATE (with a message) when the mux is full. */
int dalic_observer_mux_add(dalic_observer_mux_t *m, const dalic_observer_t *obs);
/* Removes every member whose user is `user`; returns how many. */
int dalic_observer_mux_remove(dalic_observer_mux_t *m, const void *user);
/* The observer to install for the members: NULL when there are none, the member itself when
 * there is one, otherwise *out filled with the fan-out hooks (user = m, which must outlive
 * the installation). */
const dalic_observer_t *dalic_observer_mux_view(const dalic_observer_mux_t *m,
						 dalic_observer_t *out);

#endif
