# lookup_table on photo pixels: a gamma-like table over the 256 uint8 values to float16, and
# the pixel values' parity to int16.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    keys = list(range(256))
    gamma = [(k / 255.0) ** 0.45 for k in keys]
    parity = [float(k % 2) for k in keys[:200]]
    return (fn.lookup_table(images, keys=keys, values=gamma, dtype=types.FLOAT16),
            fn.lookup_table(images, keys=keys[:200], values=parity, default_value=7,
                            dtype=types.INT16))


pipe = oracle_pipe()
