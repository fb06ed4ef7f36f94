# oracle: error='C' should be the first or the last dimension in the layout, except for empty layouts where channel-last is assumed. Got layout: "HCW".
# noise.salt_and_pepper: one draw per pixel needs the channels first or last.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    x = fn.reshape(fn.random.uniform(shape=[4, 3, 5]), layout="HCW")
    return fn.noise.salt_and_pepper(x)


pipe = oracle_pipe()
