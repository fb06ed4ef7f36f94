# Output shapes from per-sample int32 tensors: 1-D extents, and a scalar meaning a 1-D shape.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def rng_shapes():
    dims = fn.cast(fn.random.uniform(range=[0.0, 4.0], shape=[2]), dtype=types.INT32)
    n = fn.cast(fn.random.uniform(range=[0.0, 6.0]), dtype=types.INT32)
    return fn.random.uniform(shape=dims), fn.random.normal(shape=n), dims, n


pipe = rng_shapes()
