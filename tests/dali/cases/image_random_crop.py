# decoders.image_random_crop with its defaults: DALI's RandomCropGenerator windows (output
# shapes and pixels) for the same seed; EXIF-rotated images crop the oriented image.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=12)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_random_crop(jpegs, output_type=types.RGB), labels


pipe = oracle_pipe()
# oracle: iterations=4
