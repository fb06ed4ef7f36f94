# oracle: error=expects either a single value or a list of 2 elements. 3 given.
# gaussian_blur on HWC images takes one sigma or two (H, W).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.gaussian_blur(im, sigma=[1.0, 2.0, 3.0])


pipe = oracle_pipe()
