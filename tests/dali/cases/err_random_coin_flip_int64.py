# oracle: error=Data type int64 is currently not supported. Supported types are : bool, uint8, int32
# random.coin_flip: bool, uint8 or int32 only.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.coin_flip(dtype=types.INT64)


pipe = oracle_pipe()
