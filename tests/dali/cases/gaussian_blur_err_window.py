# oracle: error=Kernel window should have odd length, got: 4.
# gaussian_blur refuses an even window.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.gaussian_blur(im, window_size=4)


pipe = oracle_pipe()
