# paste of one-channel photos with a one-channel fill.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    gray = fn.slice(images, start=[0], shape=[1], axis_names="C")
    return fn.paste(gray, ratio=1.6, n_channels=1, fill_value=(200,), paste_x=0.7)


pipe = oracle_pipe()
