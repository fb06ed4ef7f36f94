# Conditionals inside a helper function called from the pipeline definition: the helper is
# traced like the pipeline function itself, `and` / `or` / `not` on DataNodes included.
from nvidia.dali import pipeline_def, fn, types


def augment(value, low, high):
    if low and not high:
        value = value * 2
    elif high or low:
        value = value - 1
    return value


@pipeline_def(batch_size=8, num_threads=1, device_id=None, seed=21, enable_conditionals=True)
def helper_pipeline():
    value = fn.random.uniform(range=[0.0, 100.0])
    low = value < 30
    high = value > 70
    result = augment(value, low, high)
    return result, value


pipe = helper_pipeline()
