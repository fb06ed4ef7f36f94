/*
 * DALI's normalizing conversions for audio samples (ConvertNorm / ConvertSatNorm in DALI's
 * core/convert.h): integers read as value * (1 / max) in float, so int16 32767 is 1.0;
 * floats written to integers as round(value * max) clamped to the type, unsigned ones with
 * negative values at 0.
 */
#ifndef DALIC_KERNELS_AUDIO_CONVERT_H
#define DALIC_KERNELS_AUDIO_CONVERT_H

#include "dalic.h"

#include <stdbool.h>
#include <stdint.h>

/* The dtypes the conversions take (integers up to 32 bits, float). */
bool dalic_audio_norm_type(dalic_dtype_t t);
/* n elements of `from` at src as normalized floats at dst. */
void dalic_audio_to_float_norm(float *dst, dalic_dtype_t from, const void *src, int64_t n);
/* n floats at src into `to` at dst, normalized and saturated (float: copied). */
void dalic_audio_from_float_norm(dalic_dtype_t to, void *dst, const float *src, int64_t n);

/* Averages `frames` interleaved frames of `channels` into out, as DALI's Downmix (weights
 * 1/channels in float, summed in channel order). */
void dalic_audio_downmix(float *out, const float *in, int64_t frames, int channels);

#endif
