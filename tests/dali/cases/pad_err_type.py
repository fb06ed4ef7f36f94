# oracle: error=Unsupported data type: double
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.pad(fn.cast(images, dtype=types.FLOAT64))


pipe = oracle_pipe()
