# oracle: error=Data type bool is currently not supported. Supported types are : uint8, int8, uint16, int16, uint32, int32, uint64, int64, float, double
# random.uniform has no bool output.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(dtype=types.BOOL)


pipe = oracle_pipe()
