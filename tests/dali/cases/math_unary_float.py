# nvidia.dali.math: the functions computed in floating point (sqrt, rsqrt, cbrt, exp, log*,
# trigonometric and hyperbolic) over the integer and float types: integers give float32,
# floats keep their type; values outside the domain give NaN or inf as DALI's.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types, math

TYPES = [types.UINT8, types.INT8, types.UINT16, types.INT16, types.INT32, types.UINT32,
         types.INT64, types.UINT64, types.FLOAT,
         types.FLOAT64]
FUNCS = [math.sqrt, math.rsqrt, math.cbrt, math.exp, math.log, math.log2, math.log10,
         math.sin, math.cos, math.tan, math.asin, math.acos, math.atan, math.sinh, math.cosh,
         math.tanh, math.asinh, math.acosh, math.atanh]


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    wide = fn.random.uniform(range=[-200.0, 200.0], shape=[24])
    unit = fn.random.uniform(range=[-1.2, 1.2], shape=[24])
    outs = []
    for t in TYPES:
        x = fn.cast(wide, dtype=t)
        outs += [f(x) for f in FUNCS]
    for t in (types.FLOAT, types.FLOAT64):
        x = fn.cast(unit, dtype=t)
        outs += [f(x) for f in FUNCS]
    return tuple(outs)


pipe = oracle_pipe()
