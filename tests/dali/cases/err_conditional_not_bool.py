# oracle: error=Unexpected data type of output 0. Got bool, expected int32
# `not` in a conditional takes bool predicates only: random.coin_flip gives int32 by default,
# and DALI's not_ writes bools where it declared the input's type, which its executor refuses.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    x = fn.random.uniform(range=[0.0, 1.0])
    if not fn.random.coin_flip():
        x = x + 1
    return x


pipe = oracle_pipe()
