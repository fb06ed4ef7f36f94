# oracle: error=All inputs must have the same type and number of dimensions
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.cat(images, fn.cast(images, dtype=types.FLOAT))


pipe = oracle_pipe()
