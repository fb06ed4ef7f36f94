# oracle: error=`sigma` and `window_size` shouldn't be 0 at the same time for sample: 0, axis: 0.
# gaussian_blur needs a sigma or a window size.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.gaussian_blur(im)


pipe = oracle_pipe()
