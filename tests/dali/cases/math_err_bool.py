# oracle: error=Input to arithmetic operator `sqrt` cannot be a boolean. Consider using bitwise operator `~` or an numeric type.
# nvidia.dali.math: the functions refuse boolean inputs.
from nvidia.dali import pipeline_def, fn, types, math


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return math.sqrt(fn.cast(fn.random.coin_flip(), dtype=types.BOOL))


pipe = oracle_pipe()
