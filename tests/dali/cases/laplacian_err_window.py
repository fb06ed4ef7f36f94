# oracle: error=Window size must be an odd integer between 3 and 31, got 4 for sample: 0.
# laplacian refuses an even derivative window.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.laplacian(im, window_size=4)


pipe = oracle_pipe()
