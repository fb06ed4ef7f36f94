# random.coin_flip: probabilities in and out of [0, 1] (DALI checks none), per-sample
# probability, a shape-like input, the three output types.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=99)
def rng_coin_flip():
    p = fn.random.uniform(range=[0.0, 1.0])
    like = fn.random.uniform(shape=[2, 3])
    return (fn.random.coin_flip(shape=[8]),
            fn.random.coin_flip(probability=0.3, dtype=types.UINT8, shape=[8]),
            fn.random.coin_flip(probability=-0.5, dtype=types.BOOL, shape=[8]),
            fn.random.coin_flip(probability=1.5, shape=[4]),
            fn.random.coin_flip(probability=p, shape=[6]),
            fn.random.coin_flip(like, probability=0.7),
            fn.random.coin_flip(),
            p)


pipe = rng_coin_flip()
