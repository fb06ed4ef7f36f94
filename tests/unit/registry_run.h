/*
 * The registry-walk test's data sets for readers and decoders of files (video clips, TFRecord,
 * WebDataset, Caffe/Caffe2 LMDB, RecordIO, .npy, COCO): each setup function writes its files
 * into the test's temporary directory and points the operator at them; the other functions set
 * the arguments of the audio, random-crop and reader cases.
 */
#ifndef DALIC_TESTS_UNIT_REGISTRY_RUN_H
#define DALIC_TESTS_UNIT_REGISTRY_RUN_H

#include "tests/testlib.h"

#define REGISTRY_RUN_BATCH 3

/* The photos every file format is made from (test_registry_run.c). */
extern const char *const registry_run_photos[REGISTRY_RUN_BATCH];

const char *registry_run_clip(int frames);
void registry_run_video_reader(dalic_op_t *op);
void registry_run_video_resize(dalic_op_t *op);
void registry_run_tfrecord(dalic_op_t *op);
void registry_run_webdataset(dalic_op_t *op);
void registry_run_caffe(dalic_op_t *op);
void registry_run_caffe2(dalic_op_t *op);
void registry_run_sequence(dalic_op_t *op);
void registry_run_mxnet(dalic_op_t *op);
void registry_run_numpy(dalic_op_t *op);
void registry_run_coco(dalic_op_t *op);
void registry_run_resample(dalic_op_t *op);
void registry_run_audio_decoder(dalic_op_t *op);
void registry_run_nemo_asr(dalic_op_t *op);
void registry_run_nonsilent(dalic_op_t *op);
void registry_run_spectrogram(dalic_op_t *op);
void registry_run_mel(dalic_op_t *op);
void registry_run_mfcc(dalic_op_t *op);
void registry_run_roi(dalic_op_t *op);
void registry_run_mask_pixel(dalic_op_t *op);
void registry_run_reader(dalic_op_t *op);

/* Argument setups (registry_run_args.c). */
void registry_run_arith(dalic_op_t *op);
void registry_run_cast(dalic_op_t *op);
void registry_run_brightness(dalic_op_t *op);
void registry_run_contrast(dalic_op_t *op);
void registry_run_color_twist(dalic_op_t *op);
void registry_run_csc(dalic_op_t *op);
void registry_run_constant(dalic_op_t *op);
void registry_run_crop(dalic_op_t *op);
void registry_run_cmn(dalic_op_t *op);
void registry_run_erase(dalic_op_t *op);
void registry_run_expand_dims(dalic_op_t *op);
void registry_run_rrc(dalic_op_t *op);
void registry_run_gaussian_blur(dalic_op_t *op);
void registry_run_laplacian(dalic_op_t *op);
void registry_run_hsv(dalic_op_t *op);
void registry_run_hue(dalic_op_t *op);
void registry_run_saturation(dalic_op_t *op);
void registry_run_normalize(dalic_op_t *op);
void registry_run_reduce_rows(dalic_op_t *op);
void registry_run_water(dalic_op_t *op);
void registry_run_reshape(dalic_op_t *op);
void registry_run_resize(dalic_op_t *op);
void registry_run_rcm(dalic_op_t *op);
void registry_run_rotate(dalic_op_t *op);
void registry_run_dim_check(dalic_op_t *op);
void registry_run_subscript(dalic_op_t *op);
void registry_run_transpose(dalic_op_t *op);
void registry_run_validate(dalic_op_t *op);
void registry_run_shape(dalic_op_t *op);
void registry_run_xform_angle(dalic_op_t *op);
void registry_run_xform_scale(dalic_op_t *op);
void registry_run_xform_shear(dalic_op_t *op);
void registry_run_xform_offset(dalic_op_t *op);
void registry_run_ratio(dalic_op_t *op);
void registry_run_anchors(dalic_op_t *op);
void registry_run_warp(dalic_op_t *op);
void registry_run_element_extract(dalic_op_t *op);
void registry_run_get_property(dalic_op_t *op);
void registry_run_slice(dalic_op_t *op);
void registry_run_lookup_table(dalic_op_t *op);
void registry_run_one_hot(dalic_op_t *op);
void registry_run_paste(dalic_op_t *op);
void registry_run_squeeze(dalic_op_t *op);
void registry_run_image_crop(dalic_op_t *op);
void registry_run_image_slice(dalic_op_t *op);
void registry_run_reinterpret(dalic_op_t *op);

#endif
