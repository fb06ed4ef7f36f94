/* libsndfile over a memory buffer or a file (see audio_sndfile.h). */
#include "kernels/common/audio_sndfile.h"

#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dalic_audio_file {
	SNDFILE *sf;
	SF_INFO info;
	const unsigned char *data;
	sf_count_t size, pos;
};

static sf_count_t audio_sndfile_length(void *user)
{
	return ((dalic_audio_file_t *)user)->size;
}

static sf_count_t audio_sndfile_seek(sf_count_t offset, int whence, void *user)
{
	dalic_audio_file_t *f = user;
	sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f->pos : f->size;
	if ((whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) ||
	    offset < -base || offset > f->size - base)
		return -1;
	f->pos = base + offset;
	return f->pos;
}

static sf_count_t audio_sndfile_read(void *dst, sf_count_t n, void *user)
{
	dalic_audio_file_t *f = user;
	if (n > f->size - f->pos)
		n = f->size - f->pos;
	if (n <= 0)
		return 0;
	memcpy(dst, f->data + f->pos, (size_t)n);
	f->pos += n;
	return n;
}

static sf_count_t audio_sndfile_tell(void *user)
{
	return ((dalic_audio_file_t *)user)->pos;
}

static const char *audio_sndfile_format(int format)
{
	switch (format & SF_FORMAT_TYPEMASK) {
	case SF_FORMAT_WAV:
	case SF_FORMAT_WAVEX:
	case SF_FORMAT_RF64:
		return "WAV";
	case SF_FORMAT_FLAC:
		return "FLAC";
	case SF_FORMAT_OGG:
		return "OGG";
	case SF_FORMAT_AIFF:
		return "AIFF";
	default:
		return "audio";
	}
}

/* After sf_open*: checks what libsndfile found and fills info. */
static dalic_audio_file_t *audio_sndfile_opened(dalic_audio_file_t *f, dalic_audio_info_t *info,
                                                char *err, size_t errlen)
{
	if (!f->sf) {
		snprintf(err, errlen, "%s", sf_strerror(NULL));
		free(f);
		return NULL;
	}
	if (f->info.channels < 1 || f->info.samplerate < 1 || f->info.frames < 0) {
		snprintf(err, errlen, "%d channels at %d Hz is not a recording", f->info.channels,
		         f->info.samplerate);
		dalic_audio_close(f);
		return NULL;
	}
	info->frames = f->info.frames;
	info->sample_rate = f->info.samplerate;
	info->channels = f->info.channels;
	info->format = audio_sndfile_format(f->info.format);
	return f;
}

dalic_audio_file_t *dalic_audio_open(const void *data, size_t n, dalic_audio_info_t *info,
                                     char *err, size_t errlen)
{
	memset(info, 0, sizeof *info);
	if (n == 0 || n > (size_t)INT64_MAX) {
		snprintf(err, errlen, "empty input");
		return NULL;
	}
	dalic_audio_file_t *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->data = data;
	f->size = (sf_count_t)n;
	SF_VIRTUAL_IO io = {audio_sndfile_length, audio_sndfile_seek, audio_sndfile_read, NULL,
	                    audio_sndfile_tell};
	f->sf = sf_open_virtual(&io, SFM_READ, &f->info, f);
	return audio_sndfile_opened(f, info, err, errlen);
}

dalic_audio_file_t *dalic_audio_open_path(const char *path, dalic_audio_info_t *info, char *err,
                                          size_t errlen)
{
	memset(info, 0, sizeof *info);
	dalic_audio_file_t *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->sf = sf_open(path, SFM_READ, &f->info);
	return audio_sndfile_opened(f, info, err, errlen);
}

int dalic_audio_seek(dalic_audio_file_t *f, int64_t frame)
{
	return sf_seek(f->sf, (sf_count_t)frame, SEEK_SET) == (sf_count_t)frame ? 0 : -1;
}

int64_t dalic_audio_read(dalic_audio_file_t *f, dalic_dtype_t dtype, void *out, int64_t frames)
{
	switch (dtype) {
	case DALIC_INT16:
		return sf_readf_short(f->sf, out, frames);
	case DALIC_INT32:
		return sf_readf_int(f->sf, out, frames);
	case DALIC_FLOAT:
		return sf_readf_float(f->sf, out, frames);
	default:
		return -1;
	}
}

const char *dalic_audio_error(dalic_audio_file_t *f)
{
	return sf_strerror(f ? f->sf : NULL);
}

void dalic_audio_close(dalic_audio_file_t *f)
{
	if (!f)
		return;
	if (f->sf)
		sf_close(f->sf);
	free(f);
}
