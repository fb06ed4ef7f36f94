# oracle: error=The input layout should start with 'F'
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.per_frame(fn.decoders.image(jpegs))


pipe = oracle_pipe()
