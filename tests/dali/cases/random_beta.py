# random.beta: the default Beta(1, 1), parameters above and below 1 (the log-space method when
# both are below 1), double output, per-sample alpha, a shape-like input; 300 elements per
# sample so the gammas' normals carry their second values from element to element.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=23)
def oracle_pipe():
    a = fn.random.uniform(range=[0.2, 3.0])
    return (fn.random.beta(shape=[5]),
            fn.random.beta(alpha=2.5, beta=0.7, shape=[300]),
            fn.random.beta(alpha=0.3, beta=0.6, shape=[300]),
            fn.random.beta(alpha=0.5, beta=0.5, shape=[300], dtype=types.FLOAT64),
            fn.random.beta(alpha=4.0, beta=9.0, shape=[300], dtype=types.FLOAT64),
            fn.random.beta(alpha=a, beta=1.5, shape=[40]),
            fn.random.beta(fn.random.uniform(shape=[2, 3]), alpha=1e-3, beta=1e-4))


pipe = oracle_pipe()
