# nvidia.dali.math: two- and three-operand functions broadcasting numpy-style (a row against
# a matrix, a scalar per sample, a column against a row) and nested calls.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types, math


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=17)
def oracle_pipe():
    m = fn.random.uniform(range=[-5.0, 5.0], shape=[4, 3])
    row = fn.random.uniform(range=[-2.0, 2.0], shape=[1, 3])
    col = fn.cast(fn.random.uniform(range=[-6.0, 6.0], shape=[4, 1]), dtype=types.INT16)
    s = fn.random.uniform(range=[0.5, 3.0])
    return (math.min(m, row), math.max(col, row), math.clamp(m, -s, s), math.atan2(col, m),
            math.fpow(math.fabs(m), s), math.pow(col, fn.cast(s, dtype=types.INT32)),
            math.sqrt(math.abs(math.max(m, col))), math.clamp(col, row, 2))


pipe = oracle_pipe()
