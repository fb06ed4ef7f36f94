/* The one monotonic clock every timing in dalic reads (executor, stats, debug mode, TUI):
 * dalic_clock_ns(), public in dalic.h, defined in engine/clock.c. */
#ifndef DALIC_ENGINE_CLOCK_H
#define DALIC_ENGINE_CLOCK_H

#include "dalic.h"

#endif
