# random.uniform picking from `values`: a constant list (float32, converted to the output type)
# and per-sample lists from another operator; `values` wins over `range`.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=808)
def oracle_pipe():
    per_sample = fn.random.uniform(range=[0.0, 10.0], shape=[3])
    return (fn.random.uniform(values=[-1.0, 0.5, 7.0, 3.25], shape=[7]),
            fn.random.uniform(values=[-3.0, 2.5, 300.0], dtype=types.UINT8, shape=[7]),
            fn.random.uniform(values=per_sample, shape=[4]),
            fn.random.uniform(values=[1.0, 2.0], range=[5.0, 6.0], shape=[3]),
            per_sample)


pipe = oracle_pipe()
