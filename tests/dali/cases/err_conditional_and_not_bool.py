# oracle: error=type == DALI_BOOL
# oracle: dalic_error=inputs of `bool` type
# `and` in a conditional checks both operands are bool (_conditional.validate_logical): a
# random.coin_flip of the default int32 is refused.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    x = fn.random.uniform(range=[0.0, 1.0])
    if x > 0.5 and fn.random.coin_flip():
        x = x + 1
    return x


pipe = oracle_pipe()
