# gaussian_blur on decoded photos: sigma only, window only, per-axis values, FLOAT output,
# channel-first planes, a window wider than small images would be (exact: DALI's float
# window, sums over the window left to right, reflect-101 borders).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    g = fn.gaussian_blur
    chw = fn.transpose(im, perm=[2, 0, 1], output_layout="CHW")
    return (g(im, sigma=1.5), g(im, window_size=7), g(im, sigma=[3.0, 0.7]),
            g(im, sigma=2.0, window_size=[5, 9], dtype=types.FLOAT), g(chw, sigma=1.0),
            g(fn.crop(im, crop=(9, 11)), window_size=31))


pipe = oracle_pipe()
