/*
 * CPU affinity of the per-sample workers, as DALI documents it (docs/dali-behaviour.md §8): when a
 * pipeline has set_affinity, worker thread i is pinned to the i-th CPU id of the
 * comma-separated list in DALI_AFFINITY_MASK. DALI pins threads beyond the list to the CPUs
 * NVML reports for the GPU; dalic has no NVML, so those threads stay unpinned (with DALI's
 * warning). Without set_affinity nothing is pinned, whatever the environment says.
 */
#ifndef DALIC_ENGINE_AFFINITY_H
#define DALIC_ENGINE_AFFINITY_H

#include <stdbool.h>

/* Parses a DALI_AFFINITY_MASK value ("0,2,4") into cpus[0..max). Returns the number of
 * entries, or -1 if an entry is not a non-negative integer (the message says which). */
int dalic_affinity_parse(const char *mask, int *cpus, int max);

/* The CPU each of `n` workers should be pinned to: cpus[i] = id, or -1 for "leave unpinned".
 * Reads DALI_AFFINITY_MASK when `set_affinity`; all -1 otherwise. Fails (DALIC_EINVAL) on a
 * malformed mask or an id this process may not run on. */
int dalic_affinity_plan(bool set_affinity, int n, int *cpus);

/* Pins the calling thread to `cpu` (no-op for -1). Returns DALIC_OK or DALIC_EINVAL. */
int dalic_affinity_pin_self(int cpu);

#endif
