# oracle: error=requested type: float current buffer type: int32
# A per-sample probability must be float32.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.coin_flip(probability=fn.cast(fn.random.uniform(range=[0.0, 2.0]), dtype=types.INT32))


pipe = oracle_pipe()
