/* FFTW3 real transforms (see audio_fft.h). */
#include "kernels/common/audio_fft.h"

#include "engine/error.h"

#include <fftw3.h>
#include <pthread.h>

static pthread_mutex_t audio_fft_planner = PTHREAD_MUTEX_INITIALIZER;

int dalic_audio_fft_init(dalic_audio_fft_t *f, int nfft)
{
	f->nfft = nfft;
	f->plan = NULL;
	pthread_mutex_lock(&audio_fft_planner);
	float *in = fftwf_alloc_real((size_t)nfft);
	fftwf_complex *out = fftwf_alloc_complex((size_t)nfft / 2 + 1);
	if (in && out)
		f->plan = fftwf_plan_dft_r2c_1d(nfft, in, out, FFTW_ESTIMATE);
	fftwf_free(in);
	fftwf_free(out);
	pthread_mutex_unlock(&audio_fft_planner);
	if (!f->plan)
		return dalic_fail(DALIC_ENOMEM, "cannot plan a %d-point FFT", nfft);
	return DALIC_OK;
}

void dalic_audio_fft_run(const dalic_audio_fft_t *f, float *in, float *out)
{
	fftwf_execute_dft_r2c((fftwf_plan)f->plan, in, (fftwf_complex *)out);
}

void dalic_audio_fft_free(dalic_audio_fft_t *f)
{
	if (!f->plan)
		return;
	pthread_mutex_lock(&audio_fft_planner);
	fftwf_destroy_plan((fftwf_plan)f->plan);
	pthread_mutex_unlock(&audio_fft_planner);
	f->plan = NULL;
}
