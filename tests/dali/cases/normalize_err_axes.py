# oracle: error=Axes must not be specified when both mean and standard deviation are scalars
# normalize with given mean and stddev has nothing to reduce.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.normalize(im, axes=[0], mean=1.0, stddev=2.0)


pipe = oracle_pipe()
