/*
 * Every operator of the registry runs, fed by external sources with generated data of a type
 * and layout it accepts, in the four executor modes (simple, pipelined, async, separated
 * queues; docs/executor.md) and in debug mode (docs/debug-mode.md), three iterations each.
 * Each mode's outputs equal the simple mode's byte for byte, random operators' included (the
 * same seed gives the same draws in every mode).
 *
 * The table below says what each operator needs. An operator that is neither in it nor in
 * the list of those that cannot run here (with the reason) fails the suite, so a new one
 * cannot slip by.
 */
#include "tests/testlib.h"
#include "tests/testlib/audio.h"
#include "tests/unit/registry_run.h"

#include "engine/schema.h"

#include <criterion/parameterized.h>
#include <sys/stat.h>
#include <unistd.h>

/* readers' data sets are written into the test's temporary directory */
TestSuite(registry_run, .timeout = 120, .fini = tl_tmpdir_remove);

#define REGISTRY_RUN_ITERATIONS 3
#define REGISTRY_RUN_MAX_OUTPUTS 4

/* Generated inputs. Values depend on the iteration and the sample, so a mode that mixed up
 * iterations or samples would give other bytes. */
typedef enum {
	REGISTRY_RUN_NONE,
	REGISTRY_RUN_F32,    /* FLOAT [2, 3] */
	REGISTRY_RUN_I64,    /* INT64 scalars */
	REGISTRY_RUN_BOOL,   /* BOOL scalars, alternating */
	REGISTRY_RUN_U8_HWC, /* UINT8 [8, 6, 3], layout HWC */
	REGISTRY_RUN_JPEG,   /* encoded images: the bytes of sample photographs */
	REGISTRY_RUN_BOXES,  /* FLOAT [2, 4] ltrb boxes in [0, 1] */
	REGISTRY_RUN_LABELS, /* INT32 [2]: a label per box */
	REGISTRY_RUN_MAP,    /* FLOAT [8, 6]: coordinates within an U8_HWC image */
	/* FLOAT [3]: one value per column of REGISTRY_RUN_F32 (a mean of its rows) */
	REGISTRY_RUN_F32_ROW,
	REGISTRY_RUN_WAV,   /* encoded audio: 16-bit WAV files, mono and stereo */
	REGISTRY_RUN_AUDIO, /* FLOAT [600]: a tone with a burst */
	REGISTRY_RUN_SPEC,  /* FLOAT [9, 12], layout "ft": a power spectrogram */
	REGISTRY_RUN_VIDEO, /* encoded videos: MJPEG clips of 2 to 4 frames */
	/* INT32 [2, 3]: polygons of the masks in REGISTRY_RUN_LABELS over REGISTRY_RUN_F32's rows */
	REGISTRY_RUN_POLYGONS,
} registry_run_input_t;

typedef struct registry_run_case {
	const char *op; /* schema name */
	registry_run_input_t inputs[3];
	registry_run_input_t predicate; /* argument input `predicate` */
	void (*args)(dalic_op_t *op);
} registry_run_case_t;

/* Operators that cannot run on generated input here, and why. */
typedef struct registry_run_skip {
	const char *op, *reason;
} registry_run_skip_t;

