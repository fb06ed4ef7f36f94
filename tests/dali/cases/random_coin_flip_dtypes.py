# random.coin_flip in each type DALI supports (bool, uint8, int32), shapes from shape=,
# a probability per sample from random.uniform, next to random.normal drawing from its own
# generator: the per-operator seeds and per-sample generators line up with DALI's.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=7, num_threads=3, device_id=None, seed=424242)
def oracle_pipe():
    p = fn.random.uniform(range=[0.1, 0.9])
    return (fn.random.coin_flip(dtype=types.INT32, shape=[5], probability=p),
            fn.random.coin_flip(dtype=types.UINT8, shape=[2, 3]),
            fn.random.coin_flip(dtype=types.BOOL, probability=0.05, shape=[16]),
            fn.random.normal(shape=[3], stddev=p), p)


pipe = oracle_pipe()
