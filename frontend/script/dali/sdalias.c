/*
 * DALI 2.4's deprecated operator names, removed names and namespaces (see sdalias.h). The
 * table is DALI's own: every class of nvidia.dali.ops and function of nvidia.dali.fn whose
 * schema IsDeprecated(), with GetSchema(name, follow_aliases=True).Name() as the serialized
 * name and DeprecatedInFavorOf() as the target (Shapes has none: it is its own operator).
 */
#include "frontend/script/dali/sdalias.h"

#include "engine/schema.h"

#include <stddef.h>
#include <string.h>

static const sdalias_t sdalias_entries[] = {
    {"AudioDecoder", "audio_decoder", "AudioDecoder", "AudioDecoder", "decoders__Audio"},
    {"COCOReader", "coco_reader", "COCOReader", "COCOReader", "readers__COCO"},
    {"Caffe2Reader", "caffe2_reader", "Caffe2Reader", "Caffe2Reader", "readers__Caffe2"},
    {"CaffeReader", "caffe_reader", "CaffeReader", "CaffeReader", "readers__Caffe"},
    {"CoinFlip", "coin_flip", "CoinFlip", "CoinFlip", "random__CoinFlip"},
    {"FastResizeCropMirror", "fast_resize_crop_mirror", "FastResizeCropMirror",
     "FastResizeCropMirror", "ResizeCropMirror"},
    {"FileReader", "file_reader", "FileReader", "readers__File", "readers__File"},
    {"ImageDecoder", "image_decoder", "ImageDecoder", "ImageDecoder", "decoders__Image"},
    {"ImageDecoderCrop", "image_decoder_crop", "ImageDecoderCrop", "ImageDecoderCrop",
     "decoders__ImageCrop"},
    {"ImageDecoderRandomCrop", "image_decoder_random_crop", "ImageDecoderRandomCrop",
     "ImageDecoderRandomCrop", "decoders__ImageRandomCrop"},
    {"ImageDecoderSlice", "image_decoder_slice", "ImageDecoderSlice", "ImageDecoderSlice",
     "decoders__ImageSlice"},
    {"MXNetReader", "mxnet_reader", "MXNetReader", "readers__MXNet", "readers__MXNet"},
    {"NemoAsrReader", "nemo_asr_reader", "NemoAsrReader", "NemoAsrReader", "readers__NemoAsr"},
    {"NormalDistribution", "normal_distribution", "NormalDistribution", "NormalDistribution",
     "random__Normal"},
    {"NumpyReader", "numpy_reader", "NumpyReader", "readers__Numpy", "readers__Numpy"},
    /* an operator of its own (image, boxes and labels in; DALI names RandomBBoxCrop only as
     * the replacement), so never resolved to it */
    {"SSDRandomCrop", "ssd_random_crop", "SSDRandomCrop", "SSDRandomCrop", "SSDRandomCrop"},
    {"SequenceReader", "sequence_reader", "SequenceReader", "readers__Sequence",
     "readers__Sequence"},
    {"Shapes", "shapes", "Shapes", "Shapes", "Shapes"},
    {"TFRecordReader", "tfrecord_reader", "_TFRecordReader", "_TFRecordReader",
     "readers__TFRecord"},
    {"TransformTranslation", "transform_translation", "TransformTranslation",
     "TransformTranslation", "transforms__Translation"},
    {"Uniform", "uniform", "Uniform", "Uniform", "random__Uniform"},
    {"VideoReader", "video_reader", "VideoReader", "VideoReader", "readers__Video"},
    {"VideoReaderResize", "video_reader_resize", "VideoReaderResize", "VideoReaderResize",
     "readers__VideoResize"},
    {"experimental.AudioResample", "experimental.audio_resample", "experimental__AudioResample",
     "AudioResample", "AudioResample"},
    {"experimental.Debayer", "experimental.debayer", "experimental__Debayer",
     "experimental__Debayer", "Debayer"},
    {"experimental.Equalize", "experimental.equalize", "experimental__Equalize",
     "experimental__Equalize", "Equalize"},
    {"experimental.Filter", "experimental.filter", "experimental__Filter", "experimental__Filter",
     "Filter"},
    {"experimental.Inflate", "experimental.inflate", "experimental__Inflate", "decoders__Inflate",
     "decoders__Inflate"},
    {"experimental.PeekImageShape", "experimental.peek_image_shape",
     "experimental__PeekImageShape", "experimental__PeekImageShape", "PeekImageShape"},
    {"experimental.TensorResize", "experimental.tensor_resize", "experimental__TensorResize",
     "TensorResize", "TensorResize"},
    {"experimental.decoders.Image", "experimental.decoders.image",
     "experimental__decoders__Image", "experimental__decoders__Image", "decoders__Image"},
    {"experimental.decoders.ImageCrop", "experimental.decoders.image_crop",
     "experimental__decoders__ImageCrop", "experimental__decoders__ImageCrop",
     "decoders__ImageCrop"},
    {"experimental.decoders.ImageRandomCrop", "experimental.decoders.image_random_crop",
     "experimental__decoders__ImageRandomCrop", "experimental__decoders__ImageRandomCrop",
     "decoders__ImageRandomCrop"},
    {"experimental.decoders.ImageSlice", "experimental.decoders.image_slice",
     "experimental__decoders__ImageSlice", "experimental__decoders__ImageSlice",
     "decoders__ImageSlice"},
    {"experimental.decoders.Video", "experimental.decoders.video",
     "experimental__decoders__Video", "decoders__Video", "decoders__Video"},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Names DALI had before 1.0 and has since removed: DALI 2.4 raises AttributeError for them;
 * dalic says what replaced them. */
static const struct {
	const char *ops, *replacement;
} sdalias_removed_names[] = {
    {"nvJPEGDecoder", "ops.decoders.Image(device=\"mixed\")"},
    {"HostDecoder", "ops.decoders.Image(device=\"cpu\")"},
    {"nvJPEGDecoderCrop", "ops.decoders.ImageCrop(device=\"mixed\")"},
    {"HostDecoderCrop", "ops.decoders.ImageCrop(device=\"cpu\")"},
    {"nvJPEGDecoderSlice", "ops.decoders.ImageSlice(device=\"mixed\")"},
    {"HostDecoderSlice", "ops.decoders.ImageSlice(device=\"cpu\")"},
    {"nvJPEGDecoderRandomCrop", "ops.decoders.ImageRandomCrop(device=\"mixed\")"},
    {"HostDecoderRandomCrop", "ops.decoders.ImageRandomCrop(device=\"cpu\")"},
    {"NormalizePermute", "ops.CropMirrorNormalize"},
    {"CropCastPermute", "ops.CropMirrorNormalize"},
};

/* DALI 2.4's operator namespaces (the same under fn and ops) */
static const char *const sdalias_namespaces[] = {
    "decoders", "experimental", "experimental.decoders", "experimental.inputs",
    "experimental.readers", "io", "io.file", "noise", "random", "readers", "reductions",
    "segmentation", "transforms",
};

const sdalias_t *dalic_sdalias_find(bool ops_api, const char *path)
{
	for (const sdalias_t *a = sdalias_entries; a->legacy; a++)
		if (!strcmp(ops_api ? a->ops : a->fn, path))
			return a;
	return NULL;
}

const char *dalic_sdalias_removed(bool ops_api, const char *path)
{
	if (!ops_api)
		return NULL;
	for (size_t i = 0; i < sizeof sdalias_removed_names / sizeof *sdalias_removed_names; i++)
		if (!strcmp(sdalias_removed_names[i].ops, path))
			return sdalias_removed_names[i].replacement;
	return NULL;
}

bool dalic_sdalias_is_namespace(const char *path)
{
	for (size_t i = 0; i < sizeof sdalias_namespaces / sizeof *sdalias_namespaces; i++)
		if (!strcmp(sdalias_namespaces[i], path))
			return true;
	/* and those of dalic's own operators (fn._conditional.split) */
	size_t n = strlen(path);
	for (const dalic_schema_t *const *s = dalic_schema_all(); *s; s++)
		if ((*s)->fn && !strncmp((*s)->fn, path, n) && (*s)->fn[n] == '.')
			return true;
	return false;
}

const sdalias_t *dalic_sdalias_table(void)
{
	return sdalias_entries;
}
