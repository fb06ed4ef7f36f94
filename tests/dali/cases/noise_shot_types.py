# noise.shot: the default factor (DALI's implementation uses 12, not the schema's 20), small
# and large factors (Poisson means below 12: the product method; above: Devroye's rejection),
# factor 0 (zeros), per-sample factors, float, int16 (negative values: mean 0) and uint32 inputs.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=47)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.resize(fn.decoders.image(jpegs), size=[16, 20])
    f = fn.random.uniform(range=[0.5, 40.0])
    return (fn.noise.shot(img),
            fn.noise.shot(img, factor=20.0),
            fn.noise.shot(img, factor=2.0),
            fn.noise.shot(img, factor=0.0),
            fn.noise.shot(img, factor=f),
            fn.noise.shot(fn.cast(img, dtype=types.FLOAT) / 25.5, factor=0.05),
            fn.noise.shot(fn.cast(img, dtype=types.INT16) - 128, factor=1.0),
            fn.noise.shot(fn.cast(img, dtype=types.UINT32) * 100000, factor=3.0))


pipe = oracle_pipe()
