# Multiple input sets: the two instances of random.normal share one logical id, so one seed,
# yet each uses up one of the pipeline's seeds. dalic's scripts do not take input sets yet:
# the test runs the pipeline DALI serialized (multiple_input_sets.pb).
from nvidia.dali import pipeline_def, fn, types

GOLDEN_PB = True


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1234)
def rng_multiple_input_sets():
    a = fn.random.uniform(shape=[2])
    b = fn.random.uniform(shape=[3])
    n = fn.random.normal([a, b])
    return a, b, n[0], n[1], fn.random.uniform()


pipe = rng_multiple_input_sets()
