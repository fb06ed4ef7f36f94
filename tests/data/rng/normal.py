# random.normal: float and double arithmetic, integer outputs, per-sample mean, a negative
# stddev (DALI accepts it), NaN converted to integers as DALI's x86 build converts it.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=77)
def rng_normal():
    m = fn.random.uniform(range=[0.0, 100.0])
    return (fn.random.normal(shape=[5]),
            fn.random.normal(mean=1.5, stddev=2.0, shape=[3]),
            fn.random.normal(dtype=types.FLOAT64, shape=[3]),
            fn.random.normal(stddev=30.0, dtype=types.INT16, shape=[4]),
            fn.random.normal(mean=-100.0, stddev=1000.0, dtype=types.INT64, shape=[2]),
            fn.random.normal(stddev=-1.0, shape=[2]),
            fn.random.normal(mean=m, shape=[2]),
            m,
            fn.random.normal(mean=float("nan"), dtype=types.INT32, shape=[2]),
            fn.random.normal(mean=float("nan"), dtype=types.UINT64, shape=[2]),
            fn.random.normal(mean=float("nan"), dtype=types.INT64, shape=[2]),
            fn.random.normal(mean=float("nan"), dtype=types.UINT8, shape=[2]))


pipe = rng_normal()
