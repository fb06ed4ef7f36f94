# oracle: error=Unsupported input type for equalize operator: float
# equalize takes uint8 images only.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.equalize(fn.cast(rgb, dtype=types.FLOAT))


pipe = oracle_pipe()
