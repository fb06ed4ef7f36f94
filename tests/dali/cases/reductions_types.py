# reductions.* on other input types (cast from photos): int8/int16/uint16/int32/uint32/int64
# sums, large uint16 squares, accumulation in the input type (exact).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    r = fn.reductions
    i8 = fn.cast(im, dtype=types.INT8)
    u16 = fn.cast(fn.brightness(im, brightness=128.0, dtype=types.INT16), dtype=types.UINT16)
    i32 = fn.cast(im, dtype=types.INT32)
    return (r.sum(i8, axes=[0]), r.mean(i8, axes=[1], dtype=types.INT8), r.min(i8),
            r.rms(u16, axis_names="HW"), r.mean_square(u16, axes=[0], dtype=types.UINT64),
            r.rms(u16, axes=[1], dtype=types.UINT16), r.sum(i32, dtype=types.INT32),
            r.mean_square(i32, axes=[0, 2], dtype=types.INT64),
            r.std_dev(i8, r.mean(i8, axes=[0, 1]), axes=[0, 1]),
            r.max(fn.cast(im, dtype=types.UINT32), axes=[2]),
            r.sum(fn.cast(im, dtype=types.INT64), axes=[1]))


pipe = oracle_pipe()
