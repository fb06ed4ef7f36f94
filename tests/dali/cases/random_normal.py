# random.normal: float arithmetic (outputs up to 16-bit, float), double (32/64-bit, double),
# per-sample mean and stddev from other operators, a negative stddev (DALI accepts it).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=3, device_id=None, seed=2718)
def oracle_pipe():
    m = fn.random.uniform(range=[-50.0, 50.0])
    s = fn.random.uniform(range=[0.0, 3.0])
    return (fn.random.normal(shape=[6]),
            fn.random.normal(mean=m, stddev=s, shape=[3, 2]),
            fn.random.normal(mean=10.0, stddev=-2.0, shape=[4]),
            fn.random.normal(stddev=50.0, dtype=types.INT8, shape=[6]),
            fn.random.normal(mean=100.0, stddev=40.0, dtype=types.UINT8, shape=[6]),
            fn.random.normal(stddev=1e4, dtype=types.INT32, shape=[6]),
            fn.random.normal(mean=-5.0, dtype=types.UINT64, shape=[6]),
            fn.random.normal(dtype=types.FLOAT64, shape=[6]))


pipe = oracle_pipe()
