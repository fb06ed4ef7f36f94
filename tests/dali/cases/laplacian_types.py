# laplacian on float16 (a float16 accumulator, as DALI's) and on 3 spatial axes (no layout),
# and gaussian_blur on 3 axes.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    vol = fn.reshape(fn.crop(im, crop=(40, 50)), shape=[40, 50, 3], layout="")
    return (fn.laplacian(fn.cast(im, dtype=types.FLOAT16), window_size=5),
            fn.laplacian(vol, window_size=[3, 5, 3], dtype=types.FLOAT),
            fn.gaussian_blur(vol, sigma=[1.0, 0.5, 2.0]))


pipe = oracle_pipe()
