# slice with per-sample argument inputs: int32 start and shape built from the labels, float
# rel_start (padding where the window leaves the photo).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    pair = fn.cat(labels, labels)
    rel = fn.cast(pair, dtype=types.FLOAT)
    return (fn.slice(images, start=pair, shape=[50, 40]),
            fn.slice(images, start=[3, 4, 0], shape=fn.cat(pair, labels), axis_names="WHC"),
            fn.slice(images, rel_start=rel, rel_shape=[0.5, 0.25], out_of_bounds_policy="pad",
                     fill_values=[9, 99, 199]))


pipe = oracle_pipe()
