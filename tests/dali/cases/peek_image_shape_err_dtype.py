# oracle: error=can return the output as one of the following
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.peek_image_shape(jpegs, dtype=types.FLOAT16)


pipe = oracle_pipe()
