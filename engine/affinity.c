/*
 * Worker affinity (see affinity.h). The plan is computed once, on the thread that builds the
 * pipeline, so a malformed DALI_AFFINITY_MASK is reported by the build instead of being lost
 * on a worker thread; each worker then pins itself before taking any work.
 */
#include "engine/affinity.h"

#include "engine/error.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int dalic_affinity_parse(const char *mask, int *cpus, int max)
{
	int n = 0;
	const char *s = mask;
	while (*s) {
		while (*s == ' ')
			s++;
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (end == s || errno || v < 0 || v >= CPU_SETSIZE) {
			dalic_fail(DALIC_EINVAL,
				   "DALI_AFFINITY_MASK='%s': entry %d is not a CPU id in [0, %d)",
				   mask, n, CPU_SETSIZE);
			return -1;
		}
		if (n < max)
			cpus[n] = (int)v;
		n++;
		s = end;
		while (*s == ' ')
			s++;
		if (*s == ',')
			s++;
		else if (*s) {
			dalic_fail(DALIC_EINVAL, "DALI_AFFINITY_MASK='%s': expected ',' after entry %d",
				   mask, n - 1);
			return -1;
		}
	}
	return n;
}

int dalic_affinity_plan(bool set_affinity, int n, int *cpus)
{
	for (int i = 0; i < n; i++)
		cpus[i] = -1;
	const char *mask = getenv("DALI_AFFINITY_MASK");
	if (!set_affinity || !mask || !*mask)
		return DALIC_OK; /* DALI would ask NVML here; dalic leaves the threads unpinned */
	int entries = dalic_affinity_parse(mask, cpus, n);
	if (entries < 0)
		return DALIC_EINVAL;
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	bool known = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
	for (int i = 0; i < n && i < entries; i++)
		if (known && !CPU_ISSET(cpus[i], &allowed))
			return dalic_fail(DALIC_EINVAL,
					  "DALI_AFFINITY_MASK: CPU %d (for thread %d) is not available "
					  "to this process",
					  cpus[i], i);
	for (int i = entries; i < n; i++)
		cpus[i] = -1;
	if (entries < n) /* DALI's warning, word for word where it applies */
		fprintf(stderr,
			"[dalic] Warning: DALI_AFFINITY_MASK environment variable is set, but does "
			"not have enough entries: %d threads vs #entries (%d). Threads beyond the "
			"list are left unpinned (no NVML).\n",
			n, entries);
	return DALIC_OK;
}

int dalic_affinity_pin_self(int cpu)
{
	if (cpu < 0)
		return DALIC_OK;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	return rc ? DALIC_EINVAL : DALIC_OK;
}
