/*
 * What the image decoder operators (decoders.image, image_random_crop, image_slice and
 * image_crop) share: the common DALI arguments, one img_decoder_t per worker thread (created
 * on first use, so each thread's buffers stay warm), header probing of a batch in setup, the
 * checked window (ROI) and the per-sample decode.
 * The encoded input is a 1-D uint8 batch, normally readers.file's first output; its sources
 * name the files in errors.
 *
 * Damaged data: what the codec warns about but decodes (as DALI does) goes to the pipeline's
 * warnings log, per sample (dalic_op_warn); what it refuses fails the pipeline — or, in a scan,
 * is logged as an error and that sample left empty (dalic_op_sample_error). A scan decodes
 * every image as far as a run would, into the thread's decoder's scratch, skips orientation
 * and colour conversion (they neither warn nor fail) and outputs empty samples: the pixels
 * are not what it is for.
 */
#ifndef DALIC_KERNELS_IMG_DECODER_OP_H
#define DALIC_KERNELS_IMG_DECODER_OP_H

#include "engine/kernel.h"
#include "kernels/common/img_codec.h"
#include "kernels/common/img_scratch.h"

typedef struct img_decoder_op {
	int output_type;
	bool adjust_orientation;
	img_decoder_t *probe;     /* used by setup (one thread) */
	img_decoder_t **threads;  /* per worker thread */
	int num_threads;
	img_info_t *info;         /* per sample of the current batch */
	img_rect_t *window;       /* per sample: the region to decode (oriented coordinates) */
	bool *refused;            /* per sample: refused in setup (scans go on without it) */
	bool scanning;            /* dalic_op_scanning at setup: pixels decoded, then dropped */
} img_decoder_op_t;

int dalic_img_decoder_op_init(dalic_op_ctx_t *ctx, img_decoder_op_t *op);
void dalic_img_decoder_op_fini(img_decoder_op_t *op);
/* Probes every sample of input 0 into op->info, sets op->window to the whole images, and
 * prepares output 0's meta (uint8, HWC) without shapes. A sample whose header does not read
 * (or whose output type DALI refuses for it) fails the pipeline, or in a scan is logged and
 * marked op->refused[i]: callers skip such samples (set_shape gives them no pixels). */
int dalic_img_decoder_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op);
/* Output shape of sample i from op->window and the output channels, after checking that the
 * output and the decoder's working memory fit the memory budget (from the header alone).
 * Empty (0 x 0 x C) for a refused sample and in a scan. */
int dalic_img_decoder_op_set_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op,
                                   int i);
/* Sets op->window[i] to the window of sample i (oriented coordinates), failing as DALI does
 * when it is empty or reaches outside the image. */
int dalic_img_decoder_op_set_window(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op,
                                    int i, int64_t y, int64_t x, int64_t h, int64_t w);
/* Decodes op->window[i] of sample i into output 0 and reports the codec's warnings. */
int dalic_img_decoder_op_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op, int i,
                             int thread);

/* The arguments every decoder accepts; those without an effect on the CPU decoder are
 * accepted so DALI scripts run unchanged. decoders.image adds IMG_DECODER_CACHE_ARGS. */
#define IMG_DECODER_ARGS                                                                      \
	{"output_type", DALIC_ARG_IMAGE_TYPE, "RGB",                                           \
	 "Colour space of the output: RGB, BGR, GRAY, YCbCr or ANY_DATA."},                    \
	{"adjust_orientation", DALIC_ARG_BOOL, "True", "Apply the EXIF orientation."},        \
	{"dtype", DALIC_ARG_DTYPE, "UINT8", "Output data type (UINT8 only)."},                \
	{"use_fast_idct", DALIC_ARG_BOOL, "False", "Accepted; dalic always uses the accurate IDCT."}, \
	{"jpeg_fancy_upsampling", DALIC_ARG_BOOL, "False",                                    \
	 "Accepted; the CPU decoder always uses fancy upsampling."},                           \
	{"hw_decoder_load", DALIC_ARG_FLOAT, "0.65", "Accepted; no hardware decoder."},        \
	{"hybrid_huffman_threshold", DALIC_ARG_INT, "1000000", "Accepted; unused."},          \
	{"preallocate_width_hint", DALIC_ARG_INT, "0", "Accepted; unused."},                  \
	{"preallocate_height_hint", DALIC_ARG_INT, "0", "Accepted; unused."},                 \
	{"device_memory_padding", DALIC_ARG_INT, "16777216", "Accepted; unused."},            \
	{"host_memory_padding", DALIC_ARG_INT, "8388608", "Accepted; unused."},               \
	{"device_memory_padding_jpeg2k", DALIC_ARG_INT, "0", "Accepted; unused."},            \
	{"host_memory_padding_jpeg2k", DALIC_ARG_INT, "0", "Accepted; unused."},              \
	{"affine", DALIC_ARG_BOOL, "True", "Accepted; unused."},                              \
	{"split_stages", DALIC_ARG_BOOL, "False", "Accepted; unused."},                       \
	{"use_chunk_allocator", DALIC_ARG_BOOL, "False", "Accepted; unused."},                \
	{"memory_stats", DALIC_ARG_BOOL, "False", "Accepted; unused."}

/* decoders.image's cache arguments (DALI's other decoders have none). */
#define IMG_DECODER_CACHE_ARGS                                                                \
	{"cache_size", DALIC_ARG_INT, "0", "Accepted; dalic has no decoder cache."},          \
	{"cache_threshold", DALIC_ARG_INT, "0", "Accepted; unused."},                         \
	{"cache_type", DALIC_ARG_STRING, "''", "Accepted; unused."},                          \
	{"cache_debug", DALIC_ARG_BOOL, "False", "Accepted; unused."},                        \
	{"cache_batch_copy", DALIC_ARG_BOOL, "True", "Accepted; unused."}

#endif
