# oracle: error=Inputs to arithmetic operator `max` cannot be booleans. Consider using bitwise operators `|`, `&`, `^` or anumeric type as one of the inputs to force type promotions of the booleans.
# nvidia.dali.math: the two-operand functions refuse two boolean inputs.
from nvidia.dali import pipeline_def, fn, types, math


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    b = fn.cast(fn.random.coin_flip(), dtype=types.BOOL)
    return math.max(b, b)


pipe = oracle_pipe()