static const registry_run_case_t registry_run_cases[] = {
    {"_ArithmeticGenericOp", {REGISTRY_RUN_F32, REGISTRY_RUN_F32}, 0, registry_run_arith},
    {"AudioResample", {REGISTRY_RUN_AUDIO}, 0, registry_run_resample},
    {"BBoxPaste", {REGISTRY_RUN_BOXES}, 0, registry_run_ratio},
    {"BatchPermutation", {0}, 0, NULL},
    {"BbFlip", {REGISTRY_RUN_BOXES}, 0, NULL},
    {"BoxEncoder", {REGISTRY_RUN_BOXES, REGISTRY_RUN_LABELS}, 0, registry_run_anchors},
    {"Cast", {REGISTRY_RUN_F32}, 0, registry_run_cast},
    {"Brightness", {REGISTRY_RUN_U8_HWC}, 0, registry_run_brightness},
    {"BrightnessContrast", {REGISTRY_RUN_U8_HWC}, 0, registry_run_contrast},
    {"CastLike", {REGISTRY_RUN_F32, REGISTRY_RUN_I64}, 0, NULL},
    {"Cat", {REGISTRY_RUN_F32, REGISTRY_RUN_F32}, 0, NULL},
    {"ColorSpaceConversion", {REGISTRY_RUN_U8_HWC}, 0, registry_run_csc},
    {"ColorTwist", {REGISTRY_RUN_U8_HWC}, 0, registry_run_color_twist},
    {"Constant", {0}, 0, registry_run_constant},
    {"Contrast", {REGISTRY_RUN_U8_HWC}, 0, registry_run_contrast},
    {"CoordFlip", {REGISTRY_RUN_F32}, 0, NULL},
    {"CoordTransform", {REGISTRY_RUN_F32}, 0, NULL},
    {"Copy", {REGISTRY_RUN_F32}, 0, NULL},
    {"Crop", {REGISTRY_RUN_U8_HWC}, 0, registry_run_crop},
    {"CropMirrorNormalize", {REGISTRY_RUN_U8_HWC}, 0, registry_run_cmn},
    {"ElementExtract", {REGISTRY_RUN_F32}, 0, registry_run_element_extract},
    {"Equalize", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    /* a 2x3 float filter over the image */
    {"Filter", {REGISTRY_RUN_U8_HWC, REGISTRY_RUN_F32}, 0, NULL},
    {"Erase", {REGISTRY_RUN_U8_HWC}, 0, registry_run_erase},
    {"ExpandDims", {REGISTRY_RUN_F32}, 0, registry_run_expand_dims},
    {"ExternalSource", {0}, 0, NULL},
    {"FastResizeCropMirror", {REGISTRY_RUN_U8_HWC}, 0, registry_run_rcm},
    {"Flip", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"GetProperty", {REGISTRY_RUN_U8_HWC}, 0, registry_run_get_property},
    {"Jitter", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"Laplacian", {REGISTRY_RUN_U8_HWC}, 0, registry_run_laplacian},
    {"MFCC", {REGISTRY_RUN_SPEC}, 0, registry_run_mfcc},
    {"MelFilterBank", {REGISTRY_RUN_SPEC}, 0, registry_run_mel},
    {"NonsilentRegion", {REGISTRY_RUN_AUDIO}, 0, registry_run_nonsilent},
    {"LookupTable", {REGISTRY_RUN_I64}, 0, registry_run_lookup_table},
    {"Normalize", {REGISTRY_RUN_U8_HWC}, 0, registry_run_normalize},
    {"noise__Gaussian", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"noise__SaltAndPepper", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"noise__Shot", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"OneHot", {REGISTRY_RUN_I64}, 0, registry_run_one_hot},
    {"Pad", {REGISTRY_RUN_F32}, 0, NULL},
    {"Paste", {REGISTRY_RUN_U8_HWC}, 0, registry_run_paste},
    {"PeekImageShape", {REGISTRY_RUN_JPEG}, 0, NULL},
    {"PerFrame", {REGISTRY_RUN_F32}, 0, NULL},
    {"PreemphasisFilter", {REGISTRY_RUN_AUDIO}, 0, NULL},
    {"RandomBBoxCrop", {REGISTRY_RUN_BOXES, REGISTRY_RUN_LABELS}, 0, NULL},
    {"RandomResizedCrop", {REGISTRY_RUN_U8_HWC}, 0, registry_run_rrc},
    {"GaussianBlur", {REGISTRY_RUN_U8_HWC}, 0, registry_run_gaussian_blur},
    {"Hsv", {REGISTRY_RUN_U8_HWC}, 0, registry_run_hsv},
    {"Hue", {REGISTRY_RUN_U8_HWC}, 0, registry_run_hue},
    {"ROIRandomCrop", {REGISTRY_RUN_U8_HWC}, 0, registry_run_roi},
    {"Reshape", {REGISTRY_RUN_F32}, 0, registry_run_reshape},
    {"Resize", {REGISTRY_RUN_U8_HWC}, 0, registry_run_resize},
    {"ResizeCropMirror", {REGISTRY_RUN_U8_HWC}, 0, registry_run_rcm},
    {"Rotate", {REGISTRY_RUN_U8_HWC}, 0, registry_run_rotate},
    {"Saturation", {REGISTRY_RUN_U8_HWC}, 0, registry_run_saturation},
    {"Shapes", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"Slice", {REGISTRY_RUN_U8_HWC}, 0, registry_run_slice},
    {"Spectrogram", {REGISTRY_RUN_AUDIO}, 0, registry_run_spectrogram},
    {"Sphere", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"Squeeze", {REGISTRY_RUN_F32}, 0, registry_run_squeeze},
    {"Stack", {REGISTRY_RUN_F32, REGISTRY_RUN_F32}, 0, NULL},
    {"_SubscriptDimCheck", {REGISTRY_RUN_F32}, 0, registry_run_dim_check},
    {"_TensorSubscript", {REGISTRY_RUN_F32}, 0, registry_run_subscript},
    {"ToDecibels", {REGISTRY_RUN_SPEC}, 0, NULL},
    {"Transpose", {REGISTRY_RUN_F32}, 0, registry_run_transpose},
    {"WarpAffine", {REGISTRY_RUN_U8_HWC}, 0, registry_run_warp},
    {"Water", {REGISTRY_RUN_U8_HWC}, 0, registry_run_water},
    {"_conditional__Merge", {REGISTRY_RUN_F32}, REGISTRY_RUN_BOOL, NULL},
    {"_Shape", {REGISTRY_RUN_F32}, 0, NULL},
    {"_conditional__Not_", {REGISTRY_RUN_BOOL}, 0, NULL},
    {"_conditional__Split", {REGISTRY_RUN_F32}, REGISTRY_RUN_BOOL, NULL},
    {"_conditional__ValidateLogical", {REGISTRY_RUN_BOOL}, 0, registry_run_validate},
    {"_test__Sleep", {REGISTRY_RUN_I64}, 0, NULL},
    {"_test__SleepBatch", {REGISTRY_RUN_I64}, 0, NULL},
    {"decoders__Audio", {REGISTRY_RUN_WAV}, 0, registry_run_audio_decoder},
    {"decoders__Image", {REGISTRY_RUN_JPEG}, 0, NULL},
    {"decoders__ImageCrop", {REGISTRY_RUN_JPEG}, 0, registry_run_image_crop},
    {"experimental__Remap", {REGISTRY_RUN_U8_HWC, REGISTRY_RUN_MAP, REGISTRY_RUN_MAP}, 0, NULL},
    {"decoders__ImageRandomCrop", {REGISTRY_RUN_JPEG}, 0, NULL},
    {"decoders__ImageSlice", {REGISTRY_RUN_JPEG}, 0, registry_run_image_slice},
    {"random__Beta", {0}, 0, registry_run_shape},
    {"random__Choice", {REGISTRY_RUN_F32}, 0, registry_run_shape},
    {"random__CoinFlip", {0}, 0, registry_run_shape},
    {"random__Normal", {0}, 0, registry_run_shape},
    {"random__Uniform", {0}, 0, registry_run_shape},
    {"reductions__Max", {REGISTRY_RUN_U8_HWC}, 0, registry_run_reduce_rows},
    {"segmentation__RandomMaskPixel", {REGISTRY_RUN_U8_HWC}, 0, registry_run_mask_pixel},
    {"segmentation__SelectMasks", {REGISTRY_RUN_LABELS, REGISTRY_RUN_POLYGONS, REGISTRY_RUN_F32}, 0,
     NULL},
    {"reductions__Mean", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"reductions__MeanSquare", {REGISTRY_RUN_F32}, 0, registry_run_reduce_rows},
    {"reductions__Min", {REGISTRY_RUN_F32}, 0, NULL},
    {"reductions__RMS", {REGISTRY_RUN_U8_HWC}, 0, registry_run_reduce_rows},
    {"reductions__StdDev", {REGISTRY_RUN_F32, REGISTRY_RUN_F32_ROW}, 0, registry_run_reduce_rows},
    {"reductions__Sum", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"reductions__Variance", {REGISTRY_RUN_F32, REGISTRY_RUN_F32_ROW}, 0, registry_run_reduce_rows},
    {"readers__COCO", {0}, 0, registry_run_coco},
    {"readers__Caffe", {0}, 0, registry_run_caffe},
    {"readers__Caffe2", {0}, 0, registry_run_caffe2},
    {"readers__File", {0}, 0, registry_run_reader},
    {"readers__NemoAsr", {0}, 0, registry_run_nemo_asr},
    {"readers__Video", {0}, 0, registry_run_video_reader},
    {"readers__VideoResize", {0}, 0, registry_run_video_resize},
    {"experimental__readers__Video", {0}, 0, registry_run_video_reader},
    {"decoders__Video", {REGISTRY_RUN_VIDEO}, 0, NULL},
    {"experimental__inputs__Video", {0}, 0, NULL},
    {"readers___TFRecord", {0}, 0, registry_run_tfrecord},
    {"readers__MXNet", {0}, 0, registry_run_mxnet},
    {"readers__Numpy", {0}, 0, registry_run_numpy},
    {"readers__Webdataset", {0}, 0, registry_run_webdataset},
    /* FLOAT [2, 3] inputs are 2-D affine transforms */
    {"transforms__Combine", {REGISTRY_RUN_F32, REGISTRY_RUN_F32}, 0, NULL},
    {"transforms__Crop", {0}, 0, NULL},
    {"transforms__Rotation", {REGISTRY_RUN_F32}, 0, registry_run_xform_angle},
    {"transforms__Scale", {REGISTRY_RUN_F32}, 0, registry_run_xform_scale},
    {"transforms__Shear", {0}, 0, registry_run_xform_shear},
    {"transforms__Translation", {0}, 0, registry_run_xform_offset},
    {"segmentation__RandomObjectBBox", {REGISTRY_RUN_U8_HWC}, 0, NULL},
    {"Reinterpret", {REGISTRY_RUN_F32}, 0, registry_run_reinterpret},
    {"readers__Sequence", {0}, 0, registry_run_sequence},
};
#define REGISTRY_RUN_NUM_CASES ((int)(sizeof registry_run_cases / sizeof *registry_run_cases))

static const registry_run_skip_t registry_run_skips[] = {
    {"MakeContiguous", "inserted by the graph build, never by name; every pipeline here runs "
                       "it (checked by every_operator_is_covered)"},
    {"PythonFunction", "runs a function a pipeline script lends (function_id); the script "
                       "tests run it (test_script_pyfn.c)"},
    {"TorchPythonFunction", "the same, lent by the PyTorch plugin's torch_python_function "
                            "(test_script_pyfn_torch.c)"},
    {"NumbaFunction", "the same, lent by the numba plugin's numba_function "
                      "(test_script_numba.c)"},
};
#define REGISTRY_RUN_NUM_SKIPS ((int)(sizeof registry_run_skips / sizeof *registry_run_skips))

/* ---- generated data ---------------------------------------------------------------------- */

const char *const registry_run_photos[REGISTRY_RUN_BATCH] = {
    "samples/images/cat/chelsea.jpg",
    "samples/images/space/rocket_gray_progressive.jpg",
    "samples/images/coffee/coffee_cup.png",
};

/* REGISTRY_RUN_BATCH buffers (freed here) as 1-D UINT8 samples. */
static int registry_run_feed_owned(dalic_feed_t *feed, void **bytes, const size_t *n)
{
	enum { B = REGISTRY_RUN_BATCH };
	int64_t shapes[B];
	size_t total = 0;
	for (int i = 0; i < B; i++) {
		shapes[i] = (int64_t)n[i];
		total += n[i];
	}
	uint8_t *all = malloc(total), *at = all;
	cr_assert_not_null(all);
	for (int i = 0; i < B; i++) {
		memcpy(at, bytes[i], n[i]);
		at += n[i];
		free(bytes[i]);
	}
	int rc = dalic_feed_batch(feed, DALIC_UINT8, 1, B, shapes, all, NULL);
	free(all);
	return rc;
}

/* The bytes of REGISTRY_RUN_BATCH files. */
static int registry_run_feed_files(dalic_feed_t *feed, const char *const *paths)
{
	void *bytes[REGISTRY_RUN_BATCH];
	size_t n[REGISTRY_RUN_BATCH];
	for (int i = 0; i < REGISTRY_RUN_BATCH; i++)
		bytes[i] = tl_read_file(paths[i], &n[i]);
	return registry_run_feed_owned(feed, bytes, n);
}

/* Encoded audio: 16-bit WAVs at 8 kHz, sample i with i % 2 + 1 channels and 200 + 50 i frames
 * of values that change with the iteration. */
static int registry_run_feed_wav(dalic_feed_t *feed, int64_t iteration)
{
	void *wav[REGISTRY_RUN_BATCH];
	size_t n[REGISTRY_RUN_BATCH];
	for (int i = 0; i < REGISTRY_RUN_BATCH; i++) {
		int ch = i % 2 + 1, frames = 200 + 50 * i;
		int16_t pcm[2 * 300];
		for (int k = 0; k < frames * ch; k++)
			pcm[k] = (int16_t)((k * 37 + i * 1000 + (int)iteration * 77) % 4001 - 2000);
		wav[i] = tl_audio_wav16(pcm, frames, ch, 8000, &n[i]);
	}
	return registry_run_feed_owned(feed, wav, n);
}

/* The sources' callbacks (dalic_source_fn): one batch of `kind` for `iteration`. */
static int registry_run_feed(void *user, int64_t iteration, dalic_feed_t *feed)
{
	registry_run_input_t kind = *(const registry_run_input_t *)user;
	enum { B = REGISTRY_RUN_BATCH };
	int64_t shapes[3 * B] = {0};
	switch (kind) {
	case REGISTRY_RUN_F32: {
		float v[B * 6];
		for (int i = 0; i < B; i++) {
			shapes[2 * i] = 2;
			shapes[2 * i + 1] = 3;
			for (int k = 0; k < 6; k++)
				v[6 * i + k] = (float)(iteration * 100 + i * 10) + 0.5f * (float)k;
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 2, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_I64: {
		int64_t v[B];
		for (int i = 0; i < B; i++)
			v[i] = iteration * 100 + i;
		return dalic_feed_batch(feed, DALIC_INT64, 0, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_BOOL: {
		uint8_t v[B];
		for (int i = 0; i < B; i++)
			v[i] = (uint8_t)((iteration + i) % 2);
		return dalic_feed_batch(feed, DALIC_BOOL, 0, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_U8_HWC: {
		uint8_t v[B * 8 * 6 * 3];
		for (int i = 0; i < B; i++) {
			shapes[3 * i] = 8;
			shapes[3 * i + 1] = 6;
			shapes[3 * i + 2] = 3;
			for (int k = 0; k < 8 * 6 * 3; k++)
				v[144 * i + k] = (uint8_t)(iteration * 31 + i * 17 + k * 5);
		}
		return dalic_feed_batch(feed, DALIC_UINT8, 3, B, shapes, v, "HWC");
	}
	case REGISTRY_RUN_JPEG: {
		const char *paths[B];
		for (int i = 0; i < B; i++) /* rotate the photos with the iteration */
			paths[i] = registry_run_photos[(i + iteration) % B];
		return registry_run_feed_files(feed, paths);
	}
	case REGISTRY_RUN_VIDEO: {
		const char *paths[B];
		for (int i = 0; i < B; i++)
			paths[i] = registry_run_clip(2 + (int)((i + iteration) % 3));
		return registry_run_feed_files(feed, paths);
	}
	case REGISTRY_RUN_BOXES: {
		float v[B * 8];
		for (int i = 0; i < B; i++) {
			shapes[2 * i] = 2;
			shapes[2 * i + 1] = 4;
			for (int k = 0; k < 8; k++)
				v[8 * i + k] = (float)((iteration * 7 + i * 3 + k) % 8 + (k >= 4)) / 9;
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 2, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_LABELS: {
		int32_t v[B * 2];
		for (int i = 0; i < B; i++) {
			shapes[i] = 2;
			v[2 * i] = (int32_t)(iteration * 10 + i);
			v[2 * i + 1] = (int32_t)(iteration * 10 + i + 5);
		}
		return dalic_feed_batch(feed, DALIC_INT32, 1, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_MAP: {
		float v[B * 48];
		for (int i = 0; i < B; i++) {
			shapes[2 * i] = 8;
			shapes[2 * i + 1] = 6;
			for (int k = 0; k < 48; k++)
				v[48 * i + k] = (float)((k * 7 + i * 3 + iteration) % 9) * 0.75f - 0.5f;
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 2, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_F32_ROW: {
		float v[B * 3];
		for (int i = 0; i < B; i++) {
			shapes[i] = 3;
			for (int k = 0; k < 3; k++)
				v[3 * i + k] = (float)(iteration * 100 + i * 10 + k);
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 1, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_WAV:
		return registry_run_feed_wav(feed, iteration);
	case REGISTRY_RUN_AUDIO: {
		float v[B * 600];
		for (int i = 0; i < B; i++) {
			shapes[i] = 600;
			tl_audio_tone(v + 600 * i, 600, 440 + 100 * i + 10 * (double)iteration, 8000, 0.01);
			for (int k = 200; k < 350; k++) /* a burst */
				v[600 * i + k] *= 40;
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 1, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_SPEC: {
		float v[B * 9 * 12];
		for (int i = 0; i < B; i++) {
			shapes[2 * i] = 9;
			shapes[2 * i + 1] = 12;
			for (int k = 0; k < 9 * 12; k++)
				v[108 * i + k] = (float)((k * 7 + i * 5 + iteration * 3) % 11) + 0.25f;
		}
		return dalic_feed_batch(feed, DALIC_FLOAT, 2, B, shapes, v, "ft");
	}
	case REGISTRY_RUN_POLYGONS: {
		int32_t v[B * 6];
		for (int i = 0; i < B; i++) {
			shapes[2 * i] = 2;
			shapes[2 * i + 1] = 3;
			int32_t poly[6] = {(int32_t)(iteration * 10 + i + 5), 0, 1,
			                   (int32_t)(iteration * 10 + i), 1, 2};
			memcpy(v + 6 * i, poly, sizeof poly);
		}
		return dalic_feed_batch(feed, DALIC_INT32, 2, B, shapes, v, NULL);
	}
	case REGISTRY_RUN_NONE:
		break;
	}
	return DALIC_EINVAL;
}

static const registry_run_input_t registry_run_kinds[] = {
    REGISTRY_RUN_NONE, REGISTRY_RUN_F32,    REGISTRY_RUN_I64,
    REGISTRY_RUN_BOOL, REGISTRY_RUN_U8_HWC,  REGISTRY_RUN_JPEG,
    REGISTRY_RUN_BOXES, REGISTRY_RUN_LABELS, REGISTRY_RUN_MAP,
    REGISTRY_RUN_F32_ROW, REGISTRY_RUN_WAV,    REGISTRY_RUN_AUDIO,
    REGISTRY_RUN_SPEC,    REGISTRY_RUN_VIDEO, REGISTRY_RUN_POLYGONS,
};

/* ---- the pipeline of a case ---------------------------------------------------------------- */

/* Sources in0, in1 (positional inputs) and pred (the predicate), named as fed. */
typedef struct registry_run_sources {
	int n;
	const char *name[4];
	registry_run_input_t kind[4];
} registry_run_sources_t;

static void registry_run_add_source(dalic_pipeline_t *p, registry_run_sources_t *src,
                                    const char *name, registry_run_input_t kind)
{
	tl_source(p, name);
	src->name[src->n] = name;
	src->kind[src->n++] = kind;
}

/* The case's operator with its inputs and arguments; every output is a pipeline output.
 * Returns the operator under test. */
static dalic_op_t *registry_run_build(dalic_pipeline_t *p, const registry_run_case_t *c,
                                      registry_run_sources_t *src)
{
	memset(src, 0, sizeof *src);
	if (!strcmp(c->op, "ExternalSource")) {
		registry_run_add_source(p, src, "in0", REGISTRY_RUN_U8_HWC);
		ASSERT_OK(dalic_pipeline_add_output(p, "in0", NULL));
		return NULL;
	}
	if (!strcmp(c->op, "experimental__inputs__Video")) {
		/* fed itself (one clip per call, only sample 0 read): 2-frame sequences */
		dalic_op_t *op = tl_op(p, c->op);
		ASSERT_OK(dalic_op_set_name(op, "in0"));
		ASSERT_OK(dalic_op_set_int(op, "sequence_length", 2));
		src->name[0] = "in0";
		src->kind[0] = REGISTRY_RUN_VIDEO;
		src->n = 1;
		tl_output(p, op);
		return op;
	}
	static const char *const in_names[3] = {"in0", "in1", "in2"};
	for (int i = 0; i < 3 && c->inputs[i]; i++)
		registry_run_add_source(p, src, in_names[i], c->inputs[i]);
	if (c->predicate)
		registry_run_add_source(p, src, "pred", c->predicate);
	const char *inputs[3] = {"in0", "in1", "in2"};
	if (!strcmp(c->op, "_conditional__Merge")) {
		dalic_op_t *split = tl_op(p, "_conditional__Split");
		tl_input(split, "in0");
		ASSERT_OK(dalic_op_set_arg_input(split, "predicate", "pred"));
		inputs[0] = dalic_op_output(split, 0);
		inputs[1] = dalic_op_output(split, 1);
	}
	/* gpu-only operators (DALI registers no CPU variant) run emulated on the CPU */
	const dalic_schema_t *schema = dalic_schema_find(c->op);
	dalic_op_t *op = NULL;
	if (schema && !(schema->devices & DALIC_DEV_CPU))
		ASSERT_OK(dalic_pipeline_add_op(p, c->op, "gpu", &op), "operator %s", c->op);
	else
		op = tl_op(p, c->op);
	int ninputs = !strcmp(c->op, "_conditional__Merge") ? 2 : src->n - (c->predicate != 0);
	for (int i = 0; i < ninputs; i++)
		tl_input(op, inputs[i]);
	if (c->predicate)
		ASSERT_OK(dalic_op_set_arg_input(op, "predicate", "pred"));
	if (c->args)
		c->args(op);
	cr_assert_leq(dalic_op_num_outputs(op), REGISTRY_RUN_MAX_OUTPUTS);
	for (int i = 0; i < dalic_op_num_outputs(op); i++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, i), NULL));
	return op;
}

static const registry_run_input_t *registry_run_kind_ptr(registry_run_input_t kind)
{
	return &registry_run_kinds[kind];
}

/* Outputs of every iteration of one run: [iteration][output]. */
typedef struct registry_run_result {
	int num_outputs;
	tl_snapshot_t out[REGISTRY_RUN_ITERATIONS][REGISTRY_RUN_MAX_OUTPUTS];
} registry_run_result_t;

static void registry_run_free(registry_run_result_t *r)
{
	for (int it = 0; it < REGISTRY_RUN_ITERATIONS; it++)
		for (int o = 0; o < r->num_outputs; o++)
			tl_snap_free(&r->out[it][o]);
}

static dalic_pipeline_t *registry_run_pipeline(const tl_mode_t *m, const registry_run_case_t *c,
                                               registry_run_sources_t *src)
{
	dalic_pipeline_params_t params = tl_mode_params(m, REGISTRY_RUN_BATCH, 2);
	const dalic_schema_t *schema = dalic_schema_find(c->op);
	if (!schema || (schema->devices & DALIC_DEV_CPU)) /* gpu-only ones need a device */
		params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p), "%s in mode %s", c->op, m->name);
	registry_run_build(p, c, src);
	return p;
}

/* Three iterations in mode m. */
static void registry_run_mode(const tl_mode_t *m, const registry_run_case_t *c,
                              registry_run_result_t *r)
{
	registry_run_sources_t src;
	dalic_pipeline_t *p = registry_run_pipeline(m, c, &src);
	for (int i = 0; i < src.n; i++)
		ASSERT_OK(dalic_pipeline_set_source(p, src.name[i], registry_run_feed,
		                                    (void *)registry_run_kind_ptr(src.kind[i])));
	r->num_outputs = dalic_pipeline_num_outputs(p);
	for (int it = 0; it < REGISTRY_RUN_ITERATIONS; it++) {
		ASSERT_OK(dalic_pipeline_run(p), "%s in mode %s, iteration %d", c->op, m->name, it);
		cr_assert_eq(dalic_pipeline_num_outputs(p), r->num_outputs);
		for (int o = 0; o < r->num_outputs; o++)
			tl_snap(&r->out[it][o], dalic_pipeline_output(p, o));
	}
	dalic_pipeline_destroy(p);
}

/* Three iterations in debug mode, on the definition of the simple-mode pipeline. */
static void registry_run_debug(const registry_run_case_t *c, registry_run_result_t *r,
                               bool *made_contiguous)
{
	registry_run_sources_t src;
	dalic_pipeline_t *p = registry_run_pipeline(&tl_modes[0], c, &src);
	dalic_debug_t *s = tl_debug_open(p);
	for (int i = 0; i < src.n; i++)
		ASSERT_DEBUG_OK(s,
		                dalic_debug_set_source(s, src.name[i], registry_run_feed,
		                                       (void *)registry_run_kind_ptr(src.kind[i])));
	r->num_outputs = dalic_debug_num_outputs(s);
	for (int it = 0; it < REGISTRY_RUN_ITERATIONS; it++) {
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		dalic_debug_status_t st = tl_debug_status(s);
		cr_assert_eq(st.iteration, it, "%s in debug mode", c->op);
		cr_assert_eq(st.next_op, st.num_ops, "%s: iteration %d incomplete (stop %d)", c->op,
		             it, st.stop);
		for (int o = 0; o < r->num_outputs; o++)
			tl_snap(&r->out[it][o], dalic_debug_output(s, o));
	}
	for (int i = 0; i < dalic_debug_num_ops(s); i++) {
		dalic_debug_op_info_t info;
		ASSERT_OK(dalic_debug_op_info(s, i, &info));
		if (!strcmp(info.schema, "MakeContiguous") && info.runs > 0)
			*made_contiguous = true;
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* `got` against the simple mode's `want`, byte for byte: random operators too, since the same
 * seed gives the same draws whatever the executor (DALI's reproducibility). */
static void registry_run_compare(const registry_run_case_t *c, const char *mode,
                                 const registry_run_result_t *want,
                                 const registry_run_result_t *got)
{
	cr_assert_eq(got->num_outputs, want->num_outputs, "%s in %s: outputs", c->op, mode);
	for (int it = 0; it < REGISTRY_RUN_ITERATIONS; it++)
		for (int o = 0; o < want->num_outputs; o++) {
			const tl_snapshot_t *a = &want->out[it][o], *b = &got->out[it][o];
			char what[160];
			snprintf(what, sizeof what, "%s in %s, iteration %d, output %d", c->op,
			         mode, it, o);
			cr_expect_eq(a->n, b->n, "%s: samples", what);
			cr_expect_eq(a->dtype, b->dtype, "%s: dtype", what);
			cr_expect_eq(a->ndim, b->ndim, "%s: ndim", what);
			cr_expect_str_eq(a->layout, b->layout, "%s: layout", what);
			if (a->n != b->n || a->ndim != b->ndim)
				continue;
			for (int i = 0; i < a->n; i++) {
				cr_expect(!a->ndim || !memcmp(a->shapes + (size_t)i * a->ndim,
				                              b->shapes + (size_t)i * b->ndim,
				                              sizeof(int64_t) * (size_t)a->ndim),
				          "%s: shape of sample %d", what, i);
				cr_expect(a->bytes[i] == b->bytes[i] &&
				              (!a->bytes[i] ||
				               !memcmp(a->data[i], b->data[i], a->bytes[i])),
				          "%s: bytes of sample %d differ", what, i);
			}
		}
}

/* ---- the tests ------------------------------------------------------------------------------- */

static const registry_run_case_t *registry_run_case(const char *op)
{
	for (int i = 0; i < REGISTRY_RUN_NUM_CASES; i++)
		if (!strcmp(registry_run_cases[i].op, op))
			return &registry_run_cases[i];
	return NULL;
}

static const registry_run_skip_t *registry_run_skip(const char *op)
{
	for (int i = 0; i < REGISTRY_RUN_NUM_SKIPS; i++)
		if (!strcmp(registry_run_skips[i].op, op))
			return &registry_run_skips[i];
	return NULL;
}

Test(registry_run, every_operator_is_covered)
{
	int n = 0;
	for (const dalic_schema_t *const *it = dalic_schema_all(); *it; it++, n++) {
		const char *name = (*it)->name;
		const registry_run_case_t *c = registry_run_case(name);
		const registry_run_skip_t *skip = registry_run_skip(name);
		cr_expect(c || skip,
		          "operator %s is neither run nor listed with a reason: add it to the "
		          "table in tests/unit/test_registry_run.c",
		          name);
		cr_expect(!(c && skip), "operator %s is both run and listed as not runnable", name);
	}
	/* no stale entries: each names a registered schema by its schema name */
	for (int i = 0; i < REGISTRY_RUN_NUM_CASES; i++) {
		const dalic_schema_t *s = dalic_schema_find(registry_run_cases[i].op);
		cr_expect(s && !strcmp(s->name, registry_run_cases[i].op),
		          "case %s: no such schema", registry_run_cases[i].op);
	}
	for (int i = 0; i < REGISTRY_RUN_NUM_SKIPS; i++) {
		const dalic_schema_t *s = dalic_schema_find(registry_run_skips[i].op);
		cr_expect(s && !strcmp(s->name, registry_run_skips[i].op),
		          "skip %s: no such schema", registry_run_skips[i].op);
		cr_expect(registry_run_skips[i].reason[0], "skip %s: no reason", s->name);
	}
	cr_expect_eq(n, REGISTRY_RUN_NUM_CASES + REGISTRY_RUN_NUM_SKIPS);
	/* MakeContiguous, the one skipped, runs in an ordinary pipeline */
	registry_run_result_t r = {0};
	bool made_contiguous = false;
	registry_run_debug(registry_run_case("Cast"), &r, &made_contiguous);
	registry_run_free(&r);
	cr_expect(made_contiguous, "no MakeContiguous ran in a cast pipeline");
}

ParameterizedTestParameters(registry_run, runs_in_every_mode_and_in_debug_mode)
{
	static int index[REGISTRY_RUN_NUM_CASES];
	for (int i = 0; i < REGISTRY_RUN_NUM_CASES; i++)
		index[i] = i;
	return cr_make_param_array(int, index, REGISTRY_RUN_NUM_CASES);
}

ParameterizedTest(int *k, registry_run, runs_in_every_mode_and_in_debug_mode)
{
	const registry_run_case_t *c = &registry_run_cases[*k];
	static registry_run_result_t simple, other;
	registry_run_mode(&tl_modes[0], c, &simple);
	cr_assert_gt(simple.num_outputs, 0, "%s", c->op);
	for (int it = 0; it < REGISTRY_RUN_ITERATIONS; it++)
		for (int o = 0; o < simple.num_outputs; o++)
			cr_expect_gt(simple.out[it][o].n, 0,
			             "%s: output %d of iteration %d is empty", c->op, o, it);
	for (int m = 1; m < TL_NUM_MODES; m++) {
		registry_run_mode(&tl_modes[m], c, &other);
		registry_run_compare(c, tl_modes[m].name, &simple, &other);
		registry_run_free(&other);
	}
	bool made_contiguous = false;
	registry_run_debug(c, &other, &made_contiguous);
	registry_run_compare(c, "debug mode", &simple, &other);
	registry_run_free(&other);
	registry_run_free(&simple);
}
