# per_frame: the layout gets a leading F (replace=True overwrites HWC's H; an F layout is kept;
# no layout becomes F**); the data is untouched.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    seq = fn.expand_dims(images, axes=[0], new_axis_names="F")
    bare = fn.reshape(images, layout="")
    return (fn.per_frame(images, replace=True), fn.per_frame(seq), fn.per_frame(bare),
            fn.get_property(fn.per_frame(bare), key="layout"))


pipe = oracle_pipe()
