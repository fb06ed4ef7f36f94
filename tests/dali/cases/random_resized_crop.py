# oracle: atol=1
# random_resized_crop: DALI's windows for the same seed, resized to 64x48 (float resampling
# may differ by 1 LSB).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.random_resized_crop(images, size=[64, 48]), labels


pipe = oracle_pipe()
