# ResNet-50-style CPU training pipeline for bench/tune.sh (the image pipeline of
# bench/resnet_cpu.c as a script): read, decode a random crop, resize to 224x224, normalize
# to FLOAT CHW with a random mirror. Run from the repository root.
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn
import nvidia.dali.types as types


@pipeline_def
def rn50():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image_random_crop(jpegs, output_type=types.RGB)
    images = fn.resize(images, resize_x=224, resize_y=224)
    images = fn.crop_mirror_normalize(
        images,
        dtype=types.FLOAT,
        output_layout="CHW",
        mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
        std=[0.229 * 255, 0.224 * 255, 0.225 * 255],
        mirror=fn.random.coin_flip(),
    )
    return images, labels


pipe = rn50(batch_size=16, num_threads=2, device_id=None, seed=7)
