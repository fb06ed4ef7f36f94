# nvidia.dali.math on float samples from random.uniform: each function is an arithmetic
# operator too (___ArithmeticGenericOp_N); exact, as DALI computes in float.
from nvidia.dali import pipeline_def, fn, types
import nvidia.dali.math as dmath


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=31)
def oracle_pipe():
    x = fn.random.uniform(range=[-4.0, 4.0], shape=[8])
    y = fn.random.uniform(range=[0.5, 2.0], shape=[8])
    return (dmath.abs(x), dmath.min(x, y), dmath.max(x, 0.5), dmath.clamp(x, -1.0, 1.5),
            dmath.floor(x), dmath.ceil(x), x / y, x // y)


pipe = oracle_pipe()
