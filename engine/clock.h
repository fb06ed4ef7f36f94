/* The one monotonic clock every timing in dalic reads (executor, stats, debug mode, TUI):
 * dalic_clock_ns(), public in dalic.h, defined in engine/clock.c. */
#ifndef DALIC_ENGINE_CLOCK_H
#define DALIC_ENGINE_CLOCK_H

#include "dalic.h"

/* CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), ns: a system call, so read only
 * where someone observes (stats hooks), never per sample. */
int64_t dalic_thread_cpu_ns(void);

#endif
