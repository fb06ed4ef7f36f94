# oracle: error=Argument "random_aspect_ratio" expects either a single value or a list of 2 elements. 3 given.
# random_aspect_ratio takes one or two values.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs)
    return fn.random_resized_crop(images, size=[8, 8], random_aspect_ratio=[0.5, 1.0, 2.0])


pipe = oracle_pipe()
