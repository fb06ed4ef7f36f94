# oracle: error=Arguments ``value`` and ``threshold`` can not be provided together
# segmentation.random_mask_pixel: foreground by value or by threshold, not both.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.segmentation.random_mask_pixel(fn.random.uniform(shape=[4, 4]), value=1,
                                             threshold=0.5, foreground=1)


pipe = oracle_pipe()
