# laplacian on decoded photos: default 3x3, larger and per-axis windows, smoothing sizes,
# scale, normalized kernels, float output, a grey image with one axis of smoothing size 1
# (exact: OpenCV's windows built in float, DALI's order of partial sums).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    lap = fn.laplacian
    f = fn.cast(im, dtype=types.FLOAT)
    return (lap(im), lap(im, window_size=5, dtype=types.FLOAT),
            lap(im, window_size=[7, 3], smoothing_size=[1, 5], scale=[0.01, 0.02]),
            lap(f, window_size=9, normalized_kernel=True), lap(f, smoothing_size=1),
            lap(fn.cast(im, dtype=types.INT16), window_size=31, normalized_kernel=True))


pipe = oracle_pipe()
