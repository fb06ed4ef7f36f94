# squeeze: by index and by layout letter, after expand_dims adds extent-1 dims to photos;
# indices outside [0, ndim) remove nothing, as in DALI 2.4.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    framed = fn.expand_dims(images, axes=[0, 4], new_axis_names="FX")
    return (fn.squeeze(framed, axes=[0]), fn.squeeze(framed, axis_names="XF"),
            fn.squeeze(framed, axes=[4, 0, 7]), fn.squeeze(framed, axes=[-1]))


pipe = oracle_pipe()
