/*
 * The body of the video readers: readers.video (DALI's legacy VideoReader, a GPU operator
 * there, run on the CPU here), readers.video_resize (the same with a resize of every frame)
 * and experimental.readers.video (DALI's VideoReaderDecoder, whose CPU variant this follows).
 *
 * At the first setup (or at init without lazy_init) the videos are listed
 * (kernels/common/video_files.c), each one's frame index is built, and the samples are
 * enumerated: sequences of `sequence_length` frames `stride` apart, starting every `step`
 * frames of each video (or of its file_list range). The legacy reader keeps a sequence when
 * its last frame exists and, with pad_sequences, adds the shorter tails (padded with black
 * frames); the experimental one keeps a sequence when start + stride * length fits and, with
 * a pad_mode other than 'none', adds one tail padded by the mode. Samples come in DALI's
 * Loader order (video_loader.c). Each worker thread keeps one decoder open on the last video
 * it read, so consecutive sequences of a video decode forward without seeking.
 *
 * Outputs: frames (F, H, W, 3) "FHWC" uint8 (legacy: or float, `normalized` to [0, 1]),
 * then the label, the frame number(s) and the timestamps when asked for, as each variant
 * decides.
 */
#ifndef DALIC_KERNELS_VIDEO_READER_OP_H
#define DALIC_KERNELS_VIDEO_READER_OP_H

#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/img_scratch.h"
#include "kernels/common/video_decode.h"
#include "kernels/common/video_frames.h"
#include "kernels/common/video_files.h"
#include "kernels/common/video_loader.h"

enum { VIDEO_FRAME_NUM_NONE, VIDEO_FRAME_NUM_SCALAR, VIDEO_FRAME_NUM_SEQUENCE };

typedef struct video_seq {
	int32_t file;
	int32_t start;
	int32_t frames; /* frames that exist (legacy tails); the rest is padding */
} video_seq_t;

/* A worker thread's decoder (kept open on the last video it read) and scratch memory. */
typedef struct video_worker {
	video_dec_t dec;
	img_scratch_t order; /* frames of a sample sorted for decoding */
	img_scratch_t frame; /* one decoded frame (float output) */
	img_scratch_t plan;  /* a sample's frames and frame numbers */
} video_worker_t;

typedef struct video_reader {
	bool legacy;
	int seq_len, stride, step;
	int frame_num;
	bool timestamps, labels_out, nums_out; /* which outputs exist */
	video_pad_t pad;
	uint8_t fill[16];
	int nfill;
	int image_type;
	dalic_dtype_t dtype; /* legacy: UINT8 or FLOAT */
	bool normalized, skip_vfr;
	bool uniform; /* uniform_sample: one sample per video, frames spread evenly */
	/* file_list ranges */
	int list_format; /* 0 timestamps, 1 frames (legacy: file_list_frame_num) */
	bool round_start_down, round_end_down, include_end;
	/* loader arguments */
	int shard_id, num_shards;
	int64_t initial_fill;
	bool stick, pad_last, shuffle;
	/* state */
	bool ready;
	video_files_t files;
	video_seq_t *seqs;
	int64_t nseqs;
	video_loader_t loader;
	int32_t *selected;  /* sequence per sample of the batch */
	video_worker_t *workers; /* one per worker thread */
	int num_threads;
	char err[1024];
} video_reader_t;

/* Output count as the variant's schema computes it from the arguments. */
int dalic_video_reader_outputs(const dalic_opdef_t *def, bool legacy);

/* Reads and checks the arguments into r (video_reader_args.c); fini frees what it made. */
int dalic_video_reader_parse(dalic_op_ctx_t *ctx, video_reader_t *r, bool legacy);
/* Parses, then (unless lazy_init) lists and indexes the videos. Cleans up on failure. */
int dalic_video_reader_init(dalic_op_ctx_t *ctx, video_reader_t *r, bool legacy);
void dalic_video_reader_fini(video_reader_t *r);
/* Picks the batch's sequences; shapes of the frames go to `frames` (the decoded frames: a
 * batch of the resize variant's own), labels and numbers to ws->outputs[1...]. */
int dalic_video_reader_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r,
                             dalic_batch_t *frames);
/* Decodes sample i's frames into `frames` and writes its other outputs. */
int dalic_video_reader_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r,
                                  dalic_batch_t *frames, int i, int thread);
