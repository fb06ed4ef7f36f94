# oracle: error=Unsupported type: float16
# oracle: xfail=dalic's CPU arithmetic computes float16 as DALI's GPU arithmetic does (docs/dali-differences.md)
# nvidia.dali.math: DALI 2.4's CPU arithmetic has no float16 kernels.
from nvidia.dali import pipeline_def, fn, types, math


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return math.exp(fn.cast(fn.random.uniform(shape=[3]), dtype=types.FLOAT16))


pipe = oracle_pipe()
