# normalize with per-sample mean and stddev tensors (from reductions.mean / std_dev with
# keep_dims): the reduced axes are taken from the parameters' shape.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    m = fn.reductions.mean(im, axes=[0, 1], keep_dims=True)
    s = fn.reductions.std_dev(im, m, axes=[0, 1], keep_dims=True)
    return fn.normalize(im, mean=m, stddev=s), fn.normalize(im, mean=m, epsilon=4.0)


pipe = oracle_pipe()
