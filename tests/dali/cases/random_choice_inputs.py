# random.choice: scalar inputs (int32, uint8, int64 above 2^32: libstdc++'s upscaling), 1-D
# inputs (float16, float, with and without p), slices of a 2-D input (uniform and with p), a
# shape-like input, per-sample probabilities, a broadcast p, layouts.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=17)
def oracle_pipe():
    sc = fn.random.uniform(range=[1, 1000], dtype=types.INT32)
    vec = fn.reshape(fn.random.uniform(range=[-5, 5], shape=[4]), layout="A")
    w = fn.random.uniform(range=[0.5, 2.0], shape=[4])
    probs = w / fn.reductions.sum(w)
    mat = fn.reshape(fn.cast(fn.random.uniform(range=[0, 100], shape=[3, 4]), dtype=types.INT16),
                     layout="XY")
    big = fn.cast(sc, dtype=types.INT64) * fn.constant(idata=100000, shape=[],
                                                       dtype=types.INT64) * 100000
    small = fn.cast(sc, dtype=types.UINT8) | 1
    like = fn.random.uniform(shape=[2, 3])
    return (fn.random.choice(sc, shape=[7]),
            fn.random.choice(small, shape=[2, 2]),
            fn.random.choice(big, shape=[6]),
            fn.random.choice(vec, shape=[5]),
            fn.random.choice(fn.cast(vec, dtype=types.FLOAT16), shape=[3]),
            fn.random.choice(vec, p=[0.1, 0.0, 0.6, 0.3], shape=[9]),
            fn.random.choice(vec, p=probs, shape=[6]),
            fn.random.choice(vec, like),
            fn.random.choice(vec),
            fn.random.choice(mat, shape=[4]),
            fn.random.choice(mat, p=[0.5, 0.25, 0.25], shape=[2]),
            fn.random.choice(mat),
            fn.random.choice(vec, p=0.25, shape=[4]))


pipe = oracle_pipe()
