# batch_permutation: a permutation, a derangement (no_fixed_points), draws with repetitions
# and without fixed points, per iteration of a batch of 8; then a batch of one.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=8, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    return (fn.batch_permutation(), fn.batch_permutation(no_fixed_points=True),
            fn.batch_permutation(allow_repetitions=True),
            fn.batch_permutation(allow_repetitions=True, no_fixed_points=True, seed=77))


pipe = oracle_pipe()
