# random.uniform for every output type DALI supports: the range is converted to the output type
# first (so [-1, 1) as uint8 draws in [1, 255]), then drawn in float or double.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=1234)
def oracle_pipe():
    return (fn.random.uniform(range=[-1.0, 1.0], dtype=types.UINT8, shape=[5]),
            fn.random.uniform(range=[100.0, 300.0], dtype=types.INT8, shape=[5]),
            fn.random.uniform(range=[-300.5, 70000.0], dtype=types.UINT16, shape=[5]),
            fn.random.uniform(range=[-3000.5, 3000.5], dtype=types.INT16, shape=[5]),
            fn.random.uniform(range=[0.5, 2.7], dtype=types.INT32, shape=[5]),
            fn.random.uniform(range=[0.0, 4e9], dtype=types.UINT32, shape=[5]),
            fn.random.uniform(range=[-1e12, 1e12], dtype=types.INT64, shape=[5]),
            fn.random.uniform(range=[0.0, 1e19], dtype=types.UINT64, shape=[5]),
            fn.random.uniform(range=[-2.5, 2.5], dtype=types.FLOAT, shape=[5]),
            fn.random.uniform(range=[-2.5, 2.5], dtype=types.FLOAT64, shape=[5]))


pipe = oracle_pipe()
