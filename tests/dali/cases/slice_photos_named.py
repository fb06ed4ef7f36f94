# slice with named arguments on photos: start/shape over the default axis_names "WH",
# rel_start/rel_end by axis index, end by name, rel_start/rel_shape (rounded once), trimming a
# window past the edge, and padding it with per-channel fill values.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return (fn.slice(images, start=[30, 10], shape=[64, 48]),
            fn.slice(images, rel_start=[0.15, 0.3], rel_end=[0.85, 0.95], axes=[0, 1]),
            fn.slice(images, end=[100, 2], axis_names="HC"),
            fn.slice(images, rel_start=[0.15, 0.15], rel_shape=[0.3, 0.55], axes=[-2, -3]),
            fn.slice(images, start=[280, 400], shape=[60, 80], axis_names="HW",
                     out_of_bounds_policy="trim_to_shape"),
            fn.slice(images, start=[-20, 430], shape=[50, 40], axis_names="HW",
                     out_of_bounds_policy="pad", fill_values=[255, 128, 0]))


pipe = oracle_pipe()
