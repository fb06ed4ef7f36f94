# normalize on decoded photos: per-sample statistics over all axes and per channel (HW),
# batch statistics, given mean/stddev, epsilon, ddof, scale/shift into uint8 and int16 (exact
# on the same x86 CPU: DALI's SSE reciprocal square root and pairwise float sums).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    n = fn.normalize
    return (n(im), n(im, axis_names="HW"), n(im, axes=[0, 1], epsilon=1.0, ddof=1),
            n(im, mean=100.0, stddev=50.0), n(im, axis_names="HW", mean=120.0),
            n(im, axes=[1], stddev=60.0),
            n(im, axes=[0, 1], scale=64.0, shift=128.0, dtype=types.UINT8),
            n(im, axis_names="C", dtype=types.INT16, scale=1000.0))


pipe = oracle_pipe()
