# slice with positional anchor and shape inputs: normalized floats (the default), absolute
# floats (normalized_* False, rounded half away from zero) and integers, over "WH" and axes.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    rel_anchor = fn.constant(fdata=[0.1, 0.25])
    rel_shape = fn.constant(fdata=[0.5, 0.4])
    abs_anchor = fn.constant(fdata=[12.5, 7.4])
    abs_shape = fn.constant(fdata=[40.5, 33.2])
    int_anchor = fn.constant(idata=[3, 0, 1])
    int_shape = fn.constant(idata=[50, 60, 2])
    return (fn.slice(images, rel_anchor, rel_shape),
            fn.slice(images, abs_anchor, abs_shape, normalized_anchor=False,
                     normalized_shape=False),
            fn.slice(images, abs_anchor, rel_shape, normalized_anchor=False),
            fn.slice(images, int_anchor, int_shape, axes=[0, 1, 2]))


pipe = oracle_pipe()
