# Subscripts with steps on small tensors, where DALI 2.4 gets them right: reversed rows,
# every second row backwards, a backwards range, reversed columns.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    x = fn.constant(idata=list(range(12)), shape=[4, 3], dtype=types.INT32)
    return x[::-1], x[::-2], x[1::-1], x[:, ::-1], x[3:0:-1], x[::2, 1:]


pipe = oracle_pipe()
