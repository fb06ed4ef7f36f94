/*
 * libFuzzer target for the image decoders (kernels/common/img_*.c: JPEG through libjpeg-turbo,
 * PNG through libpng, the format sniffer and the EXIF reader). Any bytes must give a status and
 * a message, never a crash, a leak or undefined behaviour (ASan + UBSan). Properties checked
 * beyond "no crash":
 *  - a decode that succeeds wrote exactly the output it promised (the buffer is poisoned
 *    around it by ASan, and sized from dalic_img_output_channels and the oriented extents);
 *  - a window decode of an image that decoded whole gives the same pixels as the window cut
 *    from the whole decode, for every output type — except progressive JPEGs: when some of
 *    their scans are missing or corrupt, libjpeg-turbo's block smoothing of the incomplete
 *    coefficients sees other neighbours at a window's edge (intact files match, see
 *    test_img_decode); and JPEGs whose sampling factors are none of TurboJPEG's (subsampling
 *    -1), where libjpeg's fancy upsampling treats the window's edge as the image's edge;
 *  - the memory estimate from the header bounds what the operator lets through: images whose
 *    estimate passes the limit below are not decoded (that refusal is the operators' budget
 *    check, tested in test_hostile_memory).
 * Build and run: tests/fuzz/run.sh image [SECONDS].
 */
#include "dalic.h"
#include "kernels/common/img_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_IMAGE_MAX_BYTES (64u << 20)

static void fuzz_image_die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_image: %s: %s\n", what, err);
	abort();
}

static uint8_t *fuzz_image_decode(img_decoder_t *d, const uint8_t *data, size_t n,
                                  const img_info_t *info, int type, const img_rect_t *roi)
{
	int c = dalic_img_output_channels(info, type);
	int w = roi ? roi->w : img_oriented_w(info), h = roi ? roi->h : img_oriented_h(info);
	uint64_t lib = 0, need = (uint64_t)w * (uint64_t)h * (uint64_t)c;
	if (c <= 0 || need == 0 || need > FUZZ_IMAGE_MAX_BYTES ||
	    dalic_img_decode_memory(info, type, roi, &lib) > FUZZ_IMAGE_MAX_BYTES)
		return NULL;
	uint8_t *out = malloc(need);
	if (!out)
		return NULL;
	char err[512] = "";
	if (dalic_img_decode(d, data, n, info, type, roi, out, err, sizeof err)) {
		if (!err[0])
			fuzz_image_die("a failed decode left no message", "");
		free(out);
		return NULL;
	}
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static img_decoder_t *d;
	if (!d && !(d = dalic_img_decoder_new()))
		return 0;
	dalic_img_sniff(data, n);
	img_info_t info;
	char err[512] = "";
	bool orient = n && (data[n - 1] & 1);
	if (dalic_img_probe(d, data, n, orient, &info, err, sizeof err)) {
		if (!err[0])
			fuzz_image_die("a failed probe left no message", "");
		return 0;
	}
	static const int types[] = {DALIC_RGB, DALIC_GRAY, DALIC_BGR, DALIC_YCbCr, DALIC_ANY_DATA};
	int type = types[(n > 1 ? data[n - 2] : 0) % 5];
	uint8_t *whole = fuzz_image_decode(d, data, n, &info, type, NULL);
	if (!whole)
		return 0;
	int W = img_oriented_w(&info), H = img_oriented_h(&info);
	int c = dalic_img_output_channels(&info, type);
	uint32_t r = n >= 6 ? (uint32_t)data[n - 3] << 16 | (uint32_t)data[n - 4] << 8 | data[n - 5]
	                    : 7;
	img_rect_t roi = {(int)(r % (uint32_t)W), (int)((r >> 8) % (uint32_t)H), 0, 0};
	roi.w = 1 + (int)((r >> 3) % (uint32_t)(W - roi.x));
	roi.h = 1 + (int)((r >> 11) % (uint32_t)(H - roi.y));
	bool comparable = info.format != IMG_FMT_JPEG || (!info.progressive && info.subsampling >= 0);
	uint8_t *win = comparable ? fuzz_image_decode(d, data, n, &info, type, &roi) : NULL;
	if (win) {
		for (int y = 0; y < roi.h; y++)
			if (memcmp(win + (size_t)y * roi.w * c,
			           whole + ((size_t)(roi.y + y) * W + roi.x) * c, (size_t)roi.w * c))
				fuzz_image_die("a window differs from the same window of the whole image",
				               dalic_img_format_name(info.format));
		free(win);
	}
	free(whole);
	return 0;
}
