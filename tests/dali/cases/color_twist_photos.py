# color_twist on decoded photos, per-sample saturation and contrast from the labels (0, 1, 2)
# (exact: DALI's float matrix and ConvertSat to uint8 are reproduced bit for bit).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    k = fn.cast(labels, dtype=types.FLOAT)
    return fn.color_twist(images, hue=37.5, saturation=k, contrast=k, brightness=1.2)


pipe = oracle_pipe()
