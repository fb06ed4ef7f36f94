# Constants: types.Constant with a list (and a shape) and scalars, fn.constant, used as
# arithmetic operands and returned; DALI names the constant operators it inserts, and the
# outputs agree.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=9)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    a = types.Constant([1, 2, 3, 4, 5, 6], shape=[2, 3], dtype=types.INT16)
    b = fn.constant(fdata=[0.5, 1.5, 2.5], shape=[3])
    c = types.Constant(7, dtype=types.UINT8)
    return a, b, labels + a[0], b * 2, labels + c, fn.constant(idata=[3, 1, 4], layout="X")


pipe = oracle_pipe()