int dalic_video_reader_meta(dalic_op_ctx_t *ctx, video_reader_t *r, dalic_reader_meta_t *out);
int dalic_video_reader_reset(video_reader_t *r);

/* The legacy reader's arguments (readers.video and readers.video_resize). */
#define VIDEO_READER_LEGACY_ARGS                                                                \
	{"filenames", DALIC_ARG_STRING_LIST, "[]", "Video files to read."},                    \
	{"file_root", DALIC_ARG_STRING, "''",                                                  \
	 "Directory with one subdirectory of videos per class (label = its sorted position)."}, \
	{"file_list", DALIC_ARG_STRING, "''",                                                  \
	 "Text file of 'path label [start [end]]' lines (times, or frames with "             \
	 "file_list_frame_num)."},                                                             \
	{"labels", DALIC_ARG_INT_LIST, "None",                                                 \
	 "Labels of `filenames` (an empty list: their positions)."},                           \
	{"sequence_length", DALIC_ARG_INT, NULL, "Frames per sequence."},                      \
	{"stride", DALIC_ARG_INT, "1", "Distance between the frames of a sequence."},          \
	{"step", DALIC_ARG_INT, "-1",                                                          \
	 "Frames between the starts of consecutive sequences (< 0: sequence_length * stride)."}, \
	{"channels", DALIC_ARG_INT, "3", "Channels of the frames (accepted; frames have 3)."}, \
	{"dtype", DALIC_ARG_DTYPE, "UINT8", "Output type: UINT8 or FLOAT."},                   \
	{"normalized", DALIC_ARG_BOOL, "False", "FLOAT output in [0, 1] instead of [0, 255]."}, \
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of the frames: RGB or YCbCr."}, \
	{"enable_frame_num", DALIC_ARG_STRING, "'none'",                                       \
	 "'scalar' (or True): the first frame's number; 'sequence': every frame's."},          \
	{"enable_timestamps", DALIC_ARG_BOOL, "False", "Also output each frame's time (s)."},  \
	{"pad_sequences", DALIC_ARG_BOOL, "False",                                             \
	 "Also read the shorter sequences at the end of a video, padded with black frames."},  \
	{"skip_vfr_check", DALIC_ARG_BOOL, "False",                                            \
	 "Read variable-frame-rate videos instead of refusing them."},                         \
	{"file_list_frame_num", DALIC_ARG_BOOL, "False",                                       \
	 "file_list ranges are frame numbers instead of seconds."},                            \
	{"file_list_include_preceding_frame", DALIC_ARG_BOOL, "False",                         \
	 "Round a file_list start time down (and end time up) instead of inwards."},           \
	{"additional_decode_surfaces", DALIC_ARG_INT, "2", "NVDEC surfaces (accepted; unused)."}

/* Loader arguments every reader has (DALI's LoaderBase). */
#define VIDEO_READER_LOADER_ARGS                                                                \
	{"random_shuffle", DALIC_ARG_BOOL, "False", "Pick samples at random from a buffer."},  \
	{"initial_fill", DALIC_ARG_INT, "1024", "Size of the random_shuffle buffer."},         \
	{"shard_id", DALIC_ARG_INT, "0", "Index of the shard to read."},                       \
	{"num_shards", DALIC_ARG_INT, "1", "Number of shards the data is split into."},        \
	{"stick_to_shard", DALIC_ARG_BOOL, "False", "Read the same shard every epoch."},       \
	{"pad_last_batch", DALIC_ARG_BOOL, "False",                                            \
	 "Repeat the last sample so every shard yields the same number of full batches."},     \
	{"read_ahead", DALIC_ARG_BOOL, "False", "Accepted; videos are read as they decode."},  \
	{"dont_use_mmap", DALIC_ARG_BOOL, "False", "Accepted; libavformat reads the files."},  \
	{"prefetch_queue_depth", DALIC_ARG_INT, "1", "Loader prefetch depth (accepted; unused)."}, \
	{"lazy_init", DALIC_ARG_BOOL, "False", "List and index the videos at the first run."}, \
	{"tensor_init_bytes", DALIC_ARG_INT, "1048576",                                        \
	 "Initial bytes per sample (accepted; outputs are sized from the videos)."},           \
	{"skip_cached_images", DALIC_ARG_BOOL, "False", "Accepted; dalic has no decoder cache."}

#endif
