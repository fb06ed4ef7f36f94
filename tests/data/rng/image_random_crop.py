# decoders.image_random_crop: the windows' extents (the output shapes) for the sample images.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=12)
def rng_image_random_crop():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    a = fn.decoders.image_random_crop(jpegs)
    b = fn.decoders.image_random_crop(jpegs, random_area=[0.3, 0.5],
                                      random_aspect_ratio=[0.5, 2.0], num_attempts=3,
                                      seed=4321)
    return a, b


pipe = rng_image_random_crop()
