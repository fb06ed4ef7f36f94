# random.coin_flip: default, bool and uint8 outputs, per-sample probability, probabilities
# outside [0, 1] (DALI checks none), a shape-like input.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=99)
def oracle_pipe():
    p = fn.random.uniform(range=[0.0, 1.0])
    return (fn.random.coin_flip(),
            fn.random.coin_flip(probability=0.2, dtype=types.BOOL, shape=[10]),
            fn.random.coin_flip(probability=p, dtype=types.UINT8, shape=[10]),
            fn.random.coin_flip(probability=-0.5, shape=[10]),
            fn.random.coin_flip(probability=1.5, shape=[3]),
            fn.random.coin_flip(fn.random.normal(shape=[2, 5]), probability=0.9))


pipe = oracle_pipe()
