# oracle: error=The `alpha` must be a positive float32, got `0` for sample at index 0.
# random.beta: alpha > 0.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.beta(alpha=0.0)


pipe = oracle_pipe()
