# nvidia.dali.math: abs keeps the input type (unsigned unchanged, the most negative value
# wraps), fabs, floor and ceil give float32 for integers; minus and plus as operators.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types, math

TYPES = [types.UINT8, types.INT8, types.UINT16, types.INT16, types.INT32, types.UINT32,
         types.INT64, types.UINT64, types.FLOAT, types.FLOAT64]


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    wide = fn.random.uniform(range=[-300.0, 300.0], shape=[24])
    outs = []
    for t in TYPES:
        x = fn.cast(wide, dtype=t)
        outs += [math.abs(x), math.fabs(x), math.floor(x), math.ceil(x), -x, +x]
    edge = types.Constant([-128, -127, 0, 127], dtype=types.INT8)
    outs += [math.abs(edge), math.fabs(edge)]
    big = fn.cast(wide, dtype=types.FLOAT) * 1.0e7
    outs += [math.floor(big), math.ceil(fn.cast(big, dtype=types.INT64))]
    return tuple(outs)


pipe = oracle_pipe()
