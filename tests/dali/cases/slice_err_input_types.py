# oracle: error=Anchor and shape should have the same type. Got: int32 and float
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.slice(images, fn.constant(idata=[1, 1]), fn.constant(fdata=[0.5, 0.5]))


pipe = oracle_pipe()
