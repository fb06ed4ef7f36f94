# Image decode: readers.file in file order, decoders.image to RGB (JPEG through libjpeg-turbo, PNG).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return images, labels


pipe = oracle_pipe()
