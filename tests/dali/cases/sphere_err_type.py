# oracle: error=Unexpected input type int16
# sphere takes uint8 or float images.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.sphere(fn.cast(im, dtype=types.INT16))


pipe = oracle_pipe()
