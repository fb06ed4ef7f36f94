/*
 * Encoded audio in memory or in a file (WAV, FLAC, OGG Vorbis/Opus and the rest of what libsndfile reads)
 * through libsndfile's virtual I/O, as DALI's decoders.audio reads it: frames come from
 * sf_readf_short / sf_readf_int / sf_readf_float with libsndfile's own conversions, so the
 * values are DALI's.
 */
#ifndef DALIC_KERNELS_AUDIO_SNDFILE_H
#define DALIC_KERNELS_AUDIO_SNDFILE_H

#include "dalic.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dalic_audio_file dalic_audio_file_t;

typedef struct dalic_audio_info {
	int64_t frames; /* length in (multi-channel) frames */
	int sample_rate;
	int channels;
	const char *format; /* "WAV", "FLAC", "OGG", ... */
} dalic_audio_info_t;

/* Opens `n` bytes at `data` (kept by the caller while the file is open). On failure returns
 * NULL with libsndfile's reason in err. */
dalic_audio_file_t *dalic_audio_open(const void *data, size_t n, dalic_audio_info_t *info,
                                     char *err, size_t errlen);
/* Opens the file at `path` (libsndfile reads it itself). NULL with the reason in err. */
dalic_audio_file_t *dalic_audio_open_path(const char *path, dalic_audio_info_t *info, char *err,
                                          size_t errlen);
/* Moves to frame `frame` (from the start); 0, or -1 when libsndfile cannot. */
int dalic_audio_seek(dalic_audio_file_t *f, int64_t frame);
/* Reads `frames` frames into out (frames * channels values of `dtype`: INT16, INT32 or
 * FLOAT); returns the frames read (fewer on a truncated or damaged stream). */
int64_t dalic_audio_read(dalic_audio_file_t *f, dalic_dtype_t dtype, void *out, int64_t frames);
/* libsndfile's description of the last error on f. */
const char *dalic_audio_error(dalic_audio_file_t *f);
void dalic_audio_close(dalic_audio_file_t *f);

#endif
