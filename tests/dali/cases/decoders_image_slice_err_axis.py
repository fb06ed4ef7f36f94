# oracle: error=Axis 2 out of range. Expected range is [-2, 1] for a 2D input
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_slice(jpegs, start=[10], shape=[30], axes=[2])


pipe = oracle_pipe()
