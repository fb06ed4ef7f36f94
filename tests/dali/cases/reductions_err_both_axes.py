# oracle: error=Arguments `axes` and `axis_names` are mutually exclusive
# reductions.max with both axes and axis_names.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.reductions.max(im, axes=[0], axis_names="H")


pipe = oracle_pipe()
