# reductions.* on decoded photos: per-channel, per-row and full reductions, keep_dims,
# axis_names, negative axes, output types (exact: DALI's pairwise float sums reproduced).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    r = fn.reductions
    return (r.mean(im, axis_names="HW"), r.mean(im), r.mean(im, axes=[0], keep_dims=True),
            r.mean(im, axes=[1], dtype=types.UINT8), r.sum(im, axes=[0, 1]),
            r.sum(im, axis_names="W", dtype=types.FLOAT), r.sum(im, axes=-1, dtype=types.UINT8),
            r.min(im, axes=[0, 1]), r.max(im, axis_names="C"),
            r.mean_square(im, axis_names="HW"), r.mean_square(im, dtype=types.UINT64),
            r.rms(im, axes=[1, 2]), r.rms(im, axes=[0], dtype=types.UINT8))


pipe = oracle_pipe()
