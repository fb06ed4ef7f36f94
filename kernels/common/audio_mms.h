/*
 * The float moving mean square of nonsilent_region (DALI 2.4's, see nonsilent_region.c):
 * out[p] = (sum of x[q]^2 for q in the window ending at p, inside the signal) * mean, kept
 * as a running float sum (the leaving square subtracted, then the entering one added) and
 * recomputed from scratch at the start of every segment of reset + 1 positions.
 *
 * The running sum is a chain of dependent float additions, so one segment runs at the
 * adder's latency. Segments are independent: `lanes` of them (1 to 4) advance together,
 * each with exactly its own sequence of operations, so every lane count gives the same bits
 * (tests/unit/test_audio_mms.c); nonsilent_region runs 4.
 */
#ifndef DALIC_KERNELS_AUDIO_MMS_H
#define DALIC_KERNELS_AUDIO_MMS_H

#include <stdint.h>

#define DALIC_AUDIO_MMS_LANES 4

void dalic_audio_mms_f32(const float *x, int64_t n, int64_t window, int64_t reset, float mean,
                         float *out, int lanes);

#endif
