/*
 * Real FFTs for the spectrogram through FFTW3 (single precision). FFTW's planner is not
 * thread-safe, so plans are made under one lock; executing a plan on other (aligned) arrays is,
 * so one plan serves every worker thread. Plans use FFTW_ESTIMATE: the same algorithm on every
 * run, hence the same bits (FFTW_MEASURE times candidates and may pick another one).
 *
 * FFTW rather than pocketfft: on this project's 2-core machine a 512-point real transform takes
 * about 0.6-1.3 us with FFTW against 2.6 us with pocketfft's C++ plan (and 5 us through its
 * array interface); FFTW is packaged by Debian (libfftw3-dev), pocketfft is not.
 */
#ifndef DALIC_KERNELS_AUDIO_FFT_H
#define DALIC_KERNELS_AUDIO_FFT_H

typedef struct dalic_audio_fft {
	int nfft;
	void *plan; /* fftwf_plan */
} dalic_audio_fft_t;

/* A forward real transform of nfft points. */
int dalic_audio_fft_init(dalic_audio_fft_t *f, int nfft);
/* in: nfft floats; out: nfft / 2 + 1 complex values (re, im pairs). Both 64-byte aligned
 * (dalic_img_scratch_get's buffers are). */
void dalic_audio_fft_run(const dalic_audio_fft_t *f, float *in, float *out);
void dalic_audio_fft_free(dalic_audio_fft_t *f);

#endif
