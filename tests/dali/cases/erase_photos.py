# erase on photos: one region over H and W (every dim but C by default), two regions along W
# by name, normalized and centered regions with a per-channel fill, a region reaching past the
# edge (clipped), float coordinates truncated in float32, and per-sample anchors from labels.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    per_sample = fn.cast(fn.cat(labels, labels), dtype=types.FLOAT)
    return (fn.erase(images, anchor=[20, 30], shape=[50, 60]),
            fn.erase(images, anchor=[10, 200], shape=[30, 15.5], axis_names="W",
                     fill_value=300.7),
            fn.erase(images, anchor=[0.5, 0.5], shape=[0.25, 0.4], normalized=True,
                     centered_anchor=True, axes=[0, 1], fill_value=[255, 0, 128]),
            fn.erase(images, anchor=[250.7, -10.2], shape=[100.9, 40.6], axis_names="HW"),
            fn.erase(images, anchor=per_sample, shape=[33, 44], axis_names="WH",
                     fill_value=-1))


pipe = oracle_pipe()
