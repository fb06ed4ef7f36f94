/*
 * DALI's DecodeAudio, shared by decoders.audio and readers.nemo_asr: `frames` frames of an
 * open file (libsndfile, audio_sndfile.h) into an output of `dtype` (INT16, INT32, FLOAT),
 * downmixed to one channel and / or resampled with DALI's windowed sinc as asked. With
 * neither, libsndfile converts straight into the output (its own integer scaling, as DALI);
 * otherwise the frames are read as float, mixed, resampled, and converted with DALI's
 * normalizing rounding (audio_convert.h).
 */
#ifndef DALIC_KERNELS_AUDIO_DECODE_H
#define DALIC_KERNELS_AUDIO_DECODE_H

#include "kernels/common/audio_resample.h"
#include "kernels/common/audio_sndfile.h"

#include <stdbool.h>

typedef struct dalic_audio_job {
	const dalic_audio_info_t *info; /* the file's channels and rate */
	int64_t frames;                 /* to read from the current position */
	dalic_dtype_t dtype;
	bool downmix;
	const dalic_audio_window_t *window; /* NULL: no resampling */
	double target;                      /* rate to resample to */
	int64_t out_len;                    /* output frames (resampled length) */
} dalic_audio_job_t;

/* Scratch floats the job needs (0 when decoding straight into the output), or -1 when that
 * is not representable. */
int64_t dalic_audio_job_scratch(const dalic_audio_job_t *j);
/* Decodes the job into out with `scratch` (dalic_audio_job_scratch floats). Returns 0, or -1
 * with "requested N samples but got M (libsndfile's reason)" in err. */
int dalic_audio_job_run(dalic_audio_file_t *f, const dalic_audio_job_t *j, void *out,
                        float *scratch, char *err, size_t errn);

#endif
