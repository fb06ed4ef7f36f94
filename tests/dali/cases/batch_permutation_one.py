# batch_permutation with a batch of one: no_fixed_points is ignored (the only value is 0).
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=3)
def oracle_pipe():
    return (fn.batch_permutation(no_fixed_points=True),
            fn.batch_permutation(allow_repetitions=True, no_fixed_points=True))


pipe = oracle_pipe()
