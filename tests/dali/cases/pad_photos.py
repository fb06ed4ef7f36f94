# pad: photos of different sizes padded to the batch's largest extents (all axes, H and W by
# name, W by negative index), to a requested shape aligned to 16, and with a per-sample fill
# value taken from the labels.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    fill = fn.squeeze(fn.cast(labels, dtype=types.FLOAT), axes=[0])
    return (fn.pad(images, fill_value=-1), fn.pad(images, axis_names="HW", fill_value=300.7),
            fn.pad(images, axes=[-2], fill_value=fill),
            fn.pad(images, axes=[0, 1], shape=[640, -1], align=[16, 16]),
            fn.pad(fn.cast(images, dtype=types.FLOAT16), axes=[2], shape=[4], fill_value=0.1))


pipe = oracle_pipe()
