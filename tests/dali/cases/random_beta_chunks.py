# random.beta over 300000 elements: DALI copies the distribution (and the gammas' saved normal
# values) afresh for each chunk of about 65536 elements once a sample reaches 2^18.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=1, num_threads=2, device_id=None, seed=29)
def oracle_pipe():
    return fn.random.beta(alpha=2.0, beta=3.0, shape=[300000])


pipe = oracle_pipe()
# oracle: iterations=1
