# oracle: error=Unsupported interpolation type, only NN and LINEAR are supported
# water has no cubic interpolation.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.water(im, interp_type=types.INTERP_CUBIC)


pipe = oracle_pipe()
