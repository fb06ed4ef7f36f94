# gaussian_blur on float, float64, int16 and float16 versions of the photos.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    c = lambda t: fn.cast(im, dtype=t)
    g = fn.gaussian_blur
    return (g(c(types.FLOAT), sigma=1.3), g(c(types.FLOAT64), sigma=0.8),
            g(c(types.INT16), window_size=5), g(c(types.FLOAT16), sigma=2.2))


pipe = oracle_pipe()
