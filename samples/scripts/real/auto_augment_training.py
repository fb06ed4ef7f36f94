# Pattern: automatic augmentation in an image-classification training loader, as NVIDIA's
# DeepLearningExamples (EfficientNet, ResNet50 with --automatic-augmentation) write it: a
# conditional pipeline picks AutoAugment's ImageNet policy, TrivialAugment Wide or
# RandAugment from DALI's nvidia.dali.auto_aug after the random-resized crop and flip, then
# normalizes to CHW float.
# The module only defines the pipeline (the training script imports it):
#     dalic run samples/scripts/real/auto_augment_training.py --arg data_dir="'samples/images'" \
#         --arg automatic_augmentation="'randaugment'" --batch-size 6 --device-id none -n 3
# oracle: iterations=3
# oracle: pipeline=training_pipe
# oracle: args=data_dir="samples/images", batch_size=6, num_threads=2, device_id=None, seed=42
# oracle: atol=1e-4
# (crop_mirror_normalize: float arithmetic within 1e-4, as the oracle documents)
from nvidia.dali import fn, types
from nvidia.dali.pipeline import pipeline_def
from nvidia.dali.auto_aug import auto_augment, rand_augment, trivial_augment

IMAGENET_MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
IMAGENET_STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


@pipeline_def(enable_conditionals=True)
def training_pipe(data_dir, image_size=64, automatic_augmentation="autoaugment", rank=0,
                  world_size=1):
    jpegs, labels = fn.readers.file(name="Reader", file_root=data_dir, shard_id=rank,
                                    num_shards=world_size, random_shuffle=True,
                                    pad_last_batch=True)
    images = fn.decoders.image_random_crop(jpegs, device="cpu", output_type=types.RGB,
                                           random_aspect_ratio=[0.75, 4.0 / 3.0],
                                           random_area=[0.08, 1.0], num_attempts=100)
    images = fn.resize(images, resize_x=image_size, resize_y=image_size,
                       interp_type=types.INTERP_NN)
    images = fn.flip(images, horizontal=fn.random.coin_flip(probability=0.5))
    if automatic_augmentation == "autoaugment":
        images = auto_augment.auto_augment_image_net(images, shape=[image_size, image_size])
    elif automatic_augmentation == "trivialaugment":
        images = trivial_augment.trivial_augment_wide(images)
    elif automatic_augmentation == "randaugment":
        images = rand_augment.rand_augment(images, n=2, m=9)
    images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                      mean=IMAGENET_MEAN, std=IMAGENET_STD)
    return images, labels

