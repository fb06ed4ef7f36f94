# Output shapes from per-sample int32 tensors: 1-D extents (some zero) and a scalar (a 1-D
# shape); empty samples come out empty.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=61)
def oracle_pipe():
    dims = fn.cast(fn.random.uniform(range=[0.0, 4.0], shape=[3]), dtype=types.INT32)
    n = fn.cast(fn.random.uniform(range=[0.0, 9.0]), dtype=types.INT32)
    return (fn.random.uniform(shape=dims), fn.random.coin_flip(shape=n),
            fn.random.normal(shape=dims, dtype=types.INT16, stddev=100.0))


pipe = oracle_pipe()
