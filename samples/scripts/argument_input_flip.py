# Argument inputs: a keyword argument may be given per sample as a CPU DataNode. Here the
# coin flip decides, sample by sample, whether the image is mirrored.
from nvidia.dali import pipeline_def, fn

image_dir = "samples/images"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=3)
def flip_pipeline():
    jpegs, _ = fn.readers.file(file_root=image_dir)
    images = fn.decoders.image(jpegs)
    images = fn.resize(images, size=[64, 64])
    mirror = fn.random.coin_flip(probability=0.5)
    flipped = fn.flip(images, horizontal=mirror)
    return flipped, images, mirror


pipe = flip_pipeline()
