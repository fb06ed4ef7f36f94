/* DALI's DecodeAudio (see audio_decode.h). */
#include "kernels/common/audio_decode.h"

#include "engine/checked.h"
#include "kernels/common/audio_convert.h"

#include <stdio.h>
#include <string.h>

static bool audio_job_mixes(const dalic_audio_job_t *j)
{
	return j->downmix && j->info->channels > 1;
}

int64_t dalic_audio_job_scratch(const dalic_audio_job_t *j)
{
	bool mix = audio_job_mixes(j);
	if (!j->window && !mix)
		return 0;
	/* the decoded frames, then the mixed channel, then the float output when the output is
	 * an integer type */
	int out_ch = j->downmix ? 1 : j->info->channels;
	int64_t decoded, result, total;
	if (!dalic_ck_mul_i64(j->frames, j->info->channels, &decoded) ||
	    !dalic_ck_mul_i64(j->out_len, out_ch, &result) ||
	    !dalic_ck_add_i64(decoded, mix ? j->frames : 0, &total) ||
	    !dalic_ck_add_i64(total, j->dtype == DALIC_FLOAT ? 0 : result, &total) ||
	    total > INT64_MAX / (int64_t)sizeof(float))
		return -1;
	return total;
}

static int audio_job_read(dalic_audio_file_t *f, const dalic_audio_job_t *j, dalic_dtype_t t,
                          void *out, char *err, size_t errn)
{
	int64_t got = dalic_audio_read(f, t, out, j->frames);
	if (got == j->frames)
		return 0;
	snprintf(err, errn,
	         "Error decoding %s audio: requested %lld samples but got %lld samples (%s)",
	         j->info->format, (long long)j->frames, (long long)got, dalic_audio_error(f));
	return -1;
}

int dalic_audio_job_run(dalic_audio_file_t *f, const dalic_audio_job_t *j, void *out,
                        float *scratch, char *err, size_t errn)
{
	bool mix = audio_job_mixes(j);
	if (j->out_len == 0 || j->frames == 0)
		return 0;
	if (!j->window && !mix)
		return audio_job_read(f, j, j->dtype, out, err, errn);
	int out_ch = j->downmix ? 1 : j->info->channels;
	size_t decoded = (size_t)j->frames * (size_t)j->info->channels;
	size_t mixed = mix ? (size_t)j->frames : 0;
	if (audio_job_read(f, j, DALIC_FLOAT, scratch, err, errn))
		return -1;
	const float *signal = scratch;
	if (mix) {
		dalic_audio_downmix(scratch + decoded, scratch, j->frames, j->info->channels);
		signal = scratch + decoded;
	}
	float *dst = j->dtype == DALIC_FLOAT ? out : scratch + decoded + mixed;
	if (j->window)
		dalic_audio_resample(j->window, dst, j->out_len, j->target, signal, j->frames,
		                     j->info->sample_rate, out_ch);
	else if (dst != signal)
		memcpy(dst, signal, (size_t)j->out_len * sizeof *dst);
	if (j->dtype != DALIC_FLOAT)
		dalic_audio_from_float_norm(j->dtype, out, dst, j->out_len * out_ch);
	return 0;
}
