# oracle: error=The input must be a raw, undecoded file stored as a flat uint8 array.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.peek_image_shape(fn.decoders.image(jpegs))


pipe = oracle_pipe()
