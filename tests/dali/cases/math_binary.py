# nvidia.dali.math: pow, fpow, min, max, atan2 and clamp over mixed types (DALI's promotion:
# wider type wins, signed with unsigned gives the next signed size, floats win; fpow and atan2
# compute in float), with Python scalars as constants, integer pow with negative exponents.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types, math

PAIRS = [(types.UINT8, types.INT8), (types.INT16, types.UINT8), (types.INT32, types.UINT32),
         (types.UINT16, types.UINT64), (types.INT64, types.INT8), (types.FLOAT, types.INT32),
         (types.FLOAT64, types.FLOAT), (types.UINT32, types.FLOAT64)]


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=11)
def oracle_pipe():
    a = fn.random.uniform(range=[-9.0, 9.0], shape=[20])
    b = fn.random.uniform(range=[-4.0, 4.0], shape=[20])
    outs = []
    for ta, tb in PAIRS:
        x, y = fn.cast(a, dtype=ta), fn.cast(b, dtype=tb)
        outs += [math.pow(x, y), math.fpow(x, y), math.min(x, y), math.max(x, y),
                 math.atan2(x, y), math.clamp(x, y, 5), math.clamp(x, -3, y)]
    x = fn.cast(a, dtype=types.INT32)
    outs += [math.pow(x, 2), math.pow(2, fn.cast(b, dtype=types.INT16)), math.pow(x, -1),
             math.fpow(x, 0.5), math.min(x, 2.5), math.max(3, x), math.atan2(1, x),
             math.clamp(x, 0, 255), math.clamp(fn.cast(a, dtype=types.UINT8), 2, 7),
             math.clamp(a, -1.5, 2.25), math.pow(a, b), math.min(a, 0), x ** 3]
    return tuple(outs)


pipe = oracle_pipe()
