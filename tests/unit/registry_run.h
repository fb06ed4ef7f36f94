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
void registry_run_nonsilent(dalic_op_t *op);
void registry_run_spectrogram(dalic_op_t *op);
void registry_run_mel(dalic_op_t *op);
void registry_run_mfcc(dalic_op_t *op);
void registry_run_roi(dalic_op_t *op);
void registry_run_mask_pixel(dalic_op_t *op);
void registry_run_reader(dalic_op_t *op);

#endif
