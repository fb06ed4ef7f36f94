# oracle: error=Data type float is not supported for 0D inputs. Supported types are: uint8, uint16, uint32, uint64, int8, int16, int32, int64.
# random.choice draws from [0, a) only for integer scalars.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.choice(fn.random.uniform(range=[1, 5]))


pipe = oracle_pipe()
