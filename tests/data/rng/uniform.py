# random.uniform: the dtypes (the range converted to the output type first), discrete values,
# an explicit seed (-1 is a seed like any other in DALI 2.4).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=1234)
def rng_uniform():
    return (fn.random.uniform(range=[-1.0, 1.0], shape=[5]),
            fn.random.uniform(range=[0.0, 10.0], dtype=types.FLOAT64, shape=[3]),
            fn.random.uniform(range=[-5.5, 7.2], dtype=types.INT32, shape=[4]),
            fn.random.uniform(range=[-1.0, 1.0], dtype=types.UINT8, shape=[4]),
            fn.random.uniform(range=[100.0, 300.0], dtype=types.INT8, shape=[4]),
            fn.random.uniform(range=[-1e12, 1e12], dtype=types.INT64, shape=[2]),
            fn.random.uniform(range=[0.0, 1e10], dtype=types.UINT64, shape=[2]),
            fn.random.uniform(values=[-1.0, 0.5, 7.0, 3.25], shape=[6]),
            fn.random.uniform(values=[-3.0, 2.5, 300.0], dtype=types.UINT8, shape=[6]),
            fn.random.uniform(range=[2.0, 3.0], seed=-1),
            fn.random.uniform())


pipe = rng_uniform()
