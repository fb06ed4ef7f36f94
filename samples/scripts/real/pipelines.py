# Pattern: the `pipelines.py` of a training repository. It only defines pipelines; the
# training script imports it and calls one with its data directory and sizes. Parameters
# without defaults come from `--arg`, the Pipeline's own (batch_size, ...) from flags or --arg:
#     dalic run samples/scripts/real/pipelines.py --pipeline val_pipe \
#         --arg data_dir='"samples/images"' --batch-size 4 -n 3
# oracle: pipeline=val_pipe
# oracle: args=data_dir="samples/images", size=160, crop=128, batch_size=4, num_threads=1, device_id=None
# oracle: atol=0.02
import numpy as np
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn
import nvidia.dali.types as types

# ImageNet statistics, scaled to the 0..255 range of decoded images
IMAGENET_MEAN = list(np.array([0.485, 0.456, 0.406]) * 255)
IMAGENET_STD = list(np.array([0.229, 0.224, 0.225]) * 255)


@pipeline_def
def train_pipe(data_dir, crop=224, shard_id=0, num_shards=1):
    jpegs, labels = fn.readers.file(file_root=data_dir, shard_id=shard_id,
                                    num_shards=num_shards, random_shuffle=True,
                                    name="Reader")
    images = fn.decoders.image_random_crop(jpegs, device="cpu", output_type=types.RGB)
    images = fn.resize(images, resize_x=crop, resize_y=crop)
    mirror = fn.random.coin_flip(probability=0.5)
    images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                      mean=IMAGENET_MEAN, std=IMAGENET_STD, mirror=mirror)
    return images, labels


@pipeline_def
def val_pipe(data_dir, size=256, crop=224):
    jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=False, name="Reader")
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
    images = fn.resize(images, resize_shorter=size)
    images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                      crop=(crop, crop), mean=IMAGENET_MEAN,
                                      std=IMAGENET_STD)
    return images, labels
