# oracle: error=Normalize: unsupported output type: double
# normalize into float64 is not a kernel DALI has.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.normalize(im, dtype=types.FLOAT64)


pipe = oracle_pipe()
