# noise.salt_and_pepper: defaults, one draw per pixel (per_channel=False) for HWC and CHW,
# independent channels, given salt and pepper values (converted as C++ casts them: 300 as uint8),
# per-sample probabilities, float, int16 and int64 inputs (their extremes as default values).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=43)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.resize(fn.decoders.image(jpegs), size=[24, 32])
    prob = fn.random.uniform(range=[0.0, 0.5])
    return (fn.noise.salt_and_pepper(img),
            fn.noise.salt_and_pepper(img, prob=0.3, per_channel=True),
            fn.noise.salt_and_pepper(fn.transpose(img, perm=[2, 0, 1]), prob=0.3),
            fn.noise.salt_and_pepper(img, prob=prob, salt_vs_pepper=0.8, salt_val=300.0,
                                     pepper_val=-7.5),
            fn.noise.salt_and_pepper(fn.cast(img, dtype=types.FLOAT) / 255.0, prob=0.2),
            fn.noise.salt_and_pepper(fn.cast(img, dtype=types.INT16), prob=0.2, per_channel=True),
            fn.noise.salt_and_pepper(fn.cast(img, dtype=types.INT64), prob=0.2,
                                     salt_val=1e19))


pipe = oracle_pipe()
