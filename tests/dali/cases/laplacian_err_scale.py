# oracle: error=Parameter ``scale`` cannot be specified when ``normalized_kernel`` is set to True
# laplacian: normalized_kernel computes its own scales.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.laplacian(im, normalized_kernel=True, scale=2.0)


pipe = oracle_pipe()
