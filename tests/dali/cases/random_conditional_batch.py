# Random operators inside conditionals run on part of the batch: each run moves the
# generators on by the samples it produced, so later iterations depend on the split.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=11, enable_conditionals=True)
def oracle_pipe():
    pick = fn.random.coin_flip(probability=0.4)
    if pick:
        out = fn.random.uniform(range=[0.0, 1.0], shape=[3])
    else:
        out = fn.random.normal(shape=[3]) + 10.0
    return out, pick


pipe = oracle_pipe()
# oracle: iterations=4
