# oracle: error=Data type int32 is not supported. Supported types are : float, double
# random.beta: float or double only.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.beta(dtype=types.INT32)


pipe = oracle_pipe()
