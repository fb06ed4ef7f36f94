# oracle: error=Input layout mismatch - expected input layout to be of size 3
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.one_hot(fn.reshape(images, layout=""), num_classes=3, axis_name="K")


pipe = oracle_pipe()
