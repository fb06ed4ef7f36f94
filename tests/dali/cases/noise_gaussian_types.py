# noise.gaussian on decoded photos (uint8 HWC), float, int16 and int32 images (float and double
# arithmetic), per-sample mean and stddev.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=41)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.resize(fn.decoders.image(jpegs), size=[24, 32])
    m = fn.random.uniform(range=[-20.0, 20.0])
    s = fn.random.uniform(range=[0.0, 30.0])
    return (fn.noise.gaussian(img),
            fn.noise.gaussian(img, mean=m, stddev=s),
            fn.noise.gaussian(fn.cast(img, dtype=types.FLOAT) / 255.0, stddev=0.1),
            fn.noise.gaussian(fn.cast(img, dtype=types.INT16) - 128, stddev=50.0),
            fn.noise.gaussian(fn.cast(img, dtype=types.INT32) * 1000, mean=0.5, stddev=700.0),
            fn.noise.gaussian(fn.cast(img, dtype=types.UINT64), stddev=3.0))


pipe = oracle_pipe()
